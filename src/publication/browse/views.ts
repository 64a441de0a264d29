/**
 * Renders the browse pages with Eta (escaping by default). One engine per process, templates
 * loaded once from templates.ts.
 */
import { Eta } from 'eta';
import { TEMPLATES } from './templates.js';

const eta = new Eta({ autoEscape: true, autoTrim: [false, 'nl'], cache: true });
for (const [name, source] of Object.entries(TEMPLATES)) eta.loadTemplate(name, source);

export interface LayoutData {
  title: string;
  /** The browse root URL ({BASE_PATH}/browse). */
  base: string;
  docsHref: string;
  crumbs: { label: string; href?: string }[];
}

export function renderPage(
  name: '@home' | '@database' | '@table' | '@record' | '@error',
  data: LayoutData & object,
): string {
  return eta.render(name, data);
}
