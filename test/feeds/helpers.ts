import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ICAL from 'ical.js';
import type { Kysely } from 'kysely';
import type { CalendarOptions } from '../../src/index.js';
import { importFeed, type FeedImportOptions } from '../../src/feeds/import-feed.js';
import { Store } from '../../src/resources/store.js';
import { connectDatabase } from '../../src/store/connect.js';
import { testCalendar, type TestCalendar } from '../helpers/harness.js';
import { importUser } from '../../src/feeds/apply.js';

/** A fixture feed's text. */
export const fixture = (name: string) => readFileSync(join(import.meta.dirname, 'fixtures', name), 'utf8');

/** A test calendar, its store, and imports into it. */
export interface FeedTarget extends TestCalendar {
  raw: Kysely<unknown>;
  store: Store;
  /** Imports a feed's text as the file `name`. */
  importText(name: string, text: string, options?: Partial<FeedImportOptions>): ReturnType<typeof importFeed>;
}

/** A migrated calendar on `url` (its own tables) with a store over the same connection. */
export async function feedTarget(url: string, options: Partial<CalendarOptions> = {}): Promise<FeedTarget> {
  const raw = await connectDatabase(url);
  const t = await testCalendar(url, { ...options, db: raw });
  const store = Store.open(raw, t.calendar.options.tablePrefix);
  return {
    ...t,
    raw,
    store,
    importText: (name, text, o = {}) =>
      importFeed({ source: { file: name, text }, store, call: t.calendar.call, user: importUser(0), siteZone: t.calendar.options.timezone, ...o }),
    async close() {
      await t.close();
      await raw.destroy();
    },
  };
}

/** One occurrence as the archive shows it, or as ical.js expands it: local times for floating and all-day events, UTC for the others. */
export interface Shown {
  title: string;
  start: string;
  end: string;
}

/** The archive's events between two dates, as {@link Shown}, sorted. */
export async function archive(t: TestCalendar, from: string, to: string, floating: ReadonlySet<string> = new Set()): Promise<Shown[]> {
  const out: Shown[] = [];
  for (let page = 1; page < 20; page++) {
    const res = await t.request('GET', '/events', { query: { start_date: from, end_date: to, per_page: 50, page } });
    if (res.status !== 200) break;
    for (const e of res.body.events as {
      title: string;
      start_date: string;
      end_date: string;
      utc_start_date: string;
      utc_end_date: string;
      all_day: boolean;
    }[]) {
      const local = e.all_day || floating.has(e.title);
      out.push({ title: e.title, start: local ? e.start_date : `${e.utc_start_date}Z`, end: local ? e.end_date : `${e.utc_end_date}Z` });
    }
    if (out.length >= Number(res.headers['X-WP-Total'] ?? 0)) break;
  }
  return out.sort((a, b) => `${a.start}${a.title}`.localeCompare(`${b.start}${b.title}`));
}

/** `YYYY-MM-DD HH:MM:SS` of an ical.js time's wall clock. */
const wall = (t: ICAL.Time) => t.toString().replace('T', ' ').replace('Z', '').slice(0, 19);

/** UTC `YYYY-MM-DD HH:MM:SSZ` of an ical.js time (its zone registered). */
const utc = (t: ICAL.Time) => `${t.toJSDate().toISOString().slice(0, 19).replace('T', ' ')}Z`;

/**
 * What ical.js makes of a feed between two dates (`YYYY-MM-DD`, inclusive), as {@link Shown}:
 * each event's occurrences with its exceptions applied, cancelled ones left out; all-day and
 * floating events in local times (all-day ones to 23:59:59 of their last day, as the API shows them).
 */
export function expandFeed(text: string, from: string, to: string): Shown[] {
  const root = new ICAL.Component(ICAL.parse(text) as unknown[]);
  for (const vtz of root.getAllSubcomponents('vtimezone')) {
    const tzid = vtz.getFirstPropertyValue('tzid');
    if (typeof tzid === 'string' && !ICAL.TimezoneService.has(tzid)) ICAL.TimezoneService.register(vtz);
  }
  const masters = new Map<string, ICAL.Event>();
  const exceptions: ICAL.Event[] = [];
  for (const c of root.getAllSubcomponents('vevent')) {
    const e = new ICAL.Event(c);
    if (e.isRecurrenceException()) exceptions.push(e);
    else masters.set(e.uid, e);
  }
  for (const e of exceptions) masters.get(e.uid)?.relateException(e);
  const out: Shown[] = [];
  const shown = (item: ICAL.Event, start: ICAL.Time, end: ICAL.Time) => {
    if (String(item.component.getFirstPropertyValue('status') ?? '').toUpperCase() === 'CANCELLED') return;
    // Private events are imported as private: the public archive does not list them.
    if (['PRIVATE', 'CONFIDENTIAL'].includes(String(item.component.getFirstPropertyValue('class') ?? '').toUpperCase())) return;
    const day = wall(start).slice(0, 10);
    if (day < from || day > to) return;
    if (start.isDate) {
      const last = end.clone();
      last.adjust(-1, 0, 0, 0);
      out.push({ title: item.summary, start: `${wall(start).slice(0, 10)} 00:00:00`, end: `${wall(last).slice(0, 10)} 23:59:59` });
    } else if (start.zone?.tzid === 'floating') {
      out.push({ title: item.summary, start: wall(start), end: wall(end) });
    } else out.push({ title: item.summary, start: utc(start), end: utc(end) });
  };
  for (const master of masters.values()) {
    if (!master.isRecurring()) {
      shown(master, master.startDate, master.endDate);
      continue;
    }
    const it = master.iterator();
    for (let next = it.next(), n = 0; next && n < 1000; next = it.next(), n++) {
      if (wall(next).slice(0, 10) > to) break;
      const d = master.getOccurrenceDetails(next);
      shown(d.item, d.startDate, d.endDate);
    }
  }
  // Exceptions of events the feed does not hold are events of their own.
  for (const e of exceptions) if (!masters.has(e.uid)) shown(e, e.startDate, e.endDate);
  return out.sort((a, b) => `${a.start}${a.title}`.localeCompare(`${b.start}${b.title}`));
}
