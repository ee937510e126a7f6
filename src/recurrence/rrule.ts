/**
 * An RRULE value (RFC 5545 §3.3.10) read into its parts, and what the parts allow before any
 * walk: the most instants one period of the rule can hold, against which a BYSETPOS is checked.
 */

import { monthLength } from './days.js';

/** Frequencies of a day or more (sub-daily rules are refused when a write is checked). */
export type Frequency = 'DAILY' | 'WEEKLY' | 'MONTHLY' | 'YEARLY';

/** A BYDAY entry: a weekday (0 Monday … 6 Sunday) and its ordinal in the period (0: every one). */
export interface WeekdayEntry {
  weekday: number;
  n: number;
}

/** The parts of an RRULE, numbers as numbers. */
export interface RuleParts {
  freq: Frequency;
  interval: number;
  count?: number;
  /** UNTIL as written (a DATE or DATE-TIME value). */
  until?: string;
  bySecond?: number[];
  byMinute?: number[];
  byHour?: number[];
  byDay?: WeekdayEntry[];
  byMonthDay?: number[];
  byYearDay?: number[];
  byWeekNo?: number[];
  byMonth?: number[];
  bySetPos?: number[];
  /** The weekday weeks start on (0 Monday, the default). */
  wkst: number;
}

/** Weekday names in the order of {@link WeekdayEntry.weekday}. */
export const WEEKDAY_NAMES = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const;

/** The number of a weekday name, -1 for none. */
const weekdayNumber = (name: string): number => WEEKDAY_NAMES.findIndex((n) => n === name);

/** The whole numbers of a list part (anything else is left out: a stored rule is read leniently). */
const numbers = (value: string) => value.split(',').map(Number).filter(Number.isSafeInteger);

/** A whole number of at least 1, else `fallback`. */
const positive = (value: string, fallback: number | undefined) => {
  const n = Number(value);
  return Number.isSafeInteger(n) && n >= 1 ? n : fallback;
};

/**
 * The parts of an RRULE value already checked part by part (upper case, no spaces, numbers in
 * their ranges), or `undefined` for a frequency below a day.
 */
export function ruleParts(rrule: string): RuleParts | undefined {
  const parts: Partial<RuleParts> & { wkst: number; interval: number } = { wkst: 0, interval: 1 };
  for (const part of rrule.split(';')) {
    const eq = part.indexOf('=');
    const name = part.slice(0, eq);
    const value = part.slice(eq + 1);
    switch (name) {
      case 'FREQ':
        if (value !== 'DAILY' && value !== 'WEEKLY' && value !== 'MONTHLY' && value !== 'YEARLY') return undefined;
        parts.freq = value;
        break;
      case 'INTERVAL':
        parts.interval = positive(value, 1) ?? 1;
        break;
      case 'COUNT':
        parts.count = positive(value, undefined);
        break;
      case 'UNTIL':
        parts.until = value;
        break;
      case 'BYSECOND':
        parts.bySecond = numbers(value);
        break;
      case 'BYMINUTE':
        parts.byMinute = numbers(value);
        break;
      case 'BYHOUR':
        parts.byHour = numbers(value);
        break;
      case 'BYMONTHDAY':
        parts.byMonthDay = numbers(value);
        break;
      case 'BYYEARDAY':
        parts.byYearDay = numbers(value);
        break;
      case 'BYWEEKNO':
        parts.byWeekNo = numbers(value);
        break;
      case 'BYMONTH':
        parts.byMonth = numbers(value);
        break;
      case 'BYSETPOS':
        parts.bySetPos = numbers(value);
        break;
      case 'WKST':
        parts.wkst = Math.max(0, weekdayNumber(value));
        break;
      case 'BYDAY':
        parts.byDay = value
          .split(',')
          .map((v) => ({ weekday: weekdayNumber(v.slice(-2)), n: v.length > 2 ? Number(v.slice(0, -2)) : 0 }))
          .filter((e) => e.weekday >= 0 && Number.isSafeInteger(e.n));
        break;
      default:
        break;
    }
  }
  return parts.freq === undefined ? undefined : { ...parts, freq: parts.freq };
}

/** A leap year: its months are each as long as they ever get. */
const LONGEST_YEAR = 2000;

const MONTHS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];

/** How many of the days BYMONTHDAY lists month `m` has in its longest year (30 February never comes). */
function validDays(m: number, monthDays: readonly number[]): number {
  const length = monthLength(LONGEST_YEAR, m);
  return new Set(monthDays.filter((d) => Math.abs(d) <= length).map((d) => (d > 0 ? d : length + d + 1))).size;
}

/** Whether a BYDAY entry counts weekdays within the period (an ordinal, in a monthly or yearly rule). */
export const ordinalApplies = (freq: Frequency, entry: WeekdayEntry) => entry.n !== 0 && (freq === 'MONTHLY' || freq === 'YEARLY');

/**
 * The most days one period of the rule can select, whatever the year: the least of what each
 * BY part allows (the period's length, the months listed, the days listed…). The defaults
 * DTSTART fills in (RFC 5545 §3.3.10: the start's day, weekday or month) count as listed.
 */
export function maxDaysPerPeriod(parts: RuleParts): number {
  const { freq } = parts;
  const byMonth = parts.byMonth && [...new Set(parts.byMonth)];
  const noDaySelector = !parts.byWeekNo && !parts.byYearDay && !parts.byMonthDay && !parts.byDay;
  const bounds: number[] = [];
  const periodDays =
    freq === 'YEARLY' ? (byMonth ? byMonth.reduce((s, m) => s + monthLength(LONGEST_YEAR, m), 0) : 366) : freq === 'MONTHLY' ? 31 : freq === 'WEEKLY' ? 7 : 1;
  bounds.push(periodDays);
  // Days listed by their number in a month: one per month of the period, if the month has it.
  const months = freq === 'YEARLY' ? (byMonth ? byMonth.length : 12) : 1;
  if (parts.byMonthDay) {
    const perMonth = (byMonth ?? MONTHS).map((m) => validDays(m, parts.byMonthDay ?? []));
    bounds.push(freq === 'YEARLY' ? perMonth.reduce((a, b) => a + b, 0) : Math.max(...perMonth));
  }
  if (parts.byYearDay) bounds.push(new Set(parts.byYearDay).size);
  if (parts.byWeekNo && freq === 'YEARLY') bounds.push(new Set(parts.byWeekNo).size * 7);
  if (parts.byDay) {
    const plain = new Set(parts.byDay.filter((e) => !ordinalApplies(freq, e)).map((e) => e.weekday)).size;
    const ordinals = new Set(parts.byDay.filter((e) => ordinalApplies(freq, e)).map((e) => `${e.n}${e.weekday}`)).size;
    bounds.push(plain * Math.ceil(periodDays / 7) + ordinals * months);
  }
  // By default a yearly rule takes the start's day of each month listed (its own month when none is).
  if (noDaySelector) bounds.push(freq === 'YEARLY' && byMonth ? byMonth.length : 1);
  return Math.min(...bounds);
}

/** The most instants one period can hold: its days times the times of day listed. */
export function maxInstantsPerPeriod(parts: RuleParts): number {
  const size = (list: number[] | undefined) => (list ? new Set(list).size : 1);
  return maxDaysPerPeriod(parts) * size(parts.byHour) * size(parts.byMinute) * size(parts.bySecond);
}
