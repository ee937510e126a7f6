import { describe, expect, it } from 'vitest';
import { formatWallClock, isValidTimezone, localToUtc, resolveZone, utcToLocal, wallClockToInstant, zoneOffsetMinutes } from '../../src/dates/index.js';

describe('resolveZone', () => {
  it.each([
    ['America/New_York', 'iana'],
    ['america/new_york', 'iana'],
    ['US/Eastern', 'iana'],
    ['UTC', 'iana'],
    ['Asia/Hong_Kong', 'iana'],
    ['UTC+2', 'utc-offset'],
    ['UTC-3:30', 'utc-offset'],
    ['UTC+5.5', 'utc-offset'],
    ['UTC+0', 'utc-offset'],
    ['EST', 'abbreviation'],
    ['IST', 'abbreviation'],
    ['EST5EDT', 'iana'],
    ['Etc/GMT+5', 'iana'],
    ['cest', 'abbreviation'],
    ['CET', 'abbreviation'],
    ['+02:00', 'offset'],
    ['+0200', 'offset'],
    ['-3', 'offset'],
  ])('%s is %s', (name, kind) => {
    expect(resolveZone(name)?.kind).toBe(kind);
  });

  it.each(['', 'Mars/Base', 'UTCfoo', 'utc +2', 'EST ', '+25:61', '+100:00', 'GMT+2x', 'SGT', 'PHT', 'AET', 'SystemV/AST4', 'x'.repeat(200)])(
    'rejects %j',
    (name) => {
      expect(resolveZone(name)).toBeUndefined();
    },
  );

  it('treats abbreviations as PHP does: fixed offsets, even where the tz database has a DST zone', () => {
    const july = new Date('2027-07-01T12:00:00Z');
    expect(zoneOffsetMinutes('CET', july)).toBe(60);
    expect(zoneOffsetMinutes('Europe/Paris', july)).toBe(120);
    expect(zoneOffsetMinutes('EST', july)).toBe(-300);
    expect(zoneOffsetMinutes('EDT', july)).toBe(-240);
  });
});

describe('isValidTimezone (writes.md §2.4)', () => {
  it.each([
    ['', true],
    ['0', true],
    ['America/New_York', true],
    ['UTC', true],
    ['EST', true],
    ['+02:00', true],
    ['UTC+5', true],
    ['UTC-3:30', true],
    ['UTCfoo', true], // "starts with UTC, longer than 3 characters"
    ['Mars/Base', false],
    ['utc+5', false],
    ['foo', false],
    [' ', false],
  ])('%j → %s', (value, expected) => {
    expect(isValidTimezone(value)).toBe(expected);
  });

  it.each([null, undefined, 5, {}, [], true])('non-strings are invalid: %j', (value) => {
    expect(isValidTimezone(value)).toBe(false);
  });
});

describe('wall clock ↔ UTC', () => {
  it('converts IANA and fixed-offset zones', () => {
    expect(localToUtc('2018-01-01 16:00:00', 'Asia/Hong_Kong')).toBe('2018-01-01 08:00:00');
    expect(localToUtc('2027-01-15 08:00:00', 'America/New_York')).toBe('2027-01-15 13:00:00');
    expect(localToUtc('2027-07-15 08:00:00', 'America/New_York')).toBe('2027-07-15 12:00:00');
    expect(localToUtc('2027-07-01 10:00:00', 'UTC+2')).toBe('2027-07-01 08:00:00');
    expect(localToUtc('2027-07-01 10:00:00', 'UTC-3:30')).toBe('2027-07-01 13:30:00');
    expect(localToUtc('2027-07-01 10:00:00', 'UTC+0')).toBe('2027-07-01 10:00:00');
    expect(localToUtc('2027-07-01 10:00:00', 'UTC')).toBe('2027-07-01 10:00:00');
    expect(localToUtc('2027-01-01 00:30:00', 'UTC+2')).toBe('2026-12-31 22:30:00');
    expect(utcToLocal('2018-01-01 08:00:00', 'Asia/Hong_Kong')).toBe('2018-01-01 16:00:00');
    expect(utcToLocal('2027-07-01 08:00:00', 'UTC+2')).toBe('2027-07-01 10:00:00');
    expect(utcToLocal('2026-12-31 22:30:00', 'UTC+5.5')).toBe('2027-01-01 04:00:00');
  });

  it('accepts a date-only wall clock as midnight', () => {
    expect(localToUtc('2027-01-15', 'America/New_York')).toBe('2027-01-15 05:00:00');
  });

  it('rejects bad input without throwing', () => {
    expect(localToUtc('2027-01-15 25', 'UTC')).toBeUndefined();
    expect(localToUtc('tomorrow', 'UTC')).toBeUndefined();
    expect(localToUtc('2027-01-15 10:00:00', 'Mars/Base')).toBeUndefined();
    expect(wallClockToInstant(42 as unknown as string, 'UTC')).toBeUndefined();
    expect(formatWallClock(new Date(NaN), 'UTC')).toBeUndefined();
    expect(formatWallClock(new Date('2027-01-01T00:00:00Z'), 'Mars/Base')).toBeUndefined();
  });

  describe('America/New_York DST', () => {
    it('spring forward 2027-03-14: the missing hour moves forward', () => {
      expect(localToUtc('2027-03-14 01:59:59', 'America/New_York')).toBe('2027-03-14 06:59:59');
      expect(localToUtc('2027-03-14 02:00:00', 'America/New_York')).toBe('2027-03-14 07:00:00');
      expect(localToUtc('2027-03-14 02:30:00', 'America/New_York')).toBe('2027-03-14 07:30:00');
      expect(utcToLocal('2027-03-14 07:30:00', 'America/New_York')).toBe('2027-03-14 03:30:00');
      expect(localToUtc('2027-03-14 03:00:00', 'America/New_York')).toBe('2027-03-14 07:00:00');
      expect(utcToLocal('2027-03-14 06:59:59', 'America/New_York')).toBe('2027-03-14 01:59:59');
      expect(utcToLocal('2027-03-14 07:00:00', 'America/New_York')).toBe('2027-03-14 03:00:00');
    });

    it('fall back 2027-11-07: the repeated hour is its first (EDT) occurrence', () => {
      expect(localToUtc('2027-11-07 00:59:59', 'America/New_York')).toBe('2027-11-07 04:59:59');
      expect(localToUtc('2027-11-07 01:00:00', 'America/New_York')).toBe('2027-11-07 05:00:00');
      expect(localToUtc('2027-11-07 01:30:00', 'America/New_York')).toBe('2027-11-07 05:30:00');
      expect(localToUtc('2027-11-07 01:59:59', 'America/New_York')).toBe('2027-11-07 05:59:59');
      expect(localToUtc('2027-11-07 02:00:00', 'America/New_York')).toBe('2027-11-07 07:00:00');
      // Both UTC instants of the repeated hour show 01:30 locally.
      expect(utcToLocal('2027-11-07 05:30:00', 'America/New_York')).toBe('2027-11-07 01:30:00');
      expect(utcToLocal('2027-11-07 06:30:00', 'America/New_York')).toBe('2027-11-07 01:30:00');
    });
  });

  describe('Europe/Paris DST', () => {
    it('spring forward 2027-03-28 (02:00 → 03:00)', () => {
      expect(localToUtc('2027-03-28 01:59:59', 'Europe/Paris')).toBe('2027-03-28 00:59:59');
      expect(localToUtc('2027-03-28 02:30:00', 'Europe/Paris')).toBe('2027-03-28 01:30:00');
      expect(utcToLocal('2027-03-28 01:30:00', 'Europe/Paris')).toBe('2027-03-28 03:30:00');
      expect(localToUtc('2027-03-28 03:00:00', 'Europe/Paris')).toBe('2027-03-28 01:00:00');
    });

    it('fall back 2027-10-31 (03:00 → 02:00): east of Greenwich PHP takes the second occurrence (CET)', () => {
      expect(localToUtc('2027-10-31 01:59:59', 'Europe/Paris')).toBe('2027-10-30 23:59:59');
      expect(localToUtc('2027-10-31 02:00:00', 'Europe/Paris')).toBe('2027-10-31 01:00:00');
      expect(localToUtc('2027-10-31 02:30:00', 'Europe/Paris')).toBe('2027-10-31 01:30:00');
      expect(localToUtc('2027-10-31 02:59:59', 'Europe/Paris')).toBe('2027-10-31 01:59:59');
      expect(utcToLocal('2027-10-31 00:30:00', 'Europe/Paris')).toBe('2027-10-31 02:30:00');
      expect(localToUtc('2027-10-31 03:00:00', 'Europe/Paris')).toBe('2027-10-31 02:00:00');
      expect(utcToLocal('2027-10-31 01:30:00', 'Europe/Paris')).toBe('2027-10-31 02:30:00');
    });
  });

  it('other repeated hours follow PHP 8.2 (checked with DateTime)', () => {
    expect(localToUtc('2027-11-07 01:30:00', 'America/Los_Angeles')).toBe('2027-11-07 08:30:00'); // PDT
    expect(localToUtc('2027-11-07 01:30:00', 'America/St_Johns')).toBe('2027-11-07 04:00:00'); // NDT
    expect(localToUtc('2027-10-31 01:30:00', 'Europe/London')).toBe('2027-10-31 01:30:00'); // GMT
    expect(localToUtc('2027-10-31 03:30:00', 'Europe/Helsinki')).toBe('2027-10-31 01:30:00'); // EET
    expect(localToUtc('2027-04-04 02:30:00', 'Australia/Sydney')).toBe('2027-04-03 16:30:00'); // AEST
    expect(localToUtc('2027-04-03 23:30:00', 'America/Santiago')).toBe('2027-04-04 02:30:00'); // -03
  });

  it('southern hemisphere: America/Sao_Paulo has no DST any more, Australia/Sydney has', () => {
    expect(localToUtc('2027-01-15 10:00:00', 'America/Sao_Paulo')).toBe('2027-01-15 13:00:00');
    expect(localToUtc('2027-01-15 10:00:00', 'Australia/Sydney')).toBe('2027-01-14 23:00:00');
    expect(localToUtc('2027-07-15 10:00:00', 'Australia/Sydney')).toBe('2027-07-15 00:00:00');
  });

  it('formatWallClock accepts Dates and epoch milliseconds', () => {
    expect(formatWallClock(Date.UTC(2027, 0, 15, 8), 'America/New_York')).toBe('2027-01-15 03:00:00');
    expect(formatWallClock(new Date(Date.UTC(2027, 0, 15, 8)), 'UTC+2')).toBe('2027-01-15 10:00:00');
  });
});
