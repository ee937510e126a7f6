import { describe, expect, it } from 'vitest';
import { isRealCalendarDate, isTime, isTimeThisSecond } from '../../src/dates/index.js';

const NOW = new Date('2026-11-21T12:30:31Z');

describe('isTime (lists.md §5.1, writes.md §1)', () => {
  it.each([
    '2018-01-01',
    '2018-01-01 15:00:00',
    'tomorrow 9am',
    '+5 weeks',
    'next wednesday',
    '1800000000',
    '1970-01-01 00:00:01',
    '1969-12-31',
    '0',
    '1',
    '-5',
    '2026-02-30', // PHP's strtotime accepts it (rolls over to March 2)
    '2027-01-01T10:00:00+02:00',
    'January 5, 2027',
  ])('accepts %j', (value) => {
    expect(isTime(value, NOW)).toBe(true);
  });

  it.each([0, 1, -5, 1800000000, 1.5])('accepts the number %j', (value) => {
    expect(isTime(value, NOW)).toBe(true);
  });

  it.each([
    'before my birthday',
    '',
    'foo',
    '1970-01-01', // parses to the epoch itself: falsy for PHP
    '1970-01-01 00:00:00',
    '1970-01-01T02:00:00+02:00',
    '@0',
  ])('rejects %j', (value) => {
    expect(isTime(value, NOW)).toBe(false);
  });

  // eslint-disable-next-line no-loss-of-precision -- 1e400 on purpose: a literal past the double range (Infinity)
  it.each([NaN, Infinity, -Infinity, 1e400, Number.MAX_VALUE, '1e400', null, undefined, {}, [], true, ['2018-01-01']])(
    'rejects unusable values: %j',
    (value) => {
      expect(() => isTime(value, NOW)).not.toThrow();
      expect(isTime(value, NOW)).toBe(false);
    },
  );

  it('rejects a relative string that lands on the epoch', () => {
    expect(isTime('+1 day', new Date('1969-12-31T00:00:00Z'))).toBe(false);
    expect(isTime('+1 day', NOW)).toBe(true);
  });

  it('strictCalendar rejects impossible dates', () => {
    expect(isTime('2026-02-30', NOW, { strictCalendar: true })).toBe(false);
    expect(isTime('2026-02-28', NOW, { strictCalendar: true })).toBe(true);
  });

  it('defaults now to the current time', () => {
    expect(isTime('tomorrow')).toBe(true);
  });
});

describe('isRealCalendarDate', () => {
  it.each([
    ['2026-02-30', false],
    ['2026-02-29', false],
    ['2028-02-29', true],
    ['2026-04-31', false],
    ['2026-04-30 10:00', true],
    ['2026-00-10', false],
    ['tomorrow', true],
    ['1800000000', true],
    ['before my birthday', false],
  ])('%j → %s', (value, expected) => {
    expect(isRealCalendarDate(value, NOW)).toBe(expected);
  });
});

describe('isTimeThisSecond', () => {
  const at = (ms: number) => new Date(1_000_000_000_000 + ms);
  // The epoch at exactly `at(0)`'s second, and a second later one second after it: a string
  // whose validity changes with the clock.
  const relative = '-1000000000 seconds';

  it('answers as isTime does, the same second or the next', () => {
    for (const value of [relative, '2018-01-01 15:00:00', 'yesterday 23:59', 'not a date', '', 17, null]) {
      for (const ms of [0, 999, 1000, 60_000]) expect(isTimeThisSecond(value, at(ms)), `${String(value)} at +${ms} ms`).toBe(isTime(value, at(ms)));
    }
  });

  it('remembers an answer for its second only', () => {
    expect(isTimeThisSecond(relative, at(0))).toBe(false);
    expect(isTimeThisSecond(relative, at(500))).toBe(false);
    expect(isTimeThisSecond(relative, at(1000))).toBe(true);
    expect(isTimeThisSecond(relative, at(0))).toBe(false);
  });
});
