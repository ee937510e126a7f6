/**
 * The status rules every post write shares (src/posts/status.ts): what a caller's
 * requested status becomes, and `publish` ⇄ `future` by publication date.
 */
import { describe, expect, it } from 'vitest';
import { toPrincipal } from '../../src/auth/capabilities.js';
import { FLOATING_STATUSES, ZERO_DATE, scaleBackStatus, scheduleStatus } from '../../src/posts/status.js';
import { USERS } from '../helpers/harness.js';

const principal = (who: keyof typeof USERS) => toPrincipal(USERS[who]);

describe('scaleBackStatus', () => {
  it('gives publishers what they ask for, `publish` by default', () => {
    for (const who of ['admin', 'editor', 'author'] as const) {
      const p = principal(who);
      expect(scaleBackStatus(p, undefined), who).toBe('publish');
      for (const status of ['publish', 'future', 'draft', 'pending', 'private', 'trash']) expect(scaleBackStatus(p, status), `${who} ${status}`).toBe(status);
    }
  });

  it('gives others `pending` for `publish`/`future`, `draft` by default, and any other status as asked', () => {
    for (const p of [principal('contributor'), principal('subscriber'), null]) {
      expect(scaleBackStatus(p, undefined)).toBe('draft');
      expect(scaleBackStatus(p, 'publish')).toBe('pending');
      expect(scaleBackStatus(p, 'future')).toBe('pending');
      expect(scaleBackStatus(p, 'draft')).toBe('draft');
      expect(scaleBackStatus(p, 'pending')).toBe('pending');
      // Only publish/future are scaled back here; whether `private` is allowed is decided elsewhere.
      expect(scaleBackStatus(p, 'private')).toBe('private');
    }
  });

  it('decides by the event publish capability alone (upstream uses it for venues and organizers too)', () => {
    const eventsOnly = { id: 9, capabilities: new Set(['publish_tribe_events']) };
    const venuesOnly = { id: 9, capabilities: new Set(['publish_tribe_venues', 'publish_tribe_organizers']) };
    expect(scaleBackStatus(eventsOnly, undefined)).toBe('publish');
    expect(scaleBackStatus(eventsOnly, 'future')).toBe('future');
    expect(scaleBackStatus(venuesOnly, undefined)).toBe('draft');
    expect(scaleBackStatus(venuesOnly, 'publish')).toBe('pending');
  });
});

describe('scheduleStatus', () => {
  const now = new Date('2030-03-01T12:00:00.000Z');

  it('makes `publish` `future` for a date more than a minute ahead', () => {
    expect(scheduleStatus('publish', '2030-03-01 12:01:01', now)).toBe('future');
    expect(scheduleStatus('publish', '2031-01-01 00:00:00', now)).toBe('future');
  });

  it('keeps `publish` for a date in the past, now, or at most a minute ahead', () => {
    expect(scheduleStatus('publish', '2020-01-01 00:00:00', now)).toBe('publish');
    expect(scheduleStatus('publish', '2030-03-01 12:00:00', now)).toBe('publish');
    expect(scheduleStatus('publish', '2030-03-01 12:01:00', now)).toBe('publish');
  });

  it('makes `future` `publish` when its date is not more than a minute ahead', () => {
    expect(scheduleStatus('future', '2020-01-01 00:00:00', now)).toBe('publish');
    expect(scheduleStatus('future', '2030-03-01 12:01:00', now)).toBe('publish');
    expect(scheduleStatus('future', '2030-03-01 12:01:01', now)).toBe('future');
  });

  it('compares the UTC date with `now` to the millisecond', () => {
    const halfPast = new Date('2030-03-01T12:00:00.500Z');
    expect(scheduleStatus('publish', '2030-03-01 12:01:00', halfPast)).toBe('publish'); // 59.5 s ahead
    expect(scheduleStatus('publish', '2030-03-01 12:01:01', halfPast)).toBe('future'); // 60.5 s ahead
    // The stored date is UTC: 13:00 is an hour ahead of 12:00Z, whatever the process time zone.
    expect(scheduleStatus('publish', '2030-03-01 13:00:00', now)).toBe('future');
    expect(scheduleStatus('future', '2030-03-01 11:00:00', now)).toBe('publish');
  });

  it('leaves every other status alone', () => {
    for (const status of ['draft', 'pending', 'private', 'trash', 'auto-draft']) {
      expect(scheduleStatus(status, '2031-01-01 00:00:00', now), status).toBe(status);
      expect(scheduleStatus(status, '2020-01-01 00:00:00', now), status).toBe(status);
    }
  });
});

describe('floating statuses', () => {
  it('are the draft statuses, whose posts have no UTC date', () => {
    expect([...FLOATING_STATUSES].sort()).toEqual(['auto-draft', 'draft', 'pending']);
    expect(ZERO_DATE).toBe('0000-00-00 00:00:00');
  });
});
