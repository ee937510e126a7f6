import type { Kysely } from 'kysely';
import { InvalidArgumentError } from 'commander';
import { createCalendar } from '../../calendar.js';
import { Store } from '../../resources/store.js';
import { SubscriptionRows, statusOf } from '../../subscriptions/rows.js';
import { intervalMinutes, isFeedUrl, subscriptionName, type SubscriptionStatus } from '../../subscriptions/settings.js';
import { migrateToLatest } from '../../store/migrate.js';
import { describeTarget, withDatabase } from '../database-target.js';
import { CliError } from '../failure.js';
import { printLine } from '../output.js';
import type { StoreOptions } from '../store-options.js';
import { feedReportLines } from './import-ics.js';

/** The options of `subscribe`. */
export interface SubscribeCommandOptions extends StoreOptions {
  url: string;
  name?: string;
  every: number;
  category: string[];
  status: 'publish' | 'draft';
  overwrite?: boolean;
  allowHost: string[];
}

/** An `--every` interval: minutes, or `90m`, `6h`, `1d`. */
export function parseEvery(value: string): number {
  const minutes = intervalMinutes(value);
  if (minutes === undefined) throw new InvalidArgumentError('It must be minutes, or a number with m, h or d, such as 90m, 6h or 1d.');
  return minutes;
}

/** Opens the store (migrating it first) and runs `work` on its subscriptions. */
function withRows<T>(o: StoreOptions, work: (rows: SubscriptionRows, conn: Kysely<unknown>) => Promise<T>): Promise<T> {
  return withDatabase(o.db, async (conn) => {
    await migrateToLatest(conn, o.tablePrefix);
    return work(new SubscriptionRows(Store.open(conn, o.tablePrefix).db), conn);
  });
}

/** The lines of one subscription's status. */
function statusLines(s: SubscriptionStatus): string[] {
  const { everyMinutes, categories, status, overwrite } = s.settings;
  const lines = [
    `${s.name}${s.name !== s.url ? ` (${s.url})` : ''}: every ${everyMinutes} min, ${status}${categories.length ? `, categories ${categories.join(', ')}` : ''}${overwrite ? ', overwrite' : ''} [${s.origin}]`,
    `  ${s.runs} runs (${s.notModified} not modified, ${s.failures} failed); last ${s.lastRunAt || 'never'}${s.lastOutcome ? ` ${s.lastOutcome}` : ''}${s.running ? '; running now' : ''}; next ${s.nextRunAt || 'now'}`,
  ];
  if (s.lastError) lines.push(`  last error: ${s.lastError}`);
  return lines;
}

/** `subscribe <url>`: adds a subscription (or changes the one of that name), run by the calendars that have the `subscriptions` option and by `subscriptions run`. */
export async function runSubscribe(o: SubscribeCommandOptions): Promise<number> {
  if (!isFeedUrl(o.url)) throw new CliError(`${o.url}: not an http, https or webcal URL`);
  const name = subscriptionName(o);
  await withRows(o, (rows) =>
    rows.save(
      name,
      o.url,
      { everyMinutes: o.every, categories: o.category, status: o.status, overwrite: o.overwrite === true, allowHosts: o.allowHost },
      'cli',
    ),
  );
  printLine(`${describeTarget(o.db)} (tables ${o.tablePrefix}*): subscribed to ${name}, read every ${o.every} min`);
  return 0;
}

/** `subscriptions list`: every subscription and what its runs did. */
export async function runSubscriptionsList(o: StoreOptions): Promise<number> {
  const now = new Date();
  const list = await withRows(o, async (rows) => (await rows.list()).map((row) => statusOf(row, now)));
  printLine(`${describeTarget(o.db)} (tables ${o.tablePrefix}*): ${list.length} subscription${list.length === 1 ? '' : 's'}`);
  for (const s of list) for (const line of statusLines(s)) printLine(line);
  return 0;
}

/** `subscriptions remove <name>`: stops following a feed (its events stay). */
export async function runSubscriptionsRemove(o: StoreOptions & { name: string }): Promise<number> {
  const removed = await withRows(o, (rows) => rows.remove(o.name));
  if (!removed) throw new CliError(`no subscription named ${JSON.stringify(o.name)}`);
  printLine(`${describeTarget(o.db)} (tables ${o.tablePrefix}*): removed ${o.name} (its events stay)`);
  return 0;
}

/** `subscriptions run [name]`: runs one subscription or all of them now, each unless a calendar instance is running it; exit status 1 when one failed. */
export async function runSubscriptionsRun(o: StoreOptions & { name?: string; timezone: string }): Promise<number> {
  const list = await withRows(o, async (_rows, conn) => {
    const calendar = createCalendar({ db: conn, tablePrefix: o.tablePrefix, timezone: o.timezone });
    try {
      return await calendar.subscriptions.run(o.name);
    } catch (e) {
      throw e instanceof RangeError ? new CliError(e.message) : e;
    } finally {
      await calendar.close();
    }
  });
  printLine(`${describeTarget(o.db)} (tables ${o.tablePrefix}*):`);
  for (const s of list) {
    for (const line of statusLines(s)) printLine(line);
    if (s.lastOutcome === 'imported' && s.lastReport) for (const line of feedReportLines(s.lastReport, 0).slice(0, -1)) printLine(`  ${line}`);
  }
  return list.some((s) => s.lastOutcome === 'failed') ? 1 : 0;
}
