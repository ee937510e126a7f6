/**
 * The grammar of PHP's `strtotime` (timelib), for the forms the v1 API meets: it turns a
 * date string into parts (absolute date/time, relative offsets, weekday, zone) that
 * parse.ts then evaluates against "now" in a zone.
 *
 * Why a parser of our own: the maintained npm ports (locutus' `strtotime`) compute in the
 * process' local time zone with `Date#setHours`, so they cannot evaluate `tomorrow 9am`
 * in an arbitrary zone; natural-language parsers (chrono-node) find dates inside free
 * text and accept strings PHP rejects, which the validator must reject. This scanner
 * follows timelib's token rules for:
 * - dates `2018-01-01`, `2018/1/1`, `1/5/2027` (m/d/y), `5.1.2027` / `5-1-2027` (d.m.y),
 *   `January 5, 2027`, `Jan 5th 2027`, `5 January 2027`, `January 2027`, `January 5`;
 * - times `15:00`, `15:00:00(.fff)`, `T15:00:00`, `4pm`, `4:30 p.m.`;
 * - `@1800000000`; zones `Z`, `UTC`, `GMT`, `+02:00`, `+0200`, `GMT+2`, `EST`, `Europe/Paris`;
 * - `now`, `today`, `midnight`, `noon`, `tomorrow`, `yesterday`, day names,
 *   `first day of` / `last day of` (`first day of next month`);
 * - relative `+5 weeks`, `-1 day`, `2 hours ago`, `next month`, `last monday`,
 *   `next wednesday`, `this friday`, `monday next week`, `third day`.
 * Not supported (→ unparsable, where PHP would accept): `weekday(s)`, `second` as an
 * ordinal (`second monday`), `<ordinal> <day name> of`, ISO week dates, Roman-numeral
 * months, military single-letter zones other than `Z`, 2-digit years outside m/d/y, two
 * zones in one string; and a repeated DST hour with a zone name inside the string is
 * read as elsewhere (parse.ts), where PHP reads it as the daylight occurrence. Checked
 * against PHP 8.2's strtotime on 168 strings × 4 zones × 4 "now"s: every other result
 * agrees to the second (test/dates/php-parity.test.ts keeps a sample).
 */
import { phpAbbreviationOffset } from './php-abbreviations.js';
import { isTzdbZoneName, parseNumericOffset } from './zones.js';
import type { WallClockFields } from './wall-clock.js';

/** Relative offsets, applied to the wall clock after the absolute parts: one amount per field. */
export type RelativeParts = WallClockFields;

/** A zone written inside the string: a fixed offset or a zone name. */
export type OwnZone = { kind: 'offset'; minutes: number } | { kind: 'name'; name: string };

/** What a date string says, before it is evaluated against "now". */
export interface ParsedParts {
  /** Explicit calendar date; `year` undefined = the current year. Fields as written (may overflow). */
  date?: { year?: number; month: number; day: number };
  /** Clock set by the string (explicitly, or to 00:00 by `today`, `tomorrow`, a day name…). */
  time?: { hour: number; minute: number; second: number };
  relative: RelativeParts;
  /**
   * Move to a weekday (0 = Sunday). behavior 0 = strictly after (`next monday`), 1 = today
   * counts (`monday`), 2 = that weekday of the current ISO week (`monday next week`).
   */
  weekday?: { day: number; behavior: 0 | 1 | 2 };
  zone?: OwnZone;
  /** `first day of` / `last day of`: the day is set after the relative months are added. */
  dayOf?: 'first' | 'last';
}

const MONTHS: Readonly<Record<string, number>> = {
  january: 1,
  jan: 1,
  february: 2,
  feb: 2,
  march: 3,
  mar: 3,
  april: 4,
  apr: 4,
  may: 5,
  june: 6,
  jun: 6,
  july: 7,
  jul: 7,
  august: 8,
  aug: 8,
  september: 9,
  sept: 9,
  sep: 9,
  october: 10,
  oct: 10,
  november: 11,
  nov: 11,
  december: 12,
  dec: 12,
};
const DAYS: Readonly<Record<string, number>> = {
  sunday: 0,
  sun: 0,
  monday: 1,
  mon: 1,
  tuesday: 2,
  tues: 2,
  tue: 2,
  wednesday: 3,
  wed: 3,
  thursday: 4,
  thurs: 4,
  thur: 4,
  thu: 4,
  friday: 5,
  fri: 5,
  saturday: 6,
  sat: 6,
};
type Unit = keyof RelativeParts | 'week' | 'fortnight';
const UNITS: Readonly<Record<string, Unit>> = {
  sec: 'second',
  secs: 'second',
  second: 'second',
  seconds: 'second',
  min: 'minute',
  mins: 'minute',
  minute: 'minute',
  minutes: 'minute',
  hour: 'hour',
  hours: 'hour',
  day: 'day',
  days: 'day',
  week: 'week',
  weeks: 'week',
  fortnight: 'fortnight',
  fortnights: 'fortnight',
  forthnight: 'fortnight',
  forthnights: 'fortnight',
  month: 'month',
  months: 'month',
  year: 'year',
  years: 'year',
};
/** timelib's relative words; `second` is left out because it is also a unit. */
const RELATIVE_WORDS: Readonly<Record<string, number>> = {
  next: 1,
  last: -1,
  previous: -1,
  this: 0,
  first: 1,
  third: 3,
  fourth: 4,
  fifth: 5,
  sixth: 6,
  seventh: 7,
  eighth: 8,
  ninth: 9,
  tenth: 10,
  eleventh: 11,
  twelfth: 12,
};

/** Alternation of a table's keys, longest first so that the lookahead does the rest. */
function alternation(table: Readonly<Record<string, unknown>>): string {
  return Object.keys(table)
    .sort((a, b) => b.length - a.length)
    .join('|');
}
const MONTH = `(${alternation(MONTHS)})(?![a-z])`;
const UNIT_OR_DAY = `(${alternation({ ...UNITS, ...DAYS })})(?![a-z])`;

// Sticky patterns, tried in this order at each position (dates before times before
// relative numbers, so that `5 january` is a date and `+5 days` a relative offset).
const RE = {
  separators: /[ \t\n\r\v\f,.]+/y,
  timestamp: /@(-?\d{1,15})(?:\.\d+)?(?!\d)/y,
  isoDate: /(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?!\d)/y,
  usDate: /(\d{1,2})\/(\d{1,2})(?:\/(\d{4}|\d{2}))?(?!\d)/y,
  dmyDate: /(\d{1,2})[-.](\d{1,2})[-.](\d{4})(?!\d)/y,
  monthDayYear: new RegExp(`${MONTH}\\.?[ \\t.,-]*(\\d{1,2})(?:st|nd|rd|th)?(?![\\d:a-z])(?:[ \\t,.-]*(\\d{4})(?![\\d:]))?`, 'y'),
  monthYear: new RegExp(`${MONTH}\\.?[ \\t.,-]*(\\d{4})(?![\\d:])`, 'y'),
  dayMonthYear: new RegExp(`(\\d{1,2})(?:st|nd|rd|th)?[ \\t.-]*${MONTH}\\.?(?:[ \\t,.-]*(\\d{4})(?![\\d:]))?`, 'y'),
  clock: /t?(\d{1,2}):(\d{1,2})(?::(\d{1,2})(?:[.,:]\d+)?)?(?!\d)(?:[ \t]*([ap])\.?m\.?(?![a-z]))?/y,
  hourMeridian: /(\d{1,2})[ \t]*([ap])\.?m\.?(?![a-z])/y,
  relativeNumber: new RegExp(`([+-]?)[ \\t]*(\\d{1,13})[ \\t]*${UNIT_OR_DAY}`, 'y'),
  relativeWord: new RegExp(`(${alternation(RELATIVE_WORDS)})[ \\t]+${UNIT_OR_DAY}`, 'y'),
  dayOf: /(first|last)[ \t]+day[ \t]+of(?![a-z])/y,
  keyword: /(now|today|midnight|noon|tomorrow|yesterday)(?![a-z])/y,
  dayName: new RegExp(`(${alternation(DAYS)})(?![a-z])`, 'y'),
  ago: /ago(?![a-z])/y,
  offsetZone: /(?:gmt)?([+-]\d{1,2}(?::?\d{2})?)(?!\d)/y,
  namedZone: /[a-z][a-z0-9_+-]*(?:\/[a-z0-9_+-]+)+/y,
  wordZone: /[a-z]{1,6}(?![a-z])/y,
} as const;

/** timelib's pattern for a zone name inside a date string. */
const TZ_NAME_IN_STRING = /^[A-Z][a-z]+(?:[_/-][A-Za-z]+)+$/;

/** Longest input looked at; no real date string comes close. */
export const MAX_INPUT_LENGTH = 256;

/** Scans a date string into parts; `undefined` where PHP's `strtotime` would return false. */
export function scanDateString(input: string): ParsedParts | undefined {
  if (input.length > MAX_INPUT_LENGTH) return undefined;
  // PHP: "" is false, but white space alone means now. Only ASCII is lower-cased, so
  // that `text` and `original` keep the same indices.
  if (input === '') return undefined;
  const original = input.replace(/^[ \t\n\r\v\f]+|[ \t\n\r\v\f]+$/g, '');
  const text = original.replace(/[A-Z]+/g, (c) => c.toLowerCase());

  const parts: ParsedParts = { relative: { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0 } };
  // timelib's have_time: a second explicit time is an error, but `tomorrow` clears it.
  let haveTime = false;
  let pos = 0;
  let m: RegExpExecArray | null = null;

  const match = (re: RegExp): boolean => {
    re.lastIndex = pos;
    m = re.exec(text);
    if (m) pos = re.lastIndex;
    return m !== null;
  };
  const group = (i: number): string => m?.[i] ?? '';
  const setDate = (year: number | undefined, month: number | undefined, day: number): boolean => {
    // timelib's month and day tokens allow 0–12 and 0–31; overflow is carried later.
    if (parts.date || month === undefined || month > 12 || day > 31) return false;
    parts.date = { year, month, day };
    return true;
  };
  const setTime = (hour: number, minute: number, second: number): boolean => {
    if (haveTime) return false;
    haveTime = true;
    parts.time = { hour, minute, second };
    return true;
  };
  const resetTime = (hour = 0): void => {
    haveTime = hour !== 0;
    parts.time = { hour, minute: 0, second: 0 };
  };
  const setZone = (zone: OwnZone): boolean => {
    if (parts.zone) return false;
    parts.zone = zone;
    return true;
  };
  const addRelative = (amount: number, unitOrDay: string, fromWord: boolean): void => {
    const day = DAYS[unitOrDay];
    if (day !== undefined) {
      // timelib_set_relative for a weekday: whole weeks beyond the first, then the weekday.
      parts.relative.day += (amount > 0 ? amount - 1 : amount) * 7;
      parts.weekday = { day, behavior: fromWord && amount === 0 ? 1 : 0 };
      if (fromWord) resetTime();
      return;
    }
    const unit = UNITS[unitOrDay];
    if (unit === 'week') parts.relative.day += amount * 7;
    else if (unit === 'fortnight') parts.relative.day += amount * 14;
    else if (unit !== undefined) parts.relative[unit] += amount;
  };
  const year2 = (y: string): number => (y.length === 2 ? Number(y) + (Number(y) < 70 ? 2000 : 1900) : Number(y));

  while (pos < text.length) {
    if (match(RE.separators)) continue;
    if (match(RE.timestamp)) {
      // `@ts`: 1970-01-01 00:00:00 UTC plus ts seconds, as timelib does.
      if (!setDate(1970, 1, 1) || !setTime(0, 0, 0) || !setZone({ kind: 'offset', minutes: 0 })) return undefined;
      parts.relative.second += Number(group(1));
      continue;
    }
    if (match(RE.isoDate)) {
      if (!setDate(Number(group(1)), Number(group(2)), Number(group(3)))) return undefined;
      continue;
    }
    if (match(RE.usDate)) {
      if (!setDate(group(3) === '' ? undefined : year2(group(3)), Number(group(1)), Number(group(2)))) return undefined;
      continue;
    }
    if (match(RE.dmyDate)) {
      if (!setDate(Number(group(3)), Number(group(2)), Number(group(1)))) return undefined;
      continue;
    }
    if (match(RE.monthDayYear)) {
      if (!setDate(group(3) === '' ? undefined : Number(group(3)), MONTHS[group(1)], Number(group(2)))) return undefined;
      continue;
    }
    if (match(RE.monthYear)) {
      if (!setDate(Number(group(2)), MONTHS[group(1)], 1)) return undefined;
      continue;
    }
    if (match(RE.dayMonthYear)) {
      if (!setDate(group(3) === '' ? undefined : Number(group(3)), MONTHS[group(2)], Number(group(1)))) return undefined;
      continue;
    }
    if (match(RE.clock)) {
      let hour = Number(group(1));
      const minute = Number(group(2));
      const second = group(3) === '' ? 0 : Number(group(3));
      if (minute > 59 || second > 60) return undefined;
      if (group(4) !== '') {
        if (hour < 1 || hour > 12) return undefined;
        hour = (hour % 12) + (group(4) === 'p' ? 12 : 0);
      } else if (hour > 24) {
        return undefined;
      }
      if (!setTime(hour, minute, second)) return undefined;
      continue;
    }
    if (match(RE.hourMeridian)) {
      const hour = Number(group(1));
      if (hour < 1 || hour > 12) return undefined;
      if (!setTime((hour % 12) + (group(2) === 'p' ? 12 : 0), 0, 0)) return undefined;
      continue;
    }
    if (match(RE.relativeNumber)) {
      const amount = Number(group(2)) * (group(1) === '-' ? -1 : 1);
      addRelative(amount, group(3), false);
      continue;
    }
    if (match(RE.dayOf)) {
      parts.dayOf = group(1) === 'first' ? 'first' : 'last';
      continue;
    }
    if (match(RE.relativeWord)) {
      const amount = RELATIVE_WORDS[group(1)];
      if (amount === undefined) return undefined;
      addRelative(amount, group(2), true);
      // timelib's `relativetextweek` (`next week`, `this week`…): the week is counted from
      // its Monday, or from the day name given with it (`sunday this week`).
      if (group(2) === 'week' && ['next', 'last', 'previous', 'this'].includes(group(1))) {
        parts.weekday = { day: parts.weekday?.day ?? 1, behavior: 2 };
      }
      continue;
    }
    if (match(RE.keyword)) {
      const word = group(1);
      if (word === 'tomorrow') parts.relative.day += 1;
      if (word === 'yesterday') parts.relative.day -= 1;
      if (word !== 'now') resetTime(word === 'noon' ? 12 : 0);
      continue;
    }
    if (match(RE.dayName)) {
      const day = DAYS[group(1)];
      if (day === undefined) return undefined;
      parts.weekday = { day, behavior: parts.weekday?.behavior === 2 ? 2 : 1 };
      resetTime();
      continue;
    }
    if (match(RE.ago)) {
      // timelib inverts every relative field seen so far.
      for (const key of Object.keys(parts.relative) as (keyof RelativeParts)[]) parts.relative[key] = -parts.relative[key];
      continue;
    }
    if (match(RE.offsetZone)) {
      const minutes = parseNumericOffset(group(1));
      if (minutes === undefined || !setZone({ kind: 'offset', minutes })) return undefined;
      continue;
    }
    const zoneStart = pos;
    if (match(RE.namedZone)) {
      // timelib's scanner only takes capitalised names here (`Europe/Paris`, not `europe/paris`).
      if (!TZ_NAME_IN_STRING.test(original.slice(zoneStart, pos)) || !isTzdbZoneName(group(0)) || !setZone({ kind: 'name', name: group(0) })) return undefined;
      continue;
    }
    if (match(RE.wordZone)) {
      const word = group(0);
      if (word === 'utc') {
        if (!setZone({ kind: 'name', name: 'UTC' })) return undefined;
        continue;
      }
      const minutes = phpAbbreviationOffset(word);
      if (minutes === undefined || !setZone({ kind: 'offset', minutes })) return undefined;
      continue;
    }
    return undefined;
  }
  return parts;
}
