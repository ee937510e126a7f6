import { describe, expect, it } from 'vitest';
import { formatWallClock, localToUtc, parseTime } from '../../src/dates/index.js';

// Saturday 2026-11-21 12:30:31 UTC: the "now" of the spec's live examples.
const NOW = new Date('2026-11-21T12:30:31Z');

/** Local wall clock of a parse in `zone`, or undefined. */
function local(input: unknown, zone = 'UTC', now = NOW): string | undefined {
  return parseTime(input, zone, now)?.wallClock;
}
/** UTC wall clock of a parse in `zone`, or undefined. */
function utc(input: unknown, zone = 'UTC', now = NOW): string | undefined {
  const parsed = parseTime(input, zone, now);
  return parsed && formatWallClock(parsed.instant, 'UTC');
}

describe('parseTime: absolute forms', () => {
  it.each([
    ['2018-01-01', '2018-01-01 00:00:00'],
    ['2018-01-01 15:00:00', '2018-01-01 15:00:00'],
    ['2018-01-01 15:00', '2018-01-01 15:00:00'],
    ['2018-01-01T15:00:00', '2018-01-01 15:00:00'],
    ['2018-01-01T15:00:00.123', '2018-01-01 15:00:00'],
    ['2018-01-01 4pm', '2018-01-01 16:00:00'],
    ['2018-01-01 4 PM', '2018-01-01 16:00:00'],
    ['2018-01-01 4:30 p.m.', '2018-01-01 16:30:00'],
    ['2018-01-01 12am', '2018-01-01 00:00:00'],
    ['2018-01-01 12pm', '2018-01-01 12:00:00'],
    ['2018/1/1', '2018-01-01 00:00:00'],
    ['January 5, 2027', '2027-01-05 00:00:00'],
    ['Jan 5th 2027', '2027-01-05 00:00:00'],
    ['Jan. 5, 2027 10:00', '2027-01-05 10:00:00'],
    ['5 January 2027 10:00', '2027-01-05 10:00:00'],
    ['5-Jan-2027', '2027-01-05 00:00:00'],
    ['January 2027', '2027-01-01 00:00:00'],
    ['January 5', '2026-01-05 00:00:00'],
    ['1/5/2027', '2027-01-05 00:00:00'],
    ['5.1.2027 10:00', '2027-01-05 10:00:00'],
    ['Monday, January 4, 2027', '2027-01-04 00:00:00'],
    ['2027-01-01 24:00', '2027-01-02 00:00:00'],
  ])('%s → %s', (input, expected) => {
    expect(local(input)).toBe(expected);
  });

  it('is case-insensitive', () => {
    expect(local('JANUARY 5, 2027 4PM')).toBe('2027-01-05 16:00:00');
    expect(local('TOMORROW 9AM')).toBe('2026-11-22 09:00:00');
    expect(local('2018-01-01t15:00:00')).toBe('2018-01-01 15:00:00');
  });

  it('evaluates in the given zone (writes.md §2.4 Hong Kong example)', () => {
    const parsed = parseTime('2018-01-01 4pm', 'Asia/Hong_Kong', NOW);
    expect(parsed?.wallClock).toBe('2018-01-01 16:00:00');
    expect(formatWallClock(parsed!.instant, 'UTC')).toBe('2018-01-01 08:00:00');
    expect(parsed?.zoneSource).toBe('zone');
  });

  it('keeps the digits of the date param, whatever the zone (writes.md §2.2)', () => {
    expect(local('2026-01-01 10:00:00', 'America/New_York')).toBe('2026-01-01 10:00:00');
  });

  it('gives date-only values midnight (2027-01-15 → 2027-01-15 00:00:00)', () => {
    expect(local('2027-01-15', 'America/New_York')).toBe('2027-01-15 00:00:00');
  });

  it('fixed-offset zones: UTC+2 is two hours ahead of UTC', () => {
    expect(local('2027-07-01 10:00:00', 'UTC+2')).toBe('2027-07-01 10:00:00');
    expect(utc('2027-07-01 10:00:00', 'UTC+2')).toBe('2027-07-01 08:00:00');
    expect(utc('2027-07-01 10:00:00', 'UTC-3:30')).toBe('2027-07-01 13:30:00');
    expect(utc('2027-07-01 10:00:00', 'UTC+5.5')).toBe('2027-07-01 04:30:00');
    expect(utc('2027-07-01 10:00:00', 'UTC+0')).toBe('2027-07-01 10:00:00');
    expect(utc('2027-07-01 10:00:00', '+02:00')).toBe('2027-07-01 08:00:00');
    expect(utc('2027-07-01 10:00:00', 'EST')).toBe('2027-07-01 15:00:00');
  });
});

describe('parseTime: strings with their own zone', () => {
  it('2027-01-01T10:00:00+02:00 in America/New_York (writes.md §2.4)', () => {
    const parsed = parseTime('2027-01-01T10:00:00+02:00', 'America/New_York', NOW)!;
    expect(parsed.zoneSource).toBe('string');
    // The true instant, and its New York wall clock.
    expect(formatWallClock(parsed.instant, 'UTC')).toBe('2027-01-01 08:00:00');
    expect(parsed.wallClock).toBe('2027-01-01 03:00:00');
    // Upstream keeps the digits and treats them as New York time: 10:00 local, 15:00 UTC.
    expect(parsed.ownWallClock).toBe('2027-01-01 10:00:00');
    expect(localToUtc(parsed.ownWallClock, 'America/New_York')).toBe('2027-01-01 15:00:00');
  });

  it.each([
    ['2027-01-01T10:00:00Z', '2027-01-01 10:00:00'],
    ['2027-01-01T10:00:00.000Z', '2027-01-01 10:00:00'],
    ['2027-01-01 10:00:00 +0200', '2027-01-01 08:00:00'],
    ['2027-01-01 10:00:00 -03:30', '2027-01-01 13:30:00'],
    ['2027-01-01 10:00:00 GMT+2', '2027-01-01 08:00:00'],
    ['2027-01-01 10:00:00 UTC', '2027-01-01 10:00:00'],
    ['2027-01-01 10:00:00 EST', '2027-01-01 15:00:00'],
    ['2027-07-01 10:00:00 Europe/Paris', '2027-07-01 08:00:00'],
    ['2027-07-01 10:00:00 America/New_York', '2027-07-01 14:00:00'],
    ['2027-07-01 10:00:00 IST', '2027-07-01 08:00:00'], // PHP's IST is Israel's, +02:00
    ['@1800000000', '2027-01-15 08:00:00'],
  ])('%s → %s UTC', (input, expected) => {
    expect(utc(input, 'Asia/Tokyo')).toBe(expected);
    expect(parseTime(input, 'Asia/Tokyo', NOW)?.zoneSource).toBe('string');
  });

  it('rejects two zones', () => {
    expect(parseTime('2027-01-01 10:00 EST UTC', 'UTC', NOW)).toBeUndefined();
    expect(parseTime('2027-01-01 10:00 +02:00 +03:00', 'UTC', NOW)).toBeUndefined();
  });
});

describe('parseTime: UNIX timestamps', () => {
  it('1800000000 → 2027-01-15 08:00:00 UTC', () => {
    const parsed = parseTime('1800000000', 'America/New_York', NOW)!;
    expect(parsed.zoneSource).toBe('timestamp');
    expect(parsed.timestamp).toBe(1800000000);
    expect(formatWallClock(parsed.instant, 'UTC')).toBe('2027-01-15 08:00:00');
    // Recommended: converted to the zone.
    expect(parsed.wallClock).toBe('2027-01-15 03:00:00');
    // Upstream quirk: the UTC wall clock, then taken as New York time (utc 13:00).
    expect(parsed.ownWallClock).toBe('2027-01-15 08:00:00');
    expect(localToUtc(parsed.ownWallClock, 'America/New_York')).toBe('2027-01-15 13:00:00');
  });

  it('date=1700000000 → 2023-11-14 22:13:20 (writes.md §2.2 quirk)', () => {
    expect(parseTime('1700000000', 'America/New_York', NOW)?.ownWallClock).toBe('2023-11-14 22:13:20');
  });

  it.each([
    ['0', '1970-01-01 00:00:00'],
    ['1', '1970-01-01 00:00:01'],
    ['-5', '1969-12-31 23:59:55'],
    [' 1800000000 ', '2027-01-15 08:00:00'],
    ['+1800000000', '2027-01-15 08:00:00'],
    ['1.8e9', '2027-01-15 08:00:00'],
    ['1.9', '1970-01-01 00:00:01'],
    [0, '1970-01-01 00:00:00'],
    [1, '1970-01-01 00:00:01'],
    [-5, '1969-12-31 23:59:55'],
    [1800000000, '2027-01-15 08:00:00'],
  ])('%j → %s', (input, expected) => {
    expect(local(input)).toBe(expected);
    expect(parseTime(input, 'UTC', NOW)?.zoneSource).toBe('timestamp');
  });

  it('does not read hex or other JavaScript-only numerals as timestamps', () => {
    expect(parseTime('0x10', 'UTC', NOW)).toBeUndefined();
    expect(parseTime('Infinity', 'UTC', NOW)).toBeUndefined();
    expect(parseTime('1_000', 'UTC', NOW)).toBeUndefined();
  });

  it('accepts the last second of year 9999 but nothing beyond', () => {
    expect(local(253402300799)).toBe('9999-12-31 23:59:59');
    expect(parseTime(253402300800, 'UTC', NOW)).toBeUndefined();
    expect(parseTime(253402300799, 'Asia/Tokyo', NOW)).toBeUndefined();
    expect(local('0000-01-01')).toBe('0000-01-01 00:00:00');
  });
});

describe('parseTime: relative forms', () => {
  it.each([
    ['now', '2026-11-21 12:30:31'],
    ['today', '2026-11-21 00:00:00'],
    ['midnight', '2026-11-21 00:00:00'],
    ['noon', '2026-11-21 12:00:00'],
    ['tomorrow', '2026-11-22 00:00:00'],
    ['yesterday', '2026-11-20 00:00:00'],
    ['tomorrow 9am', '2026-11-22 09:00:00'],
    ['tomorrow noon', '2026-11-22 12:00:00'],
    ['yesterday 23:59', '2026-11-20 23:59:00'],
    ['+5 weeks', '2026-12-26 12:30:31'],
    ['+5 days 11am', '2026-11-26 11:00:00'],
    ['-1 day', '2026-11-20 12:30:31'],
    ['+1 month', '2026-12-21 12:30:31'],
    ['+24 months', '2028-11-21 12:30:31'],
    ['next month', '2026-12-21 12:30:31'],
    ['last year', '2025-11-21 12:30:31'],
    ['+1 week 2 days', '2026-11-30 12:30:31'],
    ['2 days ago', '2026-11-19 12:30:31'],
    ['+2 hours', '2026-11-21 14:30:31'],
    ['+90 minutes', '2026-11-21 14:00:31'],
    ['+1 fortnight', '2026-12-05 12:30:31'],
    // Saturday 2026-11-21: day names
    ['next wednesday', '2026-11-25 00:00:00'],
    ['last monday', '2026-11-16 00:00:00'],
    ['wednesday', '2026-11-25 00:00:00'],
    ['saturday', '2026-11-21 00:00:00'],
    ['this saturday', '2026-11-21 00:00:00'],
    ['next saturday', '2026-11-28 00:00:00'],
    ['last saturday', '2026-11-14 00:00:00'],
    ['next wednesday 10am', '2026-11-25 10:00:00'],
    ['monday next week', '2026-11-23 00:00:00'],
    ['2018-01-01 +1 day', '2018-01-02 00:00:00'],
    ['2018-01-01 15:00 -1 hour', '2018-01-01 14:00:00'],
    ['first day of next month', '2026-12-01 12:30:31'],
    ['last day of next month', '2026-12-31 12:30:31'],
    ['last day of february 2028', '2028-02-29 00:00:00'],
    ['first day of +1 month', '2026-12-01 12:30:31'],
    ['T15:00', '2026-11-21 15:00:00'],
    ['2018-1-1 1:1', '2018-01-01 01:01:00'],
    ['@1.5', '1970-01-01 00:00:01'],
  ])('%s → %s', (input, expected) => {
    expect(local(input)).toBe(expected);
  });

  it('reproduces PHP quirks: "9am tomorrow" is midnight; month overflow rolls over; blank is now', () => {
    expect(local('9am tomorrow')).toBe('2026-11-22 00:00:00');
    expect(local('   ')).toBe('2026-11-21 12:30:31');
    expect(local('Jan 31 2027 +1 month')).toBe('2027-03-03 00:00:00');
  });

  it('tomorrow 9am in Asia/Tokyo is 09:00 on Tokyo’s tomorrow (writes.md §2.4)', () => {
    // 20:00 UTC on 2026-11-21 is already 05:00 on 2026-11-22 in Tokyo.
    const now = new Date('2026-11-21T20:00:00Z');
    const parsed = parseTime('tomorrow 9am', 'Asia/Tokyo', now)!;
    expect(parsed.wallClock).toBe('2026-11-23 09:00:00');
    expect(formatWallClock(parsed.instant, 'UTC')).toBe('2026-11-23 00:00:00');
  });

  it('tomorrow 9am on a New York site (Cest it_should_allow_to_set_the_post_date)', () => {
    // 02:00 UTC on 2026-11-21 is still 2026-11-20 in New York.
    const now = new Date('2026-11-21T02:00:00Z');
    expect(local('tomorrow 9am', 'America/New_York', now)).toBe('2026-11-21 09:00:00');
  });

  it('relative days keep the wall clock across a DST change', () => {
    const now = new Date('2027-03-13T17:00:00Z'); // 12:00 EST
    expect(local('+1 day', 'America/New_York', now)).toBe('2027-03-14 12:00:00');
    expect(utc('+1 day', 'America/New_York', now)).toBe('2027-03-14 16:00:00');
  });
});

describe('parseTime: rejects', () => {
  it.each([
    'before my birthday',
    '',
    'foo',
    'now now now please',
    '2018-01-01 2018-01-02',
    '15:00 16:00',
    '2018-13-01',
    '2018-01-32',
    '25:00',
    '13pm',
    '0am',
    '10:60',
    'next',
    '+',
    '+5 lightyears',
    'a',
    'pht',
    'Mars/Base',
    '2018-01-01 10:00 Mars/Base',
    '5 januar 2027',
    '--',
    '@',
    '@abc',
    '1 weekday',
    // timelib only reads capitalised zone names inside a string
    '2027-07-01 10:00:00 america/new_york',
  ])('%j', (input) => {
    expect(parseTime(input, 'UTC', NOW)).toBeUndefined();
  });

  it('rejects an unknown zone or a bad now', () => {
    expect(parseTime('2018-01-01', 'Mars/Base', NOW)).toBeUndefined();
    expect(parseTime('2018-01-01', '', NOW)).toBeUndefined();
    expect(parseTime('2018-01-01', 'UTC', new Date(NaN))).toBeUndefined();
  });
});

describe('parseTime: impossible calendar dates', () => {
  it('rolls 2026-02-30 over to March 2 like PHP, and flags it', () => {
    const parsed = parseTime('2026-02-30', 'UTC', NOW)!;
    expect(parsed.wallClock).toBe('2026-03-02 00:00:00');
    expect(parsed.dayOverflow).toBe(true);
    expect(parseTime('2026-02-28', 'UTC', NOW)?.dayOverflow).toBe(false);
  });

  it.each(['2026-02-30', '2026-02-29', '2026-04-31', '2026-00-10', '2026-01-00', 'February 30, 2026', '31.4.2026'])('strictCalendar rejects %s', (input) => {
    expect(parseTime(input, 'UTC', NOW, { strictCalendar: true })).toBeUndefined();
  });

  it('strictCalendar accepts real dates, leap days and relative strings', () => {
    expect(local('2028-02-29')).toBe('2028-02-29 00:00:00');
    expect(parseTime('2028-02-29', 'UTC', NOW, { strictCalendar: true })?.wallClock).toBe('2028-02-29 00:00:00');
    expect(parseTime('+1 month', 'UTC', new Date('2027-01-31T00:00:00Z'), { strictCalendar: true })?.wallClock).toBe('2027-03-03 00:00:00');
  });
});

describe('parseTime: hostile input never throws', () => {
  const hostile: unknown[] = [
    'x'.repeat(1_000_000),
    '1'.repeat(10_000),
    '2018-01-01 '.repeat(30),
    '+1 day '.repeat(40),
    '9'.repeat(250) + ' days',
    '2018-01-01\u00a015:00',
    '２０１８-01-01',
    '2018-01-01 15:00 \u{1F600}',
    'İstanbul',
    '\u0000',
    '\uFFFF\uD800',
    '1e400',
    '-1e400',
    'NaN',
    NaN,
    Infinity,
    -Infinity,
    // eslint-disable-next-line no-loss-of-precision -- 1e400 on purpose: a literal past the double range (Infinity)
    1e400,
    Number.MAX_VALUE,
    -Number.MAX_VALUE,
    {},
    [],
    ['2018-01-01'],
    null,
    undefined,
    true,
    10n,
    Symbol('x'),
    () => '2018-01-01',
    { toString: () => '2018-01-01' },
  ];
  it.each(hostile.map((value, i) => [i, value] as const))('#%i', (_i, value) => {
    expect(() => parseTime(value, 'UTC', NOW)).not.toThrow();
    expect(parseTime(value, 'UTC', NOW)).toBeUndefined();
  });

  it('stays fast on worst-case strings of the maximum length', () => {
    const started = Date.now();
    for (const unit of ['1', '1 ', '+1 ', 'a', 'jan ', '1:', '-', '1/', 't1', '@1']) {
      parseTime(unit.repeat(Math.floor(256 / unit.length)), 'UTC', NOW);
    }
    expect(Date.now() - started).toBeLessThan(500);
  });

  it('survives hostile zone names', () => {
    for (const zone of ['x'.repeat(100_000), '\u0000', '../../etc/passwd', 'UTC+999', '+99:99', {} as string]) {
      expect(() => parseTime('2018-01-01', zone, NOW)).not.toThrow();
      expect(parseTime('2018-01-01', zone, NOW)).toBeUndefined();
    }
  });
});
