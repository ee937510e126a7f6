/**
 * Seeds the benchmarks' calendars with the library's demo calendar (src/seed/demo-calendar.ts,
 * which the `calendar-events-rest seed` command writes too), into a fresh target, and times it.
 *
 * CLI: `tsx bench/seed.ts <events> [sqlite file | postgres://… | mysql://…]` prints a summary of the
 * fixtures (without a target it (re)makes bench/.data/events-<events>.sqlite, which the other
 * scripts reuse).
 */
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { sql, type Kysely } from 'kysely';
import { connectDatabase } from '../src/store/connect.js';
import { migrateStore } from '../src/store/index.js';
import { TABLES } from '../src/store/database.js';
import { seedDemoCalendar, type DemoCalendar } from '../src/seed/demo-calendar.js';
// A cycle (dataset.ts seeds through this module), harmless: only the CLI below uses it, after both loaded.
import { sqliteDataset } from './dataset.js';

/** What the benchmark cases address in a seeded calendar, and how long seeding took. */
export interface SeedFixtures extends DemoCalendar {
  /** Seconds spent seeding (schema included), and the CPU seconds of this process in them. */
  seconds: number;
  cpuSeconds: number;
}

/** Options of {@link seedCalendar}. */
export interface SeedOptions {
  /** A SQLite file (removed first) or a server URL (the prefixed tables are dropped first). */
  target: string;
  events: number;
  prefix?: string;
  now?: Date;
  /** Events per transaction. */
  batch?: number;
}

/** Opens the target empty: a removed SQLite file, or a server with the prefixed tables dropped. */
async function openFresh(target: string, prefix: string): Promise<Kysely<unknown>> {
  const isUrl = /^[a-z][a-z0-9+.-]*:\/\//i.test(target);
  if (!isUrl) for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(target + suffix, { force: true });
  const raw = await connectDatabase(target);
  if (isUrl) {
    // Every table of the store, whichever migrations made it, then the ledger.
    for (const t of [...TABLES, 'migrations', 'migrations_lock'])
      await raw.schema
        .dropTable(prefix + t)
        .ifExists()
        .execute();
  } else {
    // A benchmark file can be re-made: no need to survive a power cut while seeding.
    await sql`pragma synchronous = off`.execute(raw);
  }
  return raw;
}

/** Seeds a fresh calendar of `events` events and returns what the benchmark cases address. */
export async function seedCalendar(options: SeedOptions): Promise<SeedFixtures> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  const prefix = options.prefix ?? 'tec_';
  const raw = await openFresh(options.target, prefix);
  try {
    await migrateStore(raw, prefix);
    const calendar = await seedDemoCalendar(raw, { events: options.events, prefix, now: options.now, batch: options.batch });
    const used = process.cpuUsage(cpu);
    return { ...calendar, seconds: (performance.now() - started) / 1000, cpuSeconds: (used.user + used.system) / 1e6 };
  } finally {
    await raw.destroy();
  }
}

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href;
if (isMain) {
  const events = Number(process.argv[2] ?? 1000);
  const target = process.argv[3];
  // Without a target: the benchmark's own dataset file, with the fixtures the other scripts reuse.
  const fixtures = target ? await seedCalendar({ target, events }) : await sqliteDataset(events, false);
  const { eventIds, eventSlugs, ...summary } = fixtures;
  console.log(JSON.stringify({ ...summary, eventIds: eventIds.length, eventSlugs: eventSlugs.length }, null, 2));
}
