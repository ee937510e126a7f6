import { readFile, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { InvalidArgumentError } from 'commander';
import { createCalendar } from '../../calendar.js';
import { importUser } from '../../feeds/apply.js';
import { FeedTimeout } from '../../feeds/slices.js';
import { parseMapping, type CsvKey } from '../../import/csv/columns.js';
import { importCsv } from '../../import/csv/import-csv.js';
import { Store } from '../../resources/store.js';
import { describeTarget, isMissingSqliteFile, readyForImport, withDatabase } from '../database-target.js';
import { CliError } from '../failure.js';
import { printLine } from '../output.js';
import { startProgress, type Progress } from '../progress.js';
import type { StoreOptions } from '../store-options.js';
import { feedReportLines } from './import-ics.js';

/** The options of `import-csv`. */
export interface ImportCsvCommandOptions extends StoreOptions {
  file: string;
  /** `--map 'Header=key'`, repeated. */
  map: [string, CsvKey][];
  dateFormat: string;
  dryRun?: boolean;
  category: string[];
  status: 'publish' | 'draft';
  overwrite?: boolean;
  maxBytes: number;
  maxRows: number;
  timezone: string;
  author: number;
}

/** One `--map 'Header=key'`, added to those given before. */
export function collectMapping(value: string, previous: [string, CsvKey][]): [string, CsvKey][] {
  const parsed = parseMapping(value);
  if (typeof parsed === 'string') throw new InvalidArgumentError(`${parsed}.`);
  return [...previous, parsed];
}

/** `import-csv <file>`: imports a CSV file of events once (migrating the store first), with a progress bar and a report. */
export async function runImportCsv(o: ImportCsvCommandOptions): Promise<number> {
  if (o.dryRun && isMissingSqliteFile(o.db))
    throw new CliError(`${describeTarget(o.db)}: no such store; a dry run reads a migrated store (run \`calendar-events-rest migrate\` first)`);
  let text: string;
  try {
    const { size } = await stat(o.file);
    if (size > o.maxBytes) throw new CliError(`${o.file}: ${size} bytes, more than --max-bytes ${o.maxBytes}`);
    text = await readFile(o.file, 'utf8');
  } catch (e) {
    throw e instanceof CliError ? e : new CliError(`${o.file}: ${e instanceof Error ? e.message : String(e)}`);
  }
  const started = performance.now();
  let bar: Progress | undefined;
  const report = await withDatabase(o.db, async (conn) => {
    await readyForImport(conn, o);
    const calendar = createCalendar({ db: conn, tablePrefix: o.tablePrefix, timezone: o.timezone });
    try {
      return await importCsv({
        file: resolve(o.file),
        text,
        store: Store.open(conn, o.tablePrefix),
        call: calendar.call,
        user: importUser(o.author),
        siteZone: calendar.options.timezone,
        mapping: new Map(o.map),
        dateFormat: o.dateFormat,
        status: o.status,
        categories: o.category,
        overwrite: o.overwrite,
        dryRun: o.dryRun,
        maxRows: o.maxRows,
        onProgress: (n, total) => {
          bar ??= startProgress(total, 'events');
          if (n % 50 === 0 || n === total) bar.update(n);
        },
      });
    } catch (e) {
      throw e instanceof RangeError || e instanceof FeedTimeout ? new CliError(`${o.file}: ${e.message}`) : e;
    } finally {
      bar?.stop();
      await calendar.close();
    }
  });
  printLine(`${describeTarget(o.db)} (tables ${o.tablePrefix}*):`);
  for (const line of feedReportLines(report, (performance.now() - started) / 1000)) printLine(line);
  return 0;
}
