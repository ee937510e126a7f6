/**
 * The publication dates of post writes (src/posts/dates.ts): `date` (site-local wall
 * clock) and `date_utc`, one derived from the other through the site zone, `now` when
 * neither is sent, and no UTC date for a post in a floating status unless `date_utc` is sent.
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/http/errors.js';
import { assertPublicationDates, isUndated, nowDates, publicationDates, updatedPublicationDates } from '../../src/posts/dates.js';
import { ZERO_DATE } from '../../src/posts/status.js';

// Paris is UTC+1 in winter (now) and UTC+2 in summer (June).
const SITE = 'Europe/Paris';
const NOW = new Date('2030-03-01T12:00:00.000Z');
const NOW_LOCAL = '2030-03-01 13:00:00';
const NOW_UTC = '2030-03-01 12:00:00';

describe('nowDates', () => {
  it('is the current instant as a site-local and a UTC wall clock', () => {
    expect(nowDates(SITE, NOW)).toEqual({ local: NOW_LOCAL, utc: NOW_UTC });
    expect(nowDates('UTC', NOW)).toEqual({ local: NOW_UTC, utc: NOW_UTC });
    expect(nowDates('America/New_York', NOW)).toEqual({ local: '2030-03-01 07:00:00', utc: NOW_UTC });
  });

  it('falls back to UTC for an unknown site zone', () => {
    expect(nowDates('Not/AZone', NOW)).toEqual({ local: NOW_UTC, utc: NOW_UTC });
  });
});

/** What a call threw (fails the test when it returned). */
function thrown(call: () => unknown): unknown {
  try {
    call();
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to throw');
}

describe('publicationDates', () => {
  const floating = (input: { date?: unknown; date_utc?: unknown }, zone?: string) => publicationDates(input, SITE, NOW, true, zone);

  describe('of a post in a floating status (draft, pending)', () => {
    it('has no UTC date without `date_utc`: now, or the sent `date`, as its local date', () => {
      expect(floating({})).toEqual({ date: NOW_LOCAL, date_utc: ZERO_DATE });
      expect(floating({ date: '2030-06-01 10:00:00' })).toEqual({ date: '2030-06-01 10:00:00', date_utc: ZERO_DATE });
    });

    it('gets a UTC date when `date_utc` is sent, and the local date from it', () => {
      expect(floating({ date_utc: '2030-06-01 08:00:00' })).toEqual({ date: '2030-06-01 10:00:00', date_utc: '2030-06-01 08:00:00' });
    });

    it('keeps both dates as sent when both are', () => {
      // Not checked against each other: each is stored as sent, as WordPress does.
      expect(floating({ date: '2030-06-01 10:00:00', date_utc: '2030-01-02 03:04:05' })).toEqual({
        date: '2030-06-01 10:00:00',
        date_utc: '2030-01-02 03:04:05',
      });
    });
  });

  describe('of a post in another status', () => {
    const dated = (input: { date?: unknown; date_utc?: unknown }, zone?: string) => publicationDates(input, SITE, NOW, false, zone);

    it('is now without either date', () => {
      expect(dated({})).toEqual({ date: NOW_LOCAL, date_utc: NOW_UTC });
    });

    it('derives `date_utc` from `date` through the site zone', () => {
      expect(dated({ date: '2030-06-01 10:00:00' })).toEqual({ date: '2030-06-01 10:00:00', date_utc: '2030-06-01 08:00:00' });
      expect(dated({ date: '2030-01-15 10:00:00' })).toEqual({ date: '2030-01-15 10:00:00', date_utc: '2030-01-15 09:00:00' });
    });

    it('derives `date` from `date_utc` through the site zone', () => {
      expect(dated({ date_utc: '2030-06-01 08:00:00' })).toEqual({ date: '2030-06-01 10:00:00', date_utc: '2030-06-01 08:00:00' });
      expect(dated({ date_utc: '2030-01-15 09:00:00' })).toEqual({ date: '2030-01-15 10:00:00', date_utc: '2030-01-15 09:00:00' });
    });

    it('keeps both dates as sent when both are', () => {
      expect(dated({ date: '2030-06-01 10:00:00', date_utc: '2030-01-02 03:04:05' })).toEqual({
        date: '2030-06-01 10:00:00',
        date_utc: '2030-01-02 03:04:05',
      });
    });

    it('reads `date` in the given zone and keeps its wall clock as the site-local date', () => {
      // A bare wall clock is the same in any zone; the UTC date is then derived through the site zone.
      expect(dated({ date: '2030-06-01 10:00:00' }, 'America/New_York')).toEqual({ date: '2030-06-01 10:00:00', date_utc: '2030-06-01 08:00:00' });
      // The zone decides what a relative date means: at NOW it is already 2 March in Kiritimati (UTC+14).
      expect(dated({ date: 'tomorrow 9am' }, 'UTC').date).toBe('2030-03-02 09:00:00');
      expect(dated({ date: 'tomorrow 9am' }, 'Pacific/Kiritimati').date).toBe('2030-03-03 09:00:00');
    });

    it('keeps the digits of a `date` that names its own offset or zone (measured on the original, issue 29)', () => {
      // The original answers `date` and `date_utc` 2026-01-05 10:00:00 on a UTC site for this
      // date on a New York event: the offset is not applied, the digits are then read in the site zone.
      expect(publicationDates({ date: '2026-01-05T10:00:00+02:00' }, 'UTC', NOW, false, 'America/New_York')).toEqual({
        date: '2026-01-05 10:00:00',
        date_utc: '2026-01-05 10:00:00',
      });
      // On a Paris site (UTC+1 in January) the same digits are 09:00 UTC.
      expect(dated({ date: '2026-01-05T10:00:00+02:00' }, 'America/New_York')).toEqual({ date: '2026-01-05 10:00:00', date_utc: '2026-01-05 09:00:00' });
      expect(dated({ date: '2030-06-01T12:00:00Z' }, 'America/New_York')).toEqual({ date: '2030-06-01 12:00:00', date_utc: '2030-06-01 10:00:00' });
      expect(dated({ date: '2030-06-01T12:00:00Z' })).toEqual({ date: '2030-06-01 12:00:00', date_utc: '2030-06-01 10:00:00' });
      expect(dated({ date: '2030-06-01 12:00:00 Asia/Tokyo' })).toEqual({ date: '2030-06-01 12:00:00', date_utc: '2030-06-01 10:00:00' });
      expect(floating({ date: '2026-01-05T10:00:00-05:00' }, 'Asia/Tokyo')).toEqual({ date: '2026-01-05 10:00:00', date_utc: ZERO_DATE });
    });

    it('reads a `date` in the site zone when the given zone names no real zone', () => {
      // `UTCfoo` and `0` pass the zone check (TEC's), and an event stores them.
      expect(dated({ date: '2030-06-01 10:00:00' }, 'UTCfoo')).toEqual({ date: '2030-06-01 10:00:00', date_utc: '2030-06-01 08:00:00' });
      expect(dated({ date: 'tomorrow 9am' }, '0').date).toBe('2030-03-02 09:00:00');
    });

    it('reads `date_utc` as UTC, whatever the given zone', () => {
      expect(dated({ date_utc: '2030-06-01 08:00:00' }, 'America/New_York')).toEqual({ date: '2030-06-01 10:00:00', date_utc: '2030-06-01 08:00:00' });
      // Its own offset is applied (TEC converts it to UTC).
      expect(dated({ date_utc: '2030-06-01T10:00:00+02:00' }, 'America/New_York')).toEqual({ date: '2030-06-01 10:00:00', date_utc: '2030-06-01 08:00:00' });
    });

    it('reads relative dates and timestamps against now', () => {
      expect(dated({ date_utc: '+1 day' })).toEqual({ date: '2030-03-02 13:00:00', date_utc: '2030-03-02 12:00:00' });
      expect(dated({ date_utc: NOW.getTime() / 1000 + 3600 })).toEqual({ date: '2030-03-01 14:00:00', date_utc: '2030-03-01 13:00:00' });
    });

    it('refuses an unparsable date with 400 `rest_invalid_date`, instead of dating the post now', () => {
      for (const [input, param] of [
        [{ date: 'never' }, 'date'],
        [{ date: 'never', date_utc: '2030-06-01 08:00:00' }, 'date'],
        [{ date: '' }, 'date'],
        [{ date: {} }, 'date'],
        [{ date_utc: 'never' }, 'date_utc'],
        [{ date: '2030-06-01 10:00:00', date_utc: 'soon-ish' }, 'date_utc'],
      ] as const) {
        for (const call of [() => dated(input), () => floating(input), () => assertPublicationDates(input, SITE, NOW)]) {
          const error = thrown(call);
          expect(error, JSON.stringify(input)).toBeInstanceOf(ApiError);
          expect((error as ApiError).toJSON()).toEqual({ code: 'rest_invalid_date', message: 'Invalid date.', data: { status: 400, param } });
        }
      }
    });

    it('treats a `null` date as not sent (PHP `isset`)', () => {
      expect(dated({ date: null, date_utc: null })).toEqual({ date: NOW_LOCAL, date_utc: NOW_UTC });
      expect(() => assertPublicationDates({ date: null, date_utc: null }, SITE, NOW)).not.toThrow();
    });
  });
});

describe('isUndated', () => {
  it('is whether the UTC date is the zero date', () => {
    expect(isUndated({ date_utc: ZERO_DATE })).toBe(true);
    expect(isUndated({ date_utc: NOW_UTC })).toBe(false);
  });
});

describe('updatedPublicationDates', () => {
  const undated = { date_utc: ZERO_DATE };
  const dated = { date_utc: '2029-01-01 00:00:00' };
  const update = (input: { date?: unknown; date_utc?: unknown }, current: { date_utc: string }, status: string, zone?: string) =>
    updatedPublicationDates(input, current, status, SITE, NOW, zone);

  it('sets the dates sent, by the rules of the new status', () => {
    expect(update({ date: '2030-06-01 10:00:00' }, dated, 'publish')).toEqual({ date: '2030-06-01 10:00:00', date_utc: '2030-06-01 08:00:00' });
    expect(update({ date: '2030-06-01 10:00:00' }, dated, 'draft')).toEqual({ date: '2030-06-01 10:00:00', date_utc: ZERO_DATE });
    expect(update({ date: '2030-06-01 10:00:00' }, undated, 'pending')).toEqual({ date: '2030-06-01 10:00:00', date_utc: ZERO_DATE });
    expect(update({ date_utc: '2030-06-01 08:00:00' }, undated, 'draft')).toEqual({ date: '2030-06-01 10:00:00', date_utc: '2030-06-01 08:00:00' });
    expect(update({ date: '2030-06-01 10:00:00', date_utc: '2030-01-02 03:04:05' }, dated, 'publish')).toEqual({
      date: '2030-06-01 10:00:00',
      date_utc: '2030-01-02 03:04:05',
    });
    expect(update({ date: '2030-06-01T12:00:00Z' }, dated, 'publish', 'America/New_York')).toEqual({
      date: '2030-06-01 12:00:00',
      date_utc: '2030-06-01 10:00:00',
    });
  });

  it('refuses an unparsable date, and sets nothing for a `null` one', () => {
    expect(() => update({ date: 'never' }, dated, 'publish')).toThrow(ApiError);
    expect(() => update({ date_utc: 'never' }, undated, 'draft')).toThrow(ApiError);
    expect(update({ date: null }, dated, 'publish')).toBeUndefined();
  });

  it('dates a never-published post now when it leaves the draft statuses', () => {
    for (const status of ['publish', 'future', 'private']) expect(update({}, undated, status), status).toEqual({ date: NOW_LOCAL, date_utc: NOW_UTC });
  });

  it('sets nothing otherwise: the stored dates stay', () => {
    for (const status of ['draft', 'pending', 'auto-draft', 'trash']) expect(update({}, undated, status), status).toBeUndefined();
    for (const status of ['publish', 'future', 'private', 'draft', 'trash']) expect(update({}, dated, status), status).toBeUndefined();
  });
});
