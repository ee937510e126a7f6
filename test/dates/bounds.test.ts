import { describe, expect, it } from 'vitest';
import {
  defaultEndBound,
  defaultStartBound,
  endOfDay,
  localToUtc,
  parseTime,
  rawDefaultEnd,
  rawDefaultStart,
  snapToDayEnd,
  snapToDayStart,
  startOfDay,
  strictBound,
} from '../../src/dates/index.js';

const NOW = new Date('2026-11-21T12:30:31Z');

describe('all-day snapping (writes.md §2.4 step 3)', () => {
  it('2027-03-02 09:00 … 2027-03-04 11:00 → 00:00:00 … 23:59:59', () => {
    expect(snapToDayStart('2027-03-02 09:00:00')).toBe('2027-03-02 00:00:00');
    expect(snapToDayEnd('2027-03-04 11:00:00')).toBe('2027-03-04 23:59:59');
  });

  it('tomorrow 9am … +5 days 11am → tomorrow 00:00:00 … +5 days 23:59:59 (EventInsertionCest)', () => {
    const start = parseTime('tomorrow 9am', 'UTC', NOW)!.wallClock;
    const end = parseTime('+5 days 11am', 'UTC', NOW)!.wallClock;
    expect(snapToDayStart(start)).toBe('2026-11-22 00:00:00');
    expect(snapToDayEnd(end)).toBe('2026-11-26 23:59:59');
  });

  it('end of month and year, leap day', () => {
    expect(snapToDayEnd('2026-12-31 10:00:00')).toBe('2026-12-31 23:59:59');
    expect(snapToDayEnd('2028-02-29 10:00:00')).toBe('2028-02-29 23:59:59');
    expect(snapToDayStart('2028-02-29 23:59:59')).toBe('2028-02-29 00:00:00');
  });

  it('honours a multi-day cutoff', () => {
    expect(snapToDayStart('2027-03-02 09:00:00', '06:00')).toBe('2027-03-02 06:00:00');
    expect(snapToDayEnd('2027-03-04 11:00:00', '06:00')).toBe('2027-03-05 05:59:59');
    expect(snapToDayStart('2027-03-02 09:00:00', 'garbage')).toBe('2027-03-02 00:00:00');
  });

  it('rejects text that is not a wall clock', () => {
    expect(snapToDayStart('tomorrow')).toBeUndefined();
    expect(snapToDayEnd('9999-12-31 10:00:00')).toBe('9999-12-31 23:59:59');
  });
});

describe('inclusive archive bounds (lists.md §5.1)', () => {
  it.each([
    ['2027-02-03 15:00:00', '2027-02-03 00:00:00'],
    ['2018-01-01 15:00:00', '2018-01-01 00:00:00'],
    ['2027-02-03', '2027-02-03 00:00:00'],
    ['1800000000', '2027-01-15 00:00:00'],
    [1800000000, '2027-01-15 00:00:00'],
    ['tomorrow 9am', '2026-11-22 00:00:00'],
    // parsed in UTC: 01:00 in Tokyo is the previous UTC day
    ['2027-02-03T01:00:00+09:00', '2027-02-02 00:00:00'],
  ])('startOfDay(%j) = %s', (value, expected) => {
    expect(startOfDay(value, NOW)).toBe(expected);
  });

  it.each([
    ['2027-02-05 09:00:00', '2027-02-05 23:59:59'],
    ['2018-01-01 18:00:00', '2018-01-01 23:59:59'],
    ['2027-02-03', '2027-02-03 23:59:59'],
    ['2017-12-31', '2017-12-31 23:59:59'],
    ['2018-01-02', '2018-01-02 23:59:59'],
    ['tomorrow 9am', '2026-11-22 23:59:59'],
    ['1800000000', '2027-01-15 23:59:59'],
  ])('endOfDay(%j) = %s', (value, expected) => {
    expect(endOfDay(value, NOW)).toBe(expected);
  });

  it('with a cutoff', () => {
    expect(startOfDay('2027-02-03 15:00:00', NOW, '06:00')).toBe('2027-02-03 06:00:00');
    expect(endOfDay('2027-02-03 15:00:00', NOW, '06:00')).toBe('2027-02-04 05:59:59');
  });

  it('unparsable values give undefined', () => {
    expect(startOfDay('before my birthday', NOW)).toBeUndefined();
    expect(endOfDay('', NOW)).toBeUndefined();
  });
});

describe('strict archive bounds (lists.md §5.1)', () => {
  it('keeps the value on a UTC site', () => {
    expect(strictBound('2018-01-01 15:00:00', 'UTC', NOW)).toBe('2018-01-01 15:00:00');
    expect(strictBound('2027-02-05 10:00:00', 'UTC', NOW)).toBe('2027-02-05 10:00:00');
    expect(strictBound('2027-02-03 09:00:00', 'UTC', NOW)).toBe('2027-02-03 09:00:00');
  });

  it('parses as UTC and converts to the site zone', () => {
    expect(strictBound('2027-02-05 10:00:00', 'America/New_York', NOW)).toBe('2027-02-05 05:00:00');
    expect(strictBound('2027-07-05 10:00:00', 'Europe/Paris', NOW)).toBe('2027-07-05 12:00:00');
    expect(strictBound('2027-07-05 10:00:00', 'UTC+2', NOW)).toBe('2027-07-05 12:00:00');
    expect(strictBound('1800000000', 'America/New_York', NOW)).toBe('2027-01-15 03:00:00');
    expect(strictBound('2027-07-05T10:00:00+02:00', 'UTC', NOW)).toBe('2027-07-05 08:00:00');
  });

  it('in site timezone mode the bound is converted back to UTC', () => {
    const bound = strictBound('2027-02-05 10:00:00', 'America/New_York', NOW)!;
    expect(localToUtc(bound, 'America/New_York')).toBe('2027-02-05 10:00:00');
  });
});

describe('default window (lists.md §5.1)', () => {
  it('UTC site on 2026-11-21 12:30:31', () => {
    expect(defaultStartBound('UTC', NOW)).toBe('2026-11-20 00:00:00');
    expect(defaultEndBound(NOW)).toBe('2028-11-21 23:59:59');
  });

  it('raw defaults used with include', () => {
    expect(rawDefaultStart('UTC', NOW)).toBe('2026-11-20 23:59:00');
    expect(rawDefaultEnd(NOW)).toBe('2028-11-21 12:30:31');
  });

  it('sites east of UTC usually start today, west of UTC yesterday', () => {
    expect(defaultStartBound('Asia/Tokyo', NOW)).toBe('2026-11-21 00:00:00');
    expect(rawDefaultStart('Asia/Tokyo', NOW)).toBe('2026-11-21 08:59:00');
    expect(defaultStartBound('UTC+2', NOW)).toBe('2026-11-21 00:00:00');
    expect(defaultStartBound('America/New_York', NOW)).toBe('2026-11-20 00:00:00');
    expect(rawDefaultStart('America/New_York', NOW)).toBe('2026-11-20 18:59:00');
  });

  it('the end bound is taken on the UTC date, and +24 months rolls over like PHP', () => {
    expect(defaultEndBound(new Date('2026-11-21T23:30:00Z'))).toBe('2028-11-21 23:59:59');
    expect(rawDefaultEnd(new Date('2028-02-29T10:00:00Z'))).toBe('2030-03-01 10:00:00');
  });

  it('honours a cutoff', () => {
    expect(defaultStartBound('UTC', NOW, '06:00')).toBe('2026-11-20 06:00:00');
    expect(defaultEndBound(NOW, '06:00')).toBe('2028-11-22 05:59:59');
  });

  it('an unknown site zone gives undefined', () => {
    expect(defaultStartBound('Mars/Base', NOW)).toBeUndefined();
    expect(rawDefaultStart('Mars/Base', NOW)).toBeUndefined();
  });
});
