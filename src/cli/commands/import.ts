import { readFileSync } from 'node:fs';
import { InvalidArgumentError } from 'commander';
import { importCalendar, type ImportReport } from '../../import/import-calendar.js';
import type { ImportedKind } from '../../store/database.js';
import { Store } from '../../store/index.js';
import { migrateToLatest } from '../../store/migrate.js';
import { describeTarget, withDatabase } from '../database-target.js';
import { CliError } from '../failure.js';
import { printLine } from '../output.js';
import { startProgress, type Progress } from '../progress.js';
import type { StoreOptions } from '../store-options.js';

/** The options of `import`. */
export interface ImportCommandOptions extends StoreOptions {
  source: string;
  namespace: string;
  user?: string;
  password?: string;
  auth?: string;
  authors?: string;
  fallbackAuthor: number;
  concurrency: number;
  rate: number;
}

/** A positive whole number option. */
export function parsePositive(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < 1) throw new InvalidArgumentError('It must be a whole number, 1 or more.');
  return n;
}

/** A user id option (0: nobody). */
export function parseUserId(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n)) throw new InvalidArgumentError('It must be a user id (a whole number).');
  return n;
}

/** The `--authors` file: `{ "<source author id>": <user id here>, … }`. */
function readAuthors(file: string): Record<string, number> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new CliError(`--authors ${file}: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed) || !Object.values(parsed).every((v) => Number.isSafeInteger(v))) {
    throw new CliError(`--authors ${file}: expected an object of source author ids to user ids, such as {"3": 12}`);
  }
  return parsed as Record<string, number>;
}

/** The `Authorization` header of the options: `--auth` as given, or Basic credentials of `--user` and `--password`. */
function authorization(o: ImportCommandOptions): string | undefined {
  if (o.auth !== undefined && (o.user !== undefined || o.password !== undefined)) throw new CliError('--auth and --user/--password name the credentials twice: give one of them.');
  if (o.auth !== undefined) return o.auth;
  if ((o.user === undefined) !== (o.password === undefined)) throw new CliError('--user and --password go together (an application password of that user).');
  return o.user !== undefined ? `Basic ${Buffer.from(`${o.user}:${o.password}`).toString('base64')}` : undefined;
}

const NOUNS: Record<ImportedKind, string> = { category: 'categories', tag: 'tags', venue: 'venues', organizer: 'organizers', event: 'events' };

/** The report's lines: counts per kind, then what was left out and why, then the warnings. */
export function reportLines(report: ImportReport): string[] {
  const lines: string[] = [];
  for (const [kind, r] of Object.entries(report.kinds) as [ImportedKind, ImportReport['kinds'][ImportedKind]][]) {
    lines.push(`${NOUNS[kind]}: ${r.created} created, ${r.updated} updated, ${r.unchanged} unchanged, ${r.skipped.length} skipped`);
  }
  for (const [kind, r] of Object.entries(report.kinds) as [ImportedKind, ImportReport['kinds'][ImportedKind]][]) {
    for (const s of r.skipped) lines.push(`skipped ${kind} ${s.sourceId ?? '(no id)'}: ${s.reason}`);
    for (const w of r.warnings) lines.push(`warning (${NOUNS[kind]}): ${w}`);
  }
  lines.push(`imported from ${report.source} in ${report.seconds.toFixed(1)} s`);
  return lines;
}

/** `import`: copies a live site's calendar into the store (migrating it first), with a progress report per kind. */
export async function runImport(o: ImportCommandOptions): Promise<number> {
  const authors = o.authors !== undefined ? readAuthors(o.authors) : undefined;
  const header = authorization(o);
  const bars = new Map<ImportedKind, Progress>();
  const report = await withDatabase(o.db, async (conn) => {
    for (const name of await migrateToLatest(conn, o.tablePrefix)) printLine(`applied ${name}`);
    try {
      return await importCalendar(Store.open(conn, o.tablePrefix), {
        root: o.source,
        namespace: o.namespace,
        authorization: header,
        concurrency: o.concurrency,
        requestsPerSecond: o.rate,
        authors,
        fallbackAuthor: o.fallbackAuthor,
        onProgress: (kind, done, total) => {
          // A page at a time (50 items), and the end: terms report each item.
          if (done % 50 !== 0 && done !== total) return;
          let bar = bars.get(kind);
          if (!bar) {
            bar = startProgress(total, NOUNS[kind]);
            bars.set(kind, bar);
          }
          bar.update(done);
        },
      });
    } catch (e) {
      if (e instanceof RangeError) throw new CliError(e.message);
      throw e;
    } finally {
      for (const bar of bars.values()) bar.stop();
    }
  });
  printLine(`${describeTarget(o.db)} (tables ${o.tablePrefix}*):`);
  for (const line of reportLines(report)) printLine(line);
  return 0;
}
