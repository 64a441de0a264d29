/**
 * One custom element per component model, named after it (component_input_text ->
 * <component-input-text>). Unknown models fall back to the read-only element.
 */
import './component-date.js';
import './component-filter.js';
import './component-input-text.js';
import './component-media.js';
import './component-number.js';
import './component-password.js';
import './component-portal.js';
import './component-readonly.js';
import './component-security-access.js';
import './component-select.js';
import './component-text-area.js';

export function elementNameOf(model: string): string {
  const name = model.replaceAll('_', '-');
  return customElements.get(name) ? name : 'component-readonly';
}
