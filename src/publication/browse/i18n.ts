/**
 * The browse pages' interface words, through i18next as in the web client (client/src/api/i18n.ts:
 * the same library, the same options: flat keys, `{{name}}` interpolation, plurals as `key_one` /
 * `key_other` chosen by `count`, a key missing in a language falls back to English). The words
 * are the catalogue's own (browse/i18n/en.ts, es.ts, ca.ts), not the cataloguing client's.
 *
 * The language of a page: the `ui` query parameter when it names one of ours (links then carry
 * it), else the browser's Accept-Language, else English (docs/browse-exports-facets.md). It also
 * picks which language variant of a record is shown first (`dataLangOf`).
 */
import i18next, { type i18n } from 'i18next';
import ca from './i18n/ca.js';
import en from './i18n/en.js';
import es from './i18n/es.js';

export const UI_LANGS = ['en', 'es', 'ca'] as const;
export type UiLang = (typeof UI_LANGS)[number];

type EnKey = keyof typeof en;
type BaseOf<K> = K extends `${infer B}_one` ? B : K extends `${infer B}_other` ? B : K;
export type MessageKey = BaseOf<EnKey>;

/** Dédalo language codes of the interface languages. */
const DEDALO_OF: Record<UiLang, string> = { en: 'lg-eng', es: 'lg-spa', ca: 'lg-cat' };
const LOCALE_OF: Record<UiLang, string> = { en: 'en-GB', es: 'es-ES', ca: 'ca-ES' };

const instance: i18n = i18next.createInstance();
void instance.init({
  resources: { en: { translation: en }, es: { translation: es }, ca: { translation: ca } },
  lng: 'en',
  fallbackLng: 'en',
  initAsync: false,
  keySeparator: false,
  nsSeparator: false,
  // Eta escapes what the templates print; escaping here would show "&amp;" to people.
  interpolation: { escapeValue: false },
  returnNull: false,
});

export function isUiLang(value: string): value is UiLang {
  return (UI_LANGS as readonly string[]).includes(value);
}

/** The first of our languages in an Accept-Language header, by its q weights; undefined if none. */
export function fromAcceptLanguage(header: string | undefined): UiLang | undefined {
  if (!header) return undefined;
  const wanted = header
    .split(',')
    .map((part, i) => {
      const [tag = '', ...params] = part.trim().toLowerCase().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { lang: tag.split('-')[0] ?? '', q: q ? Number(q.slice(2)) || 0 : 1, i };
    })
    .filter((w) => w.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i);
  return wanted.map((w) => w.lang).find(isUiLang);
}

export interface UiChoice {
  lang: UiLang;
  /** True when the URL chose it (`ui=`): the page's links then carry it on. */
  explicit: boolean;
}

export function chooseUiLang(uiParam: string | undefined, acceptLanguage: string | undefined): UiChoice {
  if (uiParam && isUiLang(uiParam)) return { lang: uiParam, explicit: true };
  return { lang: fromAcceptLanguage(acceptLanguage) ?? 'en', explicit: false };
}

export type Translate = (key: MessageKey | `${string}:${string}`, params?: Record<string, unknown>) => string;

/** The translator of one page's language. */
export function translator(lang: UiLang): Translate {
  return (key, params = {}) => instance.t(key, { ...params, lng: lang }) as string;
}

/** A key's word in `lang`, or undefined when no language file has it (a field of another archive). */
export function known(lang: UiLang, key: string): string | undefined {
  return instance.exists(key, { lng: lang }) ? (instance.t(key, { lng: lang }) as string) : undefined;
}

export function dataLangOf(lang: UiLang): string {
  return DEDALO_OF[lang];
}

export function localeOf(lang: UiLang): string {
  return LOCALE_OF[lang];
}

/** A number written the interface language's way. */
export function formatNumber(lang: UiLang, n: number): string {
  return n.toLocaleString(LOCALE_OF[lang]);
}
