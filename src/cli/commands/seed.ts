import { InvalidArgumentError } from 'commander';
import { seedDemoCalendar, storeHoldings } from '../../seed/demo-calendar.js';
import { migrateToLatest } from '../../store/migrate.js';
import { describeTarget, withDatabase } from '../database-target.js';
import { CliError } from '../failure.js';
import { printLine } from '../output.js';
import { startProgress } from '../progress.js';
import type { StoreOptions } from '../store-options.js';

/** `--events`: a positive whole number. */
export function parseEventCount(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < 1) throw new InvalidArgumentError('It must be a whole number, 1 or more.');
  return n;
}

/** `seed`: migrates if needed, then fills an empty store with the demo calendar, with a progress report over its events. */
export async function runSeed({ db, tablePrefix, events }: StoreOptions & { events: number }): Promise<number> {
  const where = `${describeTarget(db)} (tables ${tablePrefix}*)`;
  const started = performance.now();
  const calendar = await withDatabase(db, async (conn) => {
    for (const name of await migrateToLatest(conn, tablePrefix)) printLine(`applied ${name}`);
    // The demo calendar writes explicit ids from 1: any row already there would collide (or be mixed with demo data).
    const held = await storeHoldings(conn, tablePrefix);
    if (held.posts > 0 || held.terms > 0) {
      throw new CliError(
        `${where} already holds ${held.events} events (${held.posts} posts, ${held.terms} terms); seed fills an empty store only: choose another --db or --table-prefix.`,
      );
    }
    // About a hundred steps: transactions stay large, and the report still moves.
    const batch = Math.min(10_000, Math.max(100, Math.ceil(events / 100)));
    const progress = startProgress(events, 'events');
    try {
      return await seedDemoCalendar(conn, { events, prefix: tablePrefix, batch, onProgress: (done) => progress.update(done) });
    } finally {
      progress.stop();
    }
  });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  printLine(
    `${where}: seeded ${calendar.events} events, ${calendar.venues} venues, ${calendar.organizers} organizers, ${calendar.categories} categories and ${calendar.tags} tags in ${seconds} s`,
  );
  return 0;
}
