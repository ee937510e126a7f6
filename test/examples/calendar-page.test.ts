// examples/calendar-page (issue 35): the page's time rule and feed address (its pure modules),
// and the Express mount that serves it, bundled at start. The page itself is tested in Chromium
// by `npm run test:browser` (test/browser).
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCalendar, type Calendar } from '../../src/index.js';
import { mountCalendarPages } from '../../examples/calendar-page/mount.js';
import { calendarTimes, rangeParams, wallClock, whenText } from '../../examples/calendar-page/client/zoned-times.js';
import { feedUrl } from '../../examples/calendar-page/client/feed-url.js';

const lateShow = {
  start_date: '2027-01-12 23:30:00',
  end_date: '2027-01-13 00:45:00',
  all_day: false,
  timezone: 'America/Los_Angeles',
  timezone_abbr: 'PST',
};

describe('calendar page: wall times in the event zone', () => {
  it("hands the calendar the event's own wall times, with no offset for any zone to apply", () => {
    expect(calendarTimes(lateShow)).toEqual({ start: '2027-01-12T23:30:00', end: '2027-01-13T00:45:00', allDay: false });
    expect(wallClock(lateShow.start_date).getUTCDate()).toBe(12);
  });

  it('ends an all-day event on the next day, exclusive', () => {
    expect(calendarTimes({ start_date: '2027-01-22 00:00:00', end_date: '2027-01-23 23:59:59', all_day: true })).toEqual({
      start: '2027-01-22',
      end: '2027-01-24',
      allDay: true,
    });
  });

  it('asks for the events overlapping the view: starting by its last day, ending after the day before it', () => {
    expect(rangeParams(new Date('2026-11-29T00:00:00Z'), new Date('2027-01-03T00:00:00Z'))).toEqual({ starts_before: '2027-01-02', ends_after: '2026-11-28' });
  });

  it('writes when an event happens in its zone, in the page language', () => {
    expect(whenText('en', lateShow, 'All day')).toMatch(
      /^Tuesday, January 12, 2027, 11:30\sPM – Wednesday, January 13, 2027, 12:45\sAM PST \(America\/Los_Angeles\)$/,
    );
    expect(whenText('fr', { ...lateShow, end_date: '2027-01-12 23:59:00' }, 'Toute la journée')).toBe(
      'mardi 12 janvier 2027, 23:30 – 23:59 PST (America/Los_Angeles)',
    );
  });

  it('subscribes to the iCalendar feed of the same filters, and to nothing else', () => {
    const ns = new URL('http://127.0.0.1:8080/fr/wp-json/calendar/events/v1/');
    expect(feedUrl(ns, { category: '', venue: '' })).toBe('http://127.0.0.1:8080/fr/wp-json/calendar/events/v1/ics/events');
    expect(feedUrl(ns, { category: '7', venue: '3' })).toBe('http://127.0.0.1:8080/fr/wp-json/calendar/events/v1/ics/events?categories=7&venue=3');
  });
});

describe('calendar page: served by the Express example', () => {
  let calendar: Calendar;
  let base: string;
  let close: () => void;

  beforeAll(async () => {
    calendar = createCalendar({ db: ':memory:', namespace: 'tribe/events/v1' });
    const app = express();
    await mountCalendarPages(app, calendar);
    const server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => server.close();
  });
  afterAll(async () => {
    close?.();
    await calendar?.close();
  });

  it('sends /calendar to /calendar/, whose relative addresses need the slash', async () => {
    const response = await fetch(`${base}/calendar`, { redirect: 'manual' });
    expect(response.status).toBe(301);
    expect(response.headers.get('location')).toBe('/calendar/');
  });

  it('serves the page per language with its policy, its namespace and the API root beside it', async () => {
    for (const [path, lang] of [
      ['/calendar/', 'en'],
      ['/fr/calendar/', 'fr'],
    ] as const) {
      const response = await fetch(`${base}${path}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
      const html = await response.text();
      expect(html).toContain(`<html lang="${lang}">`);
      expect(html).toContain('{"locale":"' + lang + '","apiRoot":"../wp-json/","namespace":"tribe/events/v1"}');
    }
  });

  it('serves the bundle built at start: a module script and its styles', async () => {
    const js = await fetch(`${base}/fr/calendar/app.js`);
    expect(js.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(await js.text()).toContain('calendar-page:token');
    const css = await fetch(`${base}/calendar/app.css`);
    expect(css.headers.get('content-type')).toMatch(/^text\/css/);
    expect(await css.text()).toContain('.event-time');
  });
});
