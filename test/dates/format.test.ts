import { describe, expect, it } from 'vitest';
import { dateDetails, formatOffset, isoWithOffset } from '../../src/dates/index.js';

describe('dateDetails (responses.md §1.10)', () => {
  it('splits into zero-padded strings', () => {
    expect(dateDetails('2017-01-05 14:23:36')).toEqual({
      year: '2017',
      month: '01',
      day: '05',
      hour: '14',
      minutes: '23',
      seconds: '36',
    });
    expect(dateDetails('2027-01-15 00:00:00')).toEqual({
      year: '2027',
      month: '01',
      day: '15',
      hour: '00',
      minutes: '00',
      seconds: '00',
    });
  });

  it.each(['2017-01-05', '2017-01-05T14:23:36', 'tomorrow', '', 5, null])('rejects %j', (value) => {
    expect(dateDetails(value as string)).toBeUndefined();
  });
});

describe('isoWithOffset (responses.md §6)', () => {
  it.each([
    ['2027-04-12 19:30:00', 'America/New_York', '2027-04-12T19:30:00-04:00'],
    ['2027-01-12 19:30:00', 'America/New_York', '2027-01-12T19:30:00-05:00'],
    ['2027-04-01 00:00:00', 'Europe/Berlin', '2027-04-01T00:00:00+02:00'],
    ['2027-04-01 23:59:59', 'Europe/Berlin', '2027-04-01T23:59:59+02:00'],
    ['2027-04-01 10:00:00', 'UTC', '2027-04-01T10:00:00+00:00'],
    ['2027-07-01 10:00:00', 'UTC+2', '2027-07-01T10:00:00+02:00'],
    ['2027-07-01 10:00:00', 'UTC-3:30', '2027-07-01T10:00:00-03:30'],
    ['2027-07-01 10:00:00', 'UTC+0', '2027-07-01T10:00:00+00:00'],
    ['2027-07-01 10:00:00', '+02:00', '2027-07-01T10:00:00+02:00'],
    ['2027-07-01 10:00:00', 'EST', '2027-07-01T10:00:00-05:00'],
    ['2027-07-01 10:00:00', 'Asia/Kathmandu', '2027-07-01T10:00:00+05:45'],
    // validFrom: the publication date at midnight with the site offset
    ['2026-11-21 00:00:00', 'UTC', '2026-11-21T00:00:00+00:00'],
    // a wall clock in the spring-forward gap comes out moved forward, as PHP's format('c')
    ['2027-03-14 02:30:00', 'America/New_York', '2027-03-14T03:30:00-04:00'],
    // the repeated hour: PHP's reading (first occurrence in New York, second in Paris)
    ['2027-11-07 01:30:00', 'America/New_York', '2027-11-07T01:30:00-04:00'],
    ['2027-10-31 02:30:00', 'Europe/Paris', '2027-10-31T02:30:00+01:00'],
  ])('%s in %s → %s', (wallClock, zone, expected) => {
    expect(isoWithOffset(wallClock, zone)).toBe(expected);
  });

  it('rejects bad input', () => {
    expect(isoWithOffset('2027-07-01 10:00:00', 'Mars/Base')).toBeUndefined();
    expect(isoWithOffset('soon', 'UTC')).toBeUndefined();
  });

  it('formats offsets', () => {
    expect(formatOffset(0)).toBe('+00:00');
    expect(formatOffset(-210)).toBe('-03:30');
    expect(formatOffset(345)).toBe('+05:45');
  });
});
