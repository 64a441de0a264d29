/**
 * Dates and moments as people read them: in the interface language's locale (Intl), with the
 * precision stored (a year, a month and year, a day), never the storage form `1998/05/12` nor the
 * browser's default locale (`11/26/2026, 4:46:31 PM` to Catalan staff). A stored date is a
 * calendar day with no time zone; a moment (activity, history) is stored in UTC and shown in
 * the reader's time zone.
 */
import { localeOf, type UiLang, uiLang } from './i18n.js';

/** A stored date's parts (read-shapes.ts has the same shape). */
export interface DateParts {
  year?: number;
  month?: number;
  day?: number;
}

export type MomentParts = DateParts & { hour?: number; minute?: number; second?: number };

/** The day of `parts` as a Date at UTC midnight (years below 100 kept as written). */
function utcDay(parts: DateParts): Date {
  const d = new Date(Date.UTC(2000, (parts.month ?? 1) - 1, parts.day ?? 1));
  d.setUTCFullYear(parts.year!);
  return d;
}

/** `12 de maig de 1998`, `maig de 1998`, `1998`; '' without a year. */
export function dateText(parts: DateParts | undefined, lang: UiLang = uiLang()): string {
  if (!parts || parts.year === undefined) return '';
  // Years before the common era and beyond Intl's range keep the plain storage form.
  if (parts.year <= 0 || parts.year > 9999) return String(parts.year);
  if (parts.month === undefined) return String(parts.year);
  const options: Intl.DateTimeFormatOptions =
    parts.day === undefined
      ? { year: 'numeric', month: 'long', timeZone: 'UTC' }
      : { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' };
  return new Intl.DateTimeFormat(localeOf(lang), options).format(utcDay(parts));
}

/** A stored UTC moment with its time of day, in the reader's time zone and locale. */
export function momentPartsText(parts: MomentParts | undefined, lang: UiLang = uiLang()): string {
  if (!parts || parts.hour === undefined || parts.year === undefined) return dateText(parts, lang);
  const d = utcDay(parts);
  d.setUTCHours(parts.hour, parts.minute ?? 0, parts.second ?? 0);
  return new Intl.DateTimeFormat(localeOf(lang), { dateStyle: 'medium', timeStyle: 'medium' }).format(d);
}

/** An ISO 8601 moment (history, locks) in the reader's time zone and locale. */
export function isoMomentText(iso: string, lang: UiLang = uiLang()): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return new Intl.DateTimeFormat(localeOf(lang), { dateStyle: 'medium', timeStyle: 'medium' }).format(d);
}
