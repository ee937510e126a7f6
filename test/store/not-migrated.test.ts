/** A store nobody set up: every request says what to do, instead of a 500 with "no such table". */
import { describe, expect, it } from 'vitest';
import { createCalendar, type CoreRequest } from '../../src/index.js';
import { migrationNames } from '../../src/store/migrate.js';

/** Every migration, in order: a store nobody set up has them all pending. */
const PENDING = migrationNames().join(', ');

const request = (path: string): CoreRequest => ({ method: 'GET', path: `/calendar/events/v1${path}`, headers: { host: 'example.org' }, root: '/wp-json' });

describe('a store that was never migrated', () => {
  it('answers 503 rest_calendar_not_migrated, tells the host once, and serves once migrated', async () => {
    const errors: string[] = [];
    const calendar = createCalendar({ db: ':memory:', onError: (e) => errors.push(String(e)) });
    for (const path of ['/events', '/venues/1']) {
      const res = await calendar.handle(request(path));
      expect(res?.status).toBe(503);
      expect(JSON.parse(Buffer.from(res?.body ?? []).toString('utf8'))).toEqual({
        code: 'rest_calendar_not_migrated',
        message: `The calendar's tables are not set up (migrations pending: ${PENDING}): the host must call calendar.migrate() at start, or create the calendar with autoMigrate: true.`,
        data: { status: 503 },
      });
    }
    expect(errors).toEqual([
      `Error: calendar-events-rest: The calendar's tables are not set up (migrations pending: ${PENDING}): the host must call calendar.migrate() at start, or create the calendar with autoMigrate: true.`,
    ]);
    // Outside the namespace the host answers, as ever.
    expect(await calendar.handle({ ...request(''), path: '/wp/v2/posts' })).toBeNull();
    // Typed callers get the same answer, not an exception.
    const called = await calendar.call('GET', '/events');
    expect(called.status).toBe(503);
    expect((called.body as { code: string }).code).toBe('rest_calendar_not_migrated');
    await calendar.migrate();
    expect((await calendar.handle(request('/events')))?.status).toBe(200);
    await calendar.close();
  });

  it('`autoMigrate: true` sets the tables up on first use', async () => {
    const calendar = createCalendar({ db: ':memory:', autoMigrate: true });
    const [a, b] = await Promise.all([calendar.handle(request('/events')), calendar.handle(request('/tags'))]);
    expect([a?.status, b?.status]).toEqual([200, 200]);
    await calendar.close();
  });

  it('a database that cannot be reached answers 503 rest_service_unavailable, and closes cleanly', async () => {
    const errors: unknown[] = [];
    // Port 1 on loopback refuses at once.
    const calendar = createCalendar({ db: 'postgres://calendar@127.0.0.1:1/none', onError: (e) => errors.push(e) });
    const res = await calendar.handle(request('/events'));
    expect(res?.status).toBe(503);
    expect(JSON.parse(Buffer.from(res?.body ?? []).toString('utf8')).code).toBe('rest_service_unavailable');
    expect(errors).toEqual([]);
    await calendar.close();
  });
});
