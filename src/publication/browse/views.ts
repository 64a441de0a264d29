/**
 * Renders the browse pages with Eta (escaping by default). One engine per process, templates
 * loaded once from templates.ts.
 */
import { Eta } from 'eta';
import type { Translate } from './i18n.js';
import { TEMPLATES } from './templates.js';

const eta = new Eta({ autoEscape: true, autoTrim: [false, 'nl'], cache: true });
for (const [name, source] of Object.entries(TEMPLATES)) eta.loadTemplate(name, source);

export interface LayoutData {
  /** The interface language (the page's `lang`). */
  lang: string;
  title: string;
  /** The browse root URL ({BASE_PATH}/browse). */
  base: string;
  homeHref: string;
  docsHref: string;
  crumbs: { label: string; href?: string }[];
  /** The interface language switch: this page in each language. */
  languages: { code: string; label: string; href: string; current: boolean }[];
  t: Translate;
}

export function renderPage(
  name: '@home' | '@database' | '@table' | '@record' | '@error',
  data: LayoutData & object,
): string {
  return eta.render(name, data);
}
