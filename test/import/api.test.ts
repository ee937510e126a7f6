import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCalendar, importSite, importedIds } from '../../src/index.js';
import { ALL_EVENTS } from '../../src/import/events.js';
import { requester, type As } from '../helpers/harness.js';
import { httpCalendar, type HttpCalendar } from '../helpers/http.js';

// The importer from code (issue 18): `importSite` into SQLite files, with credentials and
// anonymously, and `importedIds` to find what each source id became.

describe('importSite and importedIds', () => {
  let source: HttpCalendar;
  const dir = mkdtempSync(join(tmpdir(), 'calendar-import-api-'));

  beforeAll(async () => {
    source = await httpCalendar(':memory:', { namespace: 'tribe/events/v1' });
    const statuses = ['publish', 'draft', 'private', 'publish'];
    for (let i = 0; i < 12; i++) {
      const res = await source.request('POST', '/events', {
        as: 'admin',
        json: {
          title: `Talk ${i}`,
          status: statuses[i % 4],
          start_date: `20${30 + i}-02-01 18:00:00`,
          end_date: `20${30 + i}-02-01 19:00:00`,
          venue: { venue: `Room ${i % 3}` },
        },
      });
      expect(res.status, res.text).toBe(201);
    }
  }, 60_000);
  afterAll(async () => {
    await source?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Every event a caller sees, by title, with its dates and venue name. */
  const view = async (ask: HttpCalendar['request'], as: As) => {
    const res = await ask('GET', '/events', { as, query: { ...ALL_EVENTS, per_page: 50 } });
    expect(res.status).toBe(200);
    return (res.body.events as { title: string; status: string; start_date: string; utc_end_date: string; venue: { venue?: string } }[])
      .map((e) => ({ title: e.title, status: e.status, start: e.start_date, end: e.utc_end_date, venue: e.venue.venue }))
      .sort((a, b) => a.title.localeCompare(b.title));
  };
  const calendarOn = (file: string) => {
    const calendar = createCalendar({ db: file });
    return { calendar, request: requester(calendar) };
  };

  it('imports what the account may read, and maps every source id to what it became', async () => {
    const db = join(dir, 'admin.sqlite');
    const root = `${source.origin}/wp-json`;
    const report = await importSite({ db }, { root, authorization: 'Bearer user-admin', requestsPerSecond: 1000 });
    expect(report.kinds.event).toMatchObject({ created: 12, skipped: [] });
    expect(report.kinds.venue).toMatchObject({ created: 3 });
    const ids = await importedIds({ db }, { root }, 'event');
    expect(ids.size).toBe(12);
    const { calendar, request } = calendarOn(db);
    try {
      expect(await view(request, 'admin')).toEqual(await view(source.request, 'admin'));
      for (const [sourceId, id] of ids) {
        const [here, there] = [await request('GET', `/events/${id}`, { as: 'admin' }), await source.request('GET', `/events/${sourceId}`, { as: 'admin' })];
        expect(here.body.title).toBe(there.body.title);
      }
    } finally {
      await calendar.close();
    }
  });

  it('imports what the public sees without credentials', async () => {
    const db = join(dir, 'public.sqlite');
    const report = await importSite({ db }, { root: `${source.origin}/wp-json`, requestsPerSecond: 1000 });
    expect(report.kinds.event).toMatchObject({ created: 6, skipped: [] });
    const { calendar, request } = calendarOn(db);
    try {
      const imported = await view(request, 'admin');
      expect(imported.every((e) => e.status === 'publish')).toBe(true);
      expect(imported).toEqual(await view(source.request, null));
    } finally {
      await calendar.close();
    }
  });
});
