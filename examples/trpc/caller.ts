/**
 * A typed server-side tRPC caller over the calendar: it creates a venue, an event at that
 * venue, and lists the events. Inputs and outputs are typed (try autocomplete on
 * `admin.events.create({ … })`); the same rules as the REST API apply.
 *
 *   npx tsx examples/trpc/caller.ts
 *
 * The database is a fresh SQLite file in a temporary directory, unless `CALENDAR_DB`
 * names one (a file path, `postgres://…` or `mysql://…`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TRPCError } from '@trpc/server';
import { createCalendar } from '../../src/index.js';
import { apiErrorOf, createCalendarContext, createCalendarRouter } from '../../src/trpc/index.js';

const dir = process.env.CALENDAR_DB ? undefined : mkdtempSync(join(tmpdir(), 'calendar-trpc-'));
const calendar = createCalendar({ db: process.env.CALENDAR_DB ?? join(dir ?? '.', 'calendar.sqlite'), baseUrl: 'http://localhost:8080' });

/** `YYYY-MM-DD HH:MM:SS`, `days` from today at `hour` o'clock. */
function wallClock(days: number, hour: number): string {
  const d = new Date();
  d.setUTCDate(d.getUTCDate() + days);
  return `${d.toISOString().slice(0, 10)} ${String(hour).padStart(2, '0')}:00:00`;
}

try {
  await calendar.migrate();
  const router = createCalendarRouter(calendar);
  // The host authenticates; the router only reads the user from the context.
  const admin = router.createCaller(createCalendarContext({ user: { id: 1, roles: ['administrator'] } }));

  const venue = await admin.venues.create({ venue: 'Blue Note', address: '131 W 3rd St', city: 'New York', country: 'United States' });
  const event = await admin.events.create({
    title: 'Late-night jam session',
    start_date: wallClock(7, 20),
    end_date: wallClock(7, 23),
    venue: venue.id,
    cost: '15',
  });
  console.log(`created venue #${venue.id} "${venue.venue}" and event #${event.id} "${event.title}"`);

  const { events, total } = await admin.events.list({ per_page: 10 });
  console.log(`${total} event(s):`);
  for (const e of events) {
    const where = Array.isArray(e.venue) ? 'no venue' : e.venue.venue;
    console.log(`- ${e.start_date}  ${e.title} @ ${where}  (${e.rest_url})`);
  }

  // Anonymous callers may read but not write: the API's error stays readable.
  const anonymous = router.createCaller(createCalendarContext());
  try {
    await anonymous.venues.create({ venue: 'Nope' });
  } catch (error) {
    const api = apiErrorOf(error);
    if (!(error instanceof TRPCError)) throw error;
    console.log(`anonymous create refused: ${error.code} (${api?.code}, HTTP ${api?.data?.status})`);
  }
} finally {
  await calendar.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
}
