import { readFileSync } from 'node:fs';
import { InvalidArgumentError } from 'commander';
import { DateTime } from 'luxon';
import { importCalendar, type ImportReport } from '../../import/import-calendar.js';
import type { ImportedKind } from '../../store/database.js';
import { Store } from '../../resources/store.js';
import { migrateToLatest, migrationStatus } from '../../store/migrate.js';
import { parseAllowedHost } from '../../images/allowed-hosts.js';
import { describeTarget, isMissingSqliteFile, withDatabase } from '../database-target.js';
import { CliError } from '../failure.js';
import { printLine, printNote } from '../output.js';
import { discoverSource, ORIGINAL_NAMESPACE } from '../../import/discover.js';
import { SourceError } from '../../import/source.js';
import { startProgress, type Progress } from '../progress.js';
import type { StoreOptions } from '../store-options.js';

/** The options of `import`. */
export interface ImportCommandOptions extends StoreOptions {
  source: string;
  /** `--namespace`; absent: found in the source's REST index. */
  namespace?: string;
  user?: string;
  password?: string;
  auth?: string;
  authors?: string;
  fallbackAuthor: number;
  concurrency: number;
  rate: number;
  dryRun?: boolean;
  since?: Date;
  keepIds?: boolean;
  /** `false` with `--no-images`. */
  images: boolean;
  imageHosts?: string[];
  /** `--allow-host`, repeated: hosts the source may redirect to or serve images from whatever their address. */
  allowHost: string[];
  /** `--max-page-bytes`: the largest answer of the source read. */
  maxPageBytes: number;
  /** `--keep-html`: the source's HTML kept as an administrator's write keeps it. */
  keepHtml?: boolean;
}

/** A `--since` date: ISO 8601, in UTC unless it names an offset (`2026-01-01`, `2026-01-01T09:00+01:00`). */
export function parseSince(value: string): Date {
  const date = DateTime.fromISO(value.trim(), { zone: 'utc', setZone: true });
  if (!date.isValid) throw new InvalidArgumentError('It must be an ISO 8601 date or time, such as 2026-01-01 or 2026-01-01T09:00:00+01:00.');
  return date.toJSDate();
}

/** A comma-separated list of hosts (`host` or `host:port`). */
export function parseHosts(value: string): string[] {
  return value
    .split(',')
    .map((h) => h.trim())
    .filter(Boolean);
}

/** One `--allow-host` (`host` or `host:port`), added to those given before. */
export function collectHost(value: string, previous: string[]): string[] {
  if (!parseAllowedHost(value)) throw new InvalidArgumentError('It must be a host or host:port, such as intranet.example or 10.0.0.5:8080.');
  return [...previous, value];
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
  if (o.auth !== undefined && (o.user !== undefined || o.password !== undefined))
    throw new CliError('--auth and --user/--password name the credentials twice: give one of them.');
  if (o.auth !== undefined) return o.auth;
  if ((o.user === undefined) !== (o.password === undefined)) throw new CliError('--user and --password go together (an application password of that user).');
  return o.user !== undefined ? `Basic ${Buffer.from(`${o.user}:${o.password}`).toString('base64')}` : undefined;
}

const NOUNS: Record<ImportedKind, string> = { category: 'categories', tag: 'tags', venue: 'venues', organizer: 'organizers', event: 'events', image: 'images' };

/** The report's lines: counts per kind, then what was left out and why, what the write rules changed, then the warnings. */
export function reportLines(report: ImportReport, since?: Date): string[] {
  const lines: string[] = [];
  const kinds = Object.entries(report.kinds) as [ImportedKind, ImportReport['kinds'][ImportedKind]][];
  if (report.dryRun) lines.push('dry run: nothing was written; a run would give');
  for (const [kind, r] of kinds) {
    if (kind === 'image') {
      // Images come with their items: side-loaded, found here already, or left out (the item is imported without it).
      if (!report.dryRun) lines.push(`images: ${r.created} side-loaded, ${r.unchanged} already here, ${r.skipped.length} not side-loaded`);
      continue;
    }
    const older = since !== undefined && kind !== 'category' && kind !== 'tag' ? `, ${r.older} older than --since` : '';
    const unread = r.unreadPages.length ? `, ${r.unreadPages.length} page${r.unreadPages.length > 1 ? 's' : ''} unread` : '';
    lines.push(`${NOUNS[kind]}: ${r.created} created, ${r.updated} updated, ${r.unchanged} unchanged${older}, ${r.skipped.length} skipped${unread}`);
  }
  for (const [kind, r] of kinds) {
    for (const s of r.skipped) lines.push(kind === 'image' ? `image not side-loaded: ${s.reason}` : `skipped ${kind} ${s.sourceId ?? '(no id)'}: ${s.reason}`);
    for (const p of r.unreadPages) lines.push(`unread ${NOUNS[kind]} ${p}: left for the next run`);
    // Quoted as JSON: what a source sends may hold line breaks and controls.
    for (const a of r.altered) lines.push(`altered ${kind} ${a.sourceId} ${a.field}: ${JSON.stringify(a.from)} → ${JSON.stringify(a.to)}`);
    for (const w of r.warnings) lines.push(`warning (${NOUNS[kind]}): ${w}`);
  }
  lines.push(`${report.dryRun ? 'read' : 'imported'} from ${report.source} in ${report.seconds.toFixed(1)} s`);
  return lines;
}

/**
 * `import`: finds the source's events API, then copies its calendar into the store (migrating
 * it first), with a progress report per kind.
 */
export async function runImport(o: ImportCommandOptions): Promise<number> {
  const authors = o.authors !== undefined ? readAuthors(o.authors) : undefined;
  const header = authorization(o);
  const bars = new Map<ImportedKind, Progress>();
  // A dry run writes nothing, not even tables: it needs a store that exists and is up to date.
  if (o.dryRun && isMissingSqliteFile(o.db))
    throw new CliError(`${describeTarget(o.db)}: no such store; a dry run reads a migrated store (run \`calendar-events-rest migrate\` first)`);
  const site = await discoverSource({
    root: o.source,
    namespace: o.namespace,
    authorization: header,
    allowHosts: o.allowHost,
    maxPageBytes: o.maxPageBytes,
  }).catch((e: unknown) => {
    if (e instanceof RangeError || e instanceof SourceError) throw new CliError(e.message);
    throw e;
  });
  // Said when it is not the original's, which the user may not have expected.
  if (site.detected && site.namespace !== ORIGINAL_NAMESPACE)
    printNote(`reading ${o.source.replace(/\/+$/, '')}/${site.namespace} (the events API its index lists; --namespace to choose)`);
  const report = await withDatabase(o.db, async (conn) => {
    if (o.dryRun) {
      const { pending } = await migrationStatus(conn, o.tablePrefix);
      if (pending.length)
        throw new CliError(
          `${describeTarget(o.db)} (tables ${o.tablePrefix}*): ${pending.length} migrations pending; a dry run reads a migrated store (run \`calendar-events-rest migrate\` first)`,
        );
    } else {
      for (const name of await migrateToLatest(conn, o.tablePrefix)) printLine(`applied ${name}`);
    }
    try {
      return await importCalendar(
        Store.open(conn, o.tablePrefix),
        {
          dryRun: o.dryRun,
          since: o.since,
          keepIds: o.keepIds,
          images: o.images ? { hosts: o.imageHosts ?? parseHosts(process.env.CALENDAR_IMAGE_HOSTS ?? '') } : false,
          root: o.source,
          namespace: o.namespace,
          authorization: header,
          concurrency: o.concurrency,
          requestsPerSecond: o.rate,
          allowHosts: o.allowHost,
          maxPageBytes: o.maxPageBytes,
          keepHtml: o.keepHtml,
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
        },
        site,
      );
    } catch (e) {
      if (e instanceof RangeError) throw new CliError(e.message);
      throw e;
    } finally {
      for (const bar of bars.values()) bar.stop();
    }
  });
  printLine(`${describeTarget(o.db)} (tables ${o.tablePrefix}*):`);
  for (const line of reportLines(report, o.since)) printLine(line);
  return 0;
}
