/**
 * Date values of component_date (docs/work-api.md): an item holds a `start`
 * date object and optionally an `end`, each with only the parts that are known (a year alone is a
 * valid date). This module checks that each part is a real calendar value and computes `time`,
 * Dédalo's virtual-calendar seconds used for ordering and range search: every year counts 372
 * days and every month 31, so a partial date (year only) still orders before the full dates of
 * the next year. The client never computes `time`, so the server does on every save.
 */
import { WorkError } from '../dispatch/error-registry.js';
import { type DateParts, dateTime } from '../search/date-time.js';

/** A stored date part: the parts a search compares, plus milliseconds and the computed time. */
export interface DatePart extends DateParts {
  ms?: number;
  time: number;
}

export interface DateValue {
  start: DatePart;
  end?: DatePart;
}

const PARTS = ['year', 'month', 'day', 'hour', 'minute', 'second', 'ms'] as const;

/** Years Dédalo can hold; negative years are BCE. */
const MAX_YEAR = 999_999;

const isLeap = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeap(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/**
 * Dédalo's virtual calendar: ((year*372 + (month-1)*31 + (day-1)) * 86400 + clock seconds). The
 * search layer's formula, so stored times and search bounds can never disagree.
 */
export function virtualTime(d: Omit<DatePart, 'time'>): number {
  return dateTime(d);
}

function invalid(component: string, message: string): WorkError {
  return new WorkError('validation.invalid_date_format', `${component}: ${message}`);
}

/**
 * One date object: integer parts in range, a day only with a month, the day real for that month
 * and year. A client-sent `time` is ignored and recomputed.
 */
export function parseDatePart(raw: unknown, component: string, path: string): DatePart {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw invalid(component, `${path} must be a date object like {"year": 1931, "month": 4, "day": 14}`);
  }
  const source = raw as Record<string, unknown>;
  const out: Partial<Record<(typeof PARTS)[number], number>> = {};
  for (const part of PARTS) {
    const value = Object.hasOwn(source, part) ? source[part] : undefined;
    if (value === undefined || value === null || value === '') continue;
    // The stock client's date inputs may send parts as numeric strings ("04").
    const n = typeof value === 'string' && /^-?\d{1,7}$/.test(value) ? Number(value) : value;
    if (typeof n !== 'number' || !Number.isInteger(n)) {
      throw invalid(component, `${path}.${part} must be an integer`);
    }
    out[part] = n;
  }
  const { year, month, day, hour, minute, second, ms } = out;
  if (year === undefined) throw invalid(component, `${path}.year is required`);
  if (Math.abs(year) > MAX_YEAR) throw invalid(component, `${path}.year ${year} is out of range`);
  if (month !== undefined && (month < 1 || month > 12)) {
    throw invalid(component, `${path}.month ${month} is not a month (1-12)`);
  }
  if (day !== undefined) {
    if (month === undefined) throw invalid(component, `${path}.day needs a month`);
    const last = daysInMonth(year, month);
    if (day < 1 || day > last) {
      throw invalid(
        component,
        `${path}.day ${day} does not exist in ${year}-${String(month).padStart(2, '0')}`,
      );
    }
  }
  if (hour !== undefined && (hour < 0 || hour > 23))
    throw invalid(component, `${path}.hour ${hour} is not 0-23`);
  if (minute !== undefined && (minute < 0 || minute > 59))
    throw invalid(component, `${path}.minute ${minute} is not 0-59`);
  if (second !== undefined && (second < 0 || second > 59))
    throw invalid(component, `${path}.second ${second} is not 0-59`);
  if (ms !== undefined && (ms < 0 || ms > 999)) throw invalid(component, `${path}.ms ${ms} is not 0-999`);
  const part: Omit<DatePart, 'time'> = { year };
  for (const name of PARTS.slice(1)) if (out[name] !== undefined) part[name] = out[name];
  return { ...part, time: virtualTime(part) };
}

/** A date value `{start, end?}`: an `end` before its `start` is refused. */
export function parseDateValue(raw: unknown, component: string, path: string): DateValue {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw invalid(component, `${path} must be an object with a start date`);
  }
  const source = raw as Record<string, unknown>;
  const start = parseDatePart(source.start, component, `${path}.start`);
  if (source.end === undefined || source.end === null) return { start };
  const end = parseDatePart(source.end, component, `${path}.end`);
  if (end.time < start.time) throw invalid(component, `${path}.end is before its start`);
  return { start, end };
}
