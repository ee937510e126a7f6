/**
 * The `recurrence` of an event write, Google Calendar's shape: a list of RFC 5545 lines,
 * `RRULE:…` (at most one), `RDATE…` and `EXDATE…`, read against the event's start and zone.
 * Dates of RDATE and EXDATE become wall clocks in the event's zone, the form the expansion and
 * the occurrence index use.
 */
import { formatWallClock, wallClockToInstant } from '../dates/index.js';
import { maxDaysPerPeriod, maxInstantsPerPeriod, ruleParts } from './rrule.js';

/** A series' recurrence, checked: its lines as stored and shown, and what they say. */
export interface Recurrence {
  /** The lines, normalised (names upper-case, one line per property as given). */
  lines: string[];
  /** The RRULE value (`FREQ=WEEKLY;BYDAY=MO`), with UNTIL as given; none for a list of dates only. */
  rrule?: string;
  /** Extra occurrences: wall clocks in the event's zone, or dates (`YYYY-MM-DD`) at the event's time. */
  rdates: string[];
  /** Occurrences taken out: wall clocks in the event's zone, or whole dates. */
  exdates: string[];
}

/** Why a recurrence was refused: the message of the 400. */
export class RecurrenceError extends Error {}

/** Bounds of what one write may send. */
export interface RecurrenceLimits {
  /** Lines at most. */
  lines: number;
  /** RDATE and EXDATE values at most, together. */
  dates: number;
  /**
   * Lines read back from the store: the checks added since they may have been written (parts
   * RFC 5545 does not name, COUNT with UNTIL, a BYSETPOS that never selects) are not made, so
   * that a series written before them keeps working; the walk's budget bounds it anyway.
   */
  stored?: boolean;
}

const LINE = /^([A-Za-z-]+)((?:;[A-Za-z-]+=(?:"[^"]*"|[^;:"]*))*):(.*)$/;
const DATE_VALUE = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z?))?$/;
const SUBDAILY = new Set(['HOURLY', 'MINUTELY', 'SECONDLY']);
const FREQS = new Set(['DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY']);

/** The parameters of a content line (`;TZID=Europe/Paris;VALUE=DATE`), upper-case names. */
function lineParams(text: string): Map<string, string> {
  const params = new Map<string, string>();
  for (const [, name = '', value = ''] of text.matchAll(/;([A-Za-z-]+)=("[^"]*"|[^;:"]*)/g)) params.set(name.toUpperCase(), value.replace(/^"|"$/g, ''));
  return params;
}

/**
 * A DATE or DATE-TIME value as a wall clock in `zone` (`YYYY-MM-DD HH:MM:SS`), or a date
 * (`YYYY-MM-DD`) for a DATE value: UTC values (`…Z`) and values in another zone (`tzid`) are
 * converted; floating ones are read in the event's zone.
 */
export function valueInZone(value: string, tzid: string | undefined, zone: string): string | undefined {
  const m = DATE_VALUE.exec(value.trim());
  if (!m) return undefined;
  const date = `${m[1]}-${m[2]}-${m[3]}`;
  if (m[4] === undefined) return wallClockToInstant(`${date} 00:00:00`, 'UTC') ? date : undefined;
  const clock = `${date} ${m[4]}:${m[5]}:${m[6]}`;
  const from = m[7] ? 'UTC' : (tzid ?? zone);
  const instant = wallClockToInstant(clock, from);
  if (!instant) return undefined;
  return from === zone ? clock : formatWallClock(instant, zone);
}

/** The RRULE's UNTIL as a wall clock in `zone` (RFC 5545: UTC when DTSTART has a zone), if it has one. */
export function untilInZone(rrule: string, zone: string): string | undefined {
  const [, until] = /(?:^|;)UNTIL=([^;]+)/i.exec(rrule) ?? [];
  if (until === undefined) return undefined;
  const value = valueInZone(until, undefined, zone);
  return value && value.length === 10 ? `${value} 23:59:59` : value;
}

/**
 * Reads and checks the lines of a write's `recurrence` for an event starting at `start` (a
 * wall clock) in `zone`. Sub-daily rules are refused: they would list an occurrence every hour
 * or minute. A list with no RRULE and no RDATE does not recur: `undefined`.
 */
export function parseRecurrence(value: unknown, zone: string, limits: RecurrenceLimits): Recurrence | undefined {
  if (value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0)) return undefined;
  const given = typeof value === 'string' ? value.split(/\r?\n/).filter((l) => l.trim() !== '') : value;
  if (!Array.isArray(given) || !given.every((l) => typeof l === 'string'))
    throw new RecurrenceError('recurrence must be a list of RRULE, RDATE and EXDATE lines.');
  if (given.length > limits.lines) throw new RecurrenceError(`recurrence has more than ${limits.lines} lines.`);
  const out: Recurrence = { lines: [], rdates: [], exdates: [] };
  for (const raw of given) {
    const line = raw.trim();
    const m = LINE.exec(line);
    if (!m) throw new RecurrenceError(`recurrence line "${line.slice(0, 100)}" is not NAME:VALUE.`);
    const [, word = '', paramText = '', value = ''] = m;
    const name = word.toUpperCase();
    const params = lineParams(paramText);
    const body = value.trim();
    if (name === 'RRULE') {
      if (out.rrule !== undefined) throw new RecurrenceError('recurrence has more than one RRULE.');
      out.rrule = checkedRule(body, limits.stored === true);
      out.lines.push(`RRULE:${out.rrule}`);
    } else if (name === 'RDATE' || name === 'EXDATE') {
      const valueType = params.get('VALUE');
      if (valueType !== undefined && !['DATE', 'DATE-TIME'].includes(valueType.toUpperCase()))
        throw new RecurrenceError(`${name} values must be dates or date-times (VALUE=PERIOD is not supported).`);
      const tzid = params.get('TZID');
      if (tzid !== undefined && !wallClockToInstant('2000-01-01 00:00:00', tzid))
        throw new RecurrenceError(`${name} names an unknown time zone: ${tzid.slice(0, 64)}.`);
      const values = body
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean);
      if (!values.length) throw new RecurrenceError(`${name} has no date.`);
      for (const v of values) {
        const local = valueInZone(v, tzid, zone);
        if (local === undefined)
          throw new RecurrenceError(`${name} value "${v.slice(0, 40)}" is not a date (YYYYMMDD) or a date-time (YYYYMMDDTHHMMSS, with Z for UTC).`);
        (name === 'RDATE' ? out.rdates : out.exdates).push(local);
      }
      if (out.rdates.length + out.exdates.length > limits.dates) throw new RecurrenceError(`recurrence has more than ${limits.dates} RDATE and EXDATE values.`);
      out.lines.push(`${name}${m[2] ?? ''}:${values.join(',')}`);
    } else if (name === 'EXRULE') {
      throw new RecurrenceError('EXRULE is not supported (RFC 5545 deprecated it): use EXDATE.');
    } else {
      throw new RecurrenceError(`recurrence line ${name.slice(0, 20)} is not RRULE, RDATE or EXDATE.`);
    }
  }
  return out.rrule === undefined && out.rdates.length === 0 ? undefined : out;
}

/** The parts an RRULE may have (RFC 5545 §3.3.10); extensions (RSCALE, X- names) are not read, so not taken. */
const PART_NAMES = new Set([
  'FREQ',
  'UNTIL',
  'COUNT',
  'INTERVAL',
  'BYSECOND',
  'BYMINUTE',
  'BYHOUR',
  'BYDAY',
  'BYMONTHDAY',
  'BYYEARDAY',
  'BYWEEKNO',
  'BYMONTH',
  'BYSETPOS',
  'WKST',
]);

/**
 * An RRULE value checked: a frequency of a day or more, each part once and in its range, and a
 * BYSETPOS that can select something (a position past the most instants a period of the rule
 * can hold would have the walk search for an occurrence that never comes).
 */
function checkedRule(value: string, stored: boolean): string {
  const rule = value.replace(/\s+/g, '').toUpperCase();
  const freq = /(?:^|;)FREQ=([A-Z]+)/.exec(rule)?.[1];
  if (freq === undefined) throw new RecurrenceError('RRULE has no FREQ.');
  if (SUBDAILY.has(freq))
    throw new RecurrenceError(
      `RRULE FREQ=${freq} repeats more often than daily, which is not supported: list the times with BYHOUR on a DAILY rule, or as RDATEs.`,
    );
  if (!FREQS.has(freq)) throw new RecurrenceError(`RRULE FREQ=${freq.slice(0, 20)} is not DAILY, WEEKLY, MONTHLY or YEARLY.`);
  // Several minutes or seconds of each hour would be a sub-daily rule in disguise.
  if (/(?:^|;)(BYSECOND|BYMINUTE)=[^;]*,/.test(rule))
    throw new RecurrenceError('RRULE lists several BYMINUTE or BYSECOND values, which repeats more often than hourly.');
  const until = /(?:^|;)UNTIL=([^;]+)/.exec(rule)?.[1];
  if (until !== undefined && !DATE_VALUE.test(until)) throw new RecurrenceError(`RRULE UNTIL=${until.slice(0, 30)} is not a date or a date-time.`);
  if (stored) return rule;
  const seen = new Set<string>();
  for (const part of rule.split(';')) {
    const name = part.split('=')[0] ?? '';
    if (!PART_NAMES.has(name) || !part.includes('='))
      throw new RecurrenceError(`RRULE part ${part.slice(0, 30)} is not one of RFC 5545's (FREQ, UNTIL, COUNT, INTERVAL, BYxxx, WKST).`);
    if (seen.has(name)) throw new RecurrenceError(`RRULE has ${name} more than once.`);
    seen.add(name);
    checkedPart(part);
  }
  if (seen.has('COUNT') && seen.has('UNTIL')) throw new RecurrenceError('RRULE has both COUNT and UNTIL (RFC 5545 allows one).');
  const parts = ruleParts(rule);
  if (parts && maxDaysPerPeriod(parts) === 0) {
    const named = rule
      .split(';')
      .filter((p) => /^BY(MONTH|MONTHDAY)=/.test(p))
      .join(' with ');
    throw new RecurrenceError(`RRULE never matches: ${named.slice(0, 80) || 'its BY parts'} name${named.includes(' with ') ? '' : 's'} no day that exists.`);
  }
  if (parts?.bySetPos) {
    const most = maxInstantsPerPeriod(parts);
    if (parts.bySetPos.every((p) => Math.abs(p) > most)) {
      throw new RecurrenceError(
        `RRULE BYSETPOS=${parts.bySetPos.join(',').slice(0, 40)} selects from at most ${most} instant${most === 1 ? '' : 's'} per ${PERIOD_NAMES[parts.freq]}: it never matches.`,
      );
    }
  }
  return rule;
}

const PERIOD_NAMES = { DAILY: 'day', WEEKLY: 'week', MONTHLY: 'month', YEARLY: 'year' } as const;

/** The ranges RFC 5545 §3.3.10 gives the numbers of each part (a negative value counts from the end). */
const RANGES: Record<string, { min: number; max: number; negative?: boolean }> = {
  BYSECOND: { min: 0, max: 60 },
  BYMINUTE: { min: 0, max: 59 },
  BYHOUR: { min: 0, max: 23 },
  BYMONTHDAY: { min: 1, max: 31, negative: true },
  BYYEARDAY: { min: 1, max: 366, negative: true },
  BYWEEKNO: { min: 1, max: 53, negative: true },
  BYMONTH: { min: 1, max: 12 },
  BYSETPOS: { min: 1, max: 366, negative: true },
};
const WEEKDAYS = new Set(['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU']);

/**
 * One `NAME=VALUE` part of an RRULE, checked against RFC 5545's ranges: the expansion library
 * accepts `BYHOUR=25` or `BYWEEKNO=60` and then searches for occurrences that can never come.
 */
function checkedPart(part: string): void {
  const [name = '', value = ''] = part.split('=');
  const number = (v: string) => /^[+-]?\d{1,4}$/.test(v);
  const range = RANGES[name];
  if (range) {
    for (const v of value.split(',')) {
      const n = Number(v);
      const ok = number(v) && ((n >= range.min && n <= range.max) || (range.negative === true && n <= -range.min && n >= -range.max));
      if (!ok) throw new RecurrenceError(`RRULE ${name}=${value.slice(0, 40)} is out of range (${range.negative ? '±' : ''}${range.min} to ${range.max}).`);
    }
  } else if (name === 'BYDAY') {
    for (const v of value.split(',')) {
      const [, ordinalText, weekday] = /^([+-]?\d{1,2})?([A-Z]{2})$/.exec(v) ?? [];
      const ordinal = ordinalText === undefined ? 1 : Math.abs(Number(ordinalText));
      // No weekday: the entry did not match.
      if (weekday === undefined || !WEEKDAYS.has(weekday) || ordinal < 1 || ordinal > 53)
        throw new RecurrenceError(`RRULE BYDAY=${value.slice(0, 40)} is not a list of weekdays (MO…SU, with an ordinal from ±1 to ±53).`);
    }
  } else if (name === 'INTERVAL' || name === 'COUNT') {
    if (!/^\d{1,6}$/.test(value) || Number(value) < 1) throw new RecurrenceError(`RRULE ${name}=${value.slice(0, 20)} is not a whole number from 1 to 999999.`);
  } else if (name === 'WKST' && !WEEKDAYS.has(value)) {
    throw new RecurrenceError(`RRULE WKST=${value.slice(0, 20)} is not a weekday (MO…SU).`);
  }
}

/** The RRULE value with its UNTIL replaced by `until` (an `YYYYMMDDTHHMMSSZ`-style value), or removed. */
export function withUntil(rrule: string, until: string | undefined): string {
  const parts = rrule.split(';').filter((p) => p && !/^(UNTIL|COUNT)=/i.test(p));
  if (until !== undefined) parts.push(`UNTIL=${until}`);
  return parts.join(';');
}
