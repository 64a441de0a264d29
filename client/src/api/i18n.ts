/**
 * The client's interface words, through i18next: one resource file per language in
 * client/src/i18n/ (English, Spanish, Catalan), interpolation as `{{name}}`, plurals as
 * `key_one` / `key_other` chosen by the `n` (or `count`) parameter with the language's own rules.
 * The language is the session's application language (`dedalo_application_lang`); a key missing
 * in it falls back to English. `t(key, params)` is the one call the screens use.
 */
import i18next, { type i18n } from 'i18next';
import ca from '../i18n/ca.js';
import en from '../i18n/en.js';
import es from '../i18n/es.js';

export const UI_LANGS = ['en', 'es', 'ca'] as const;
export type UiLang = (typeof UI_LANGS)[number];

/** Every key of the English file (the plural forms by their base name). */
type EnKey = keyof typeof en;
type BaseOf<K> = K extends `${infer B}_one` ? B : K extends `${infer B}_other` ? B : K;
export type MessageKey = BaseOf<EnKey>;

/** Values put into a sentence (a missing one shows empty, never "undefined"). */
type Params = Record<string, unknown>;

/** Dédalo language codes of the interface languages. */
const DEDALO_OF: Record<UiLang, string> = { en: 'lg-eng', es: 'lg-spa', ca: 'lg-cat' };

const instance: i18n = i18next.createInstance();
void instance.init({
  resources: { en: { translation: en }, es: { translation: es }, ca: { translation: ca } },
  lng: 'en',
  fallbackLng: 'en',
  // Resources are bundled: init finishes before the first t().
  initAsync: false,
  // Keys are flat words with dots and colons in their text, never paths or namespaces.
  keySeparator: false,
  nsSeparator: false,
  // Lit escapes what it renders; escaping here would show "&amp;" to people.
  interpolation: { escapeValue: false },
  returnNull: false,
});

let current: UiLang = 'en';

/** The interface language from a Dédalo language code (lg-spa, lg-cat, lg-eng...). */
export function uiLangOf(dedaloLang: string | undefined): UiLang {
  const found = (Object.entries(DEDALO_OF) as [UiLang, string][]).find(([, code]) => code === dedaloLang);
  return found ? found[0] : 'en';
}

/** The Dédalo language code of an interface language. */
export function dedaloLangOf(lang: UiLang): string {
  return DEDALO_OF[lang];
}

/** Sets the interface language; the page's `lang` follows so screen readers speak it right. */
export function setUiLang(lang: UiLang): void {
  current = lang;
  void instance.changeLanguage(lang);
  if (typeof document !== 'undefined') document.documentElement.lang = lang;
}

export function uiLang(): UiLang {
  return current;
}

export function t(key: MessageKey, params: Params = {}, lang: UiLang = current): string {
  const count = typeof params.count === 'number' ? params.count : params.n;
  const values = Object.fromEntries(Object.entries(params).map(([k, v]) => [k, v ?? '']));
  return instance.t(key, {
    ...values,
    lng: lang,
    ...(typeof count === 'number' ? { count } : {}),
  }) as string;
}

/** The locale for dates and numbers in the interface language. */
export function localeOf(lang: UiLang = current): string {
  return { en: 'en-GB', es: 'es-ES', ca: 'ca-ES' }[lang];
}

/** A moment for people: the time today, else the date and time, in the interface language. */
export function momentOf(iso: string | undefined, lang: UiLang = current, now = new Date()): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const sameDay = d.toDateString() === now.toDateString();
  const locale = localeOf(lang);
  return sameDay
    ? d.toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit' })
    : d.toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' });
}
