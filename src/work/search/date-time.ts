/**
 * Dédalo's virtual calendar: every month has 31 days and every year 372, so a date is a count of
 * seconds that sorts and compares even when only the year or the month is known
 * ((year*372 + (month-1)*31 + (day-1)) * 86400 + clock seconds). Stored date items carry it as
 * `start.time`; the database computes it from the parts when it is missing (work_date_time,
 * migration 4), with the same formula as here.
 */

export const DAY_SECONDS = 86_400;

export interface DateParts {
  year: number;
  month?: number;
  day?: number;
  hour?: number;
  minute?: number;
  second?: number;
}

/** The virtual-calendar seconds of a date (missing month/day count as the first). */
export function dateTime(parts: DateParts): number {
  const days = parts.year * 372 + ((parts.month ?? 1) - 1) * 31 + ((parts.day ?? 1) - 1);
  return days * DAY_SECONDS + (parts.hour ?? 0) * 3600 + (parts.minute ?? 0) * 60 + (parts.second ?? 0);
}

/**
 * The half-open interval [from, to) of seconds a date of the given precision covers: a year
 * alone covers the whole (virtual) year, a year and month the month, a full date the day.
 */
export function dateInterval(parts: DateParts): { from: number; to: number } {
  const from = dateTime({ year: parts.year, month: parts.month, day: parts.day });
  const span = parts.month === undefined ? 372 : parts.day === undefined ? 31 : 1;
  return { from, to: from + span * DAY_SECONDS };
}
