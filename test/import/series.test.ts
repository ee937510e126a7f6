import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importSite } from '../../src/index.js';
import { DIALECTS, type TestCalendar } from '../helpers/harness.js';
import { httpCalendar, type HttpCalendar } from '../helpers/http.js';
import { importTarget } from './target.js';

// Recurring events imported from a source that shows their rules (this library's API, under
// tribe/events/v1; issue 19): each series becomes a series here, with its cancellations; an
// edit of one occurrence is reported, not carried over.

describe.each(DIALECTS)('importing recurring events into $name', ({ url }) => {
  let source: HttpCalendar;

  beforeAll(async () => {
    source = await httpCalendar(':memory:', { namespace: 'tribe/events/v1', timezone: 'Europe/Paris' });
  }, 60_000);
  afterAll(async () => {
    await source?.close();
  });

  const occurrences = async (ask: TestCalendar['request']) =>
    (
      (await ask('GET', '/events', { as: 'admin', query: { start_date: '2027-01-01', end_date: '2027-12-31', per_page: 50 } })).body.events as {
        title: string;
        start_date: string;
        utc_start_date: string;
        series?: { original_start: string };
      }[]
    ).map((e) => `${e.start_date} ${e.utc_start_date} ${e.title}${e.series ? ' (series)' : ''}`);

  it('copies each series with its rules and cancellations, and reports edits of single occurrences', async () => {
    const post = async (json: Record<string, unknown>) => {
      const res = await source.request('POST', '/events', { as: 'admin', json });
      expect(res.status, res.text).toBe(201);
      return res.body as { id: number };
    };
    const weekly = await post({
      title: 'Weekly yoga',
      start_date: '2027-03-22 09:00:00',
      end_date: '2027-03-22 10:00:00',
      recurrence: ['RRULE:FREQ=WEEKLY;COUNT=5', 'EXDATE;TZID=Europe/Paris:20270405T090000'],
    });
    await post({ title: 'Plain concert', start_date: '2027-04-01 20:00:00', end_date: '2027-04-01 22:00:00' });
    const listed = (await source.request('GET', `/events/${weekly.id}/occurrences`)).body.events as { id: number }[];
    expect((await source.request('DELETE', `/events/${listed[2]!.id}`, { as: 'admin' })).status).toBe(200);
    expect((await source.request('POST', `/events/${listed[1]!.id}`, { as: 'admin', json: { title: 'Weekly yoga outdoors' } })).status).toBe(200);

    const target = await importTarget(url, source, {}, { namespace: 'tribe/events/v1', timezone: 'Europe/Paris' });
    try {
      const report = await importSite(
        { db: target.raw, tablePrefix: target.prefix },
        { root: `${source.origin}/wp-json`, authorization: 'Bearer user-admin', authors: (id) => id, images: false, requestsPerSecond: 1000 },
      );
      expect(report.kinds.event).toMatchObject({ created: 2, skipped: [] });
      expect(report.kinds.event.warnings).toContainEqual(
        expect.stringMatching(new RegExp(`^event ${weekly.id}: 1 edited occurrence of this recurring event imported as the series shows them`)),
      );
      const expected = (await occurrences(source.request)).map((o) => o.replace('Weekly yoga outdoors', 'Weekly yoga'));
      expect(expected.filter((o) => o.includes('(series)'))).toHaveLength(3);
      expect(await occurrences(target.request)).toEqual(expected);
      const series = (await target.request('GET', '/events/by-slug/weekly-yoga', { as: 'admin' })).body;
      expect(series.recurrence).toEqual(['RRULE:FREQ=WEEKLY;COUNT=5', 'EXDATE;TZID=Europe/Paris:20270405T090000']);
      // A second run changes nothing.
      const again = await importSite(
        { db: target.raw, tablePrefix: target.prefix },
        { root: `${source.origin}/wp-json`, authorization: 'Bearer user-admin', authors: (id) => id, images: false, requestsPerSecond: 1000 },
      );
      expect(again.kinds.event).toMatchObject({ created: 0, updated: 0, unchanged: 2 });
      expect(await occurrences(target.request)).toEqual(expected);
    } finally {
      await target.close();
    }
  });
});
