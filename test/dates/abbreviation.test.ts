import { describe, expect, it } from 'vitest';
import { timezoneAbbr } from '../../src/dates/index.js';

const JAN = new Date('2027-01-15T12:00:00Z');
const MAY = new Date('2027-05-15T12:00:00Z');
const JUL = new Date('2027-07-15T12:00:00Z');

describe('timezoneAbbr (responses.md §2.1)', () => {
  it.each([
    ['America/New_York', JAN, 'EST'],
    ['America/New_York', JUL, 'EDT'],
    ['Asia/Hong_Kong', JAN, 'HKT'],
    ['Europe/Paris', MAY, 'CEST'],
    ['Europe/Paris', JAN, 'CET'],
    ['UTC', JAN, 'UTC'],
    ['UTC+2', JAN, 'UTC+2'],
    ['UTC-5:30', JAN, 'UTC-5:30'],
    ['UTC+0', JAN, 'UTC+0'],
    ['America/Sao_Paulo', JAN, '-03'],
    ['Asia/Dubai', JAN, '+04'],
    ['Asia/Kathmandu', JAN, '+0545'],
    ['Australia/Darwin', JAN, 'ACST'],
    ['EST', JUL, 'EST'],
    ['est', JUL, 'EST'],
    ['+02:00', JAN, 'GMT+0200'],
    ['-03:30', JAN, 'GMT-0330'],
    ['Asia/Tokyo', JAN, 'JST'],
    ['Asia/Kolkata', JAN, 'IST'],
    ['Asia/Calcutta', JAN, 'IST'],
    ['Europe/London', JAN, 'GMT'],
    ['Europe/London', JUL, 'BST'],
    ['Europe/Dublin', JUL, 'IST'],
    ['Australia/Sydney', JAN, 'AEDT'],
    ['Australia/Sydney', JUL, 'AEST'],
    ['US/Eastern', JUL, 'EDT'],
    ['america/new_york', JUL, 'EDT'],
    ['Etc/GMT+5', JAN, '-05'],
    ['GMT', JAN, 'GMT'],
    // zones whose abbreviations changed: the era of the instant counts
    ['Europe/Istanbul', JAN, '+03'],
    ['Europe/Istanbul', new Date('2010-07-01T12:00:00Z'), 'EEST'],
    ['America/Metlakatla', new Date('2005-01-01T12:00:00Z'), 'PST'],
    ['America/Metlakatla', JAN, 'AKST'],
    ['Asia/Hong_Kong', new Date('1979-07-01T12:00:00Z'), 'HKST'],
  ])('%s at %s → %s', (zone, instant, expected) => {
    expect(timezoneAbbr(zone, instant)).toBe(expected);
  });

  it('follows the instant across a DST change', () => {
    expect(timezoneAbbr('America/New_York', new Date('2027-03-14T06:59:59Z'))).toBe('EST');
    expect(timezoneAbbr('America/New_York', new Date('2027-03-14T07:00:00Z'))).toBe('EDT');
  });

  it('is undefined for unusable zones or instants (the caller uses the site zone)', () => {
    expect(timezoneAbbr('Mars/Base', JAN)).toBeUndefined();
    expect(timezoneAbbr('UTCfoo', JAN)).toBeUndefined();
    expect(timezoneAbbr('UTC', new Date(NaN))).toBeUndefined();
    expect(timezoneAbbr('UTC', Infinity)).toBeUndefined();
  });
});
