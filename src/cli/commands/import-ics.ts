import { readFile, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { createCalendar } from '../../calendar.js';
import { importUser, type FeedReport } from '../../feeds/apply.js';
import { FeedFetchError } from '../../feeds/fetch-feed.js';
import { importFeed, type FeedImport } from '../../feeds/import-feed.js';
import { NotICalendar } from '../../feeds/parse.js';
import { FeedTimeout } from '../../feeds/slices.js';
import { Store } from '../../resources/store.js';
import { describeTarget, isMissingSqliteFile, readyForImport, withDatabase } from '../database-target.js';
import { CliError } from '../failure.js';
import { printLine } from '../output.js';
import { startProgress, type Progress } from '../progress.js';
import type { StoreOptions } from '../store-options.js';

/** The options of `import-ics` (and what `subscribe` shares with it). */
export interface ImportIcsCommandOptions extends StoreOptions {
  source: string;
  dryRun?: boolean;
  /** `--category`, repeated: categories every event gets. */
  category: string[];
  status: 'publish' | 'draft';
  overwrite?: boolean;
  allowHost: string[];
  maxBytes: number;
  maxEvents: number;
  timeoutMs: number;
  /** The calendar's zone: floating times are read in it. */
  timezone: string;
  /** The user the events are written as (their author). */
  author: number;
}

/** Whether a source names a URL rather than a file. */
export const isUrl = (source: string) => /^(https?|webcals?):\/\//i.test(source);

/** The report's lines. */
export function feedReportLines(report: FeedReport, seconds: number): string[] {
  const lines: string[] = [];
  if (report.dryRun) lines.push('dry run: nothing was written; a run would give');
  lines.push(
    `events: ${report.created} created, ${report.updated} updated, ${report.unchanged} unchanged, ${report.trashed} trashed, ${report.cancelled} occurrences cancelled, ${report.leftAlone} left alone (edited here since), ${report.skipped.length} skipped`,
  );
  // Quoted as JSON: what a feed sends may hold line breaks and controls.
  for (const s of report.skipped) lines.push(`skipped ${JSON.stringify(s.uid.slice(0, 120))}: ${s.reason}`);
  for (const w of report.warnings) lines.push(`warning: ${w}`);
  lines.push(`${report.dryRun ? 'read' : 'imported'} ${report.feed}${report.name ? ` (${JSON.stringify(report.name)})` : ''} in ${seconds.toFixed(1)} s`);
  return lines;
}

/** A feed's text from a file, within the byte limit. */
async function readFeedFile(file: string, maxBytes: number): Promise<string> {
  try {
    const { size } = await stat(file);
    if (size > maxBytes) throw new CliError(`${file}: ${size} bytes, more than --max-bytes ${maxBytes}`);
    return await readFile(file, 'utf8');
  } catch (e) {
    if (e instanceof CliError) throw e;
    throw new CliError(`${file}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** A feed's failure as the user can act on it. */
export function feedFailure(e: unknown): unknown {
  return e instanceof FeedFetchError || e instanceof NotICalendar || e instanceof FeedTimeout || e instanceof RangeError ? new CliError(e.message) : e;
}

/**
 * `import-ics <url|file>`: imports an iCalendar feed or file into the store once (migrating it
 * first), with a progress bar and a report; run it again to update.
 */
export async function runImportIcs(o: ImportIcsCommandOptions): Promise<number> {
  if (o.dryRun && isMissingSqliteFile(o.db))
    throw new CliError(`${describeTarget(o.db)}: no such store; a dry run reads a migrated store (run \`calendar-events-rest migrate\` first)`);
  const source = isUrl(o.source) ? { url: o.source } : { file: resolve(o.source), text: await readFeedFile(o.source, o.maxBytes) };
  let bar: Progress | undefined;
  const done: FeedImport = await withDatabase(o.db, async (conn) => {
    await readyForImport(conn, o);
    const calendar = createCalendar({ db: conn, tablePrefix: o.tablePrefix, timezone: o.timezone });
    try {
      return await importFeed({
        source,
        store: Store.open(conn, o.tablePrefix),
        call: calendar.call,
        user: importUser(o.author),
        siteZone: calendar.options.timezone,
        status: o.status,
        categories: o.category,
        overwrite: o.overwrite,
        dryRun: o.dryRun,
        allowHosts: o.allowHost,
        maxBytes: o.maxBytes,
        maxEvents: o.maxEvents,
        timeoutMs: o.timeoutMs,
        onProgress: (n, total) => {
          bar ??= startProgress(total, 'events');
          if (n % 50 === 0 || n === total) bar.update(n);
        },
      }).catch((e: unknown) => {
        throw feedFailure(e);
      });
    } finally {
      bar?.stop();
      await calendar.close();
    }
  });
  printLine(`${describeTarget(o.db)} (tables ${o.tablePrefix}*):`);
  if (!done.report) printLine('the feed has not changed since it was last read');
  else for (const line of feedReportLines(done.report, done.seconds)) printLine(line);
  return 0;
}
