/**
 * A CSV file of events imported through the calendar's API (`calendar-events-rest import-csv`):
 * UTF-8 with or without a BOM, comma or semicolon found from its header row, parsed by
 * csv-parse record by record (the event loop given a turn between slices), each row an event
 * (`row.ts`) written as a feed's entries are (`feeds/apply.ts`): a file imported again updates
 * its rows' events and trashes those of rows it no longer has.
 */
import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { FeedApplier, type ApiCall, type FeedReport } from '../../feeds/apply.js';
import type { FeedEntry } from '../../feeds/map-event.js';
import { feedKey } from '../../feeds/records.js';
import { sliceClock, yieldIfLate } from '../../feeds/slices.js';
import { FeedZones } from '../../feeds/tzid.js';
import type { User } from '../../auth/capabilities.js';
import type { Store } from '../../resources/store.js';
import { columnKeys, detectDelimiter, type CsvKey } from './columns.js';
import { dateReader } from './dates.js';
import { rowEntry, type CsvRow } from './row.js';

/** What to import and how. */
export interface CsvImportOptions {
  /** The file's path (its key in the record) and text. */
  file: string;
  text: string;
  store: Store;
  call: ApiCall;
  user: User;
  siteZone: string;
  /** Headers mapped to column keys (`--map`). */
  mapping?: ReadonlyMap<string, CsvKey>;
  /** The dates' format (default `Y-m-d`). */
  dateFormat?: string;
  status?: 'publish' | 'draft';
  categories?: readonly string[];
  overwrite?: boolean;
  dryRun?: boolean;
  /** Most rows read (default 5000): past them, nothing is trashed. */
  maxRows?: number;
  /** Time limit of the whole import, in milliseconds (default 10 minutes). */
  runTimeoutMs?: number;
  onProgress?: (done: number, total: number) => void;
}

/** The largest record (characters) the parser takes: a row of a runaway quote is refused, not read to the end of the file. */
const MAX_RECORD = 1024 * 1024;

/** Imports a CSV file's events; rejects with a RangeError for a bad format or a file without the columns needed. */
export async function importCsv(o: CsvImportOptions): Promise<FeedReport> {
  const readDate = dateReader(o.dateFormat ?? 'Y-m-d');
  if (typeof readDate === 'string') throw new RangeError(`--date-format ${readDate}`);
  const clock = sliceClock(o.runTimeoutMs ?? 600_000);
  const maxRows = o.maxRows ?? 5000;
  const text = o.text.replace(/^\uFEFF/, '');
  const parser = Readable.from([text]).pipe(
    parse({ delimiter: detectDelimiter(text), relax_column_count: true, skip_empty_lines: true, max_record_size: MAX_RECORD }),
  );
  let keys: (CsvKey | undefined)[] | undefined;
  const entries: FeedEntry[] = [];
  const skipped: FeedReport['skipped'] = [];
  const warnings: string[] = [];
  let line = 1;
  let leftOut = 0;
  for await (const record of parser as AsyncIterable<string[]>) {
    await yieldIfLate(clock);
    if (!keys) {
      const columns = columnKeys(record, o.mapping ?? new Map());
      keys = columns.keys;
      if (!keys.includes('event_name') || !keys.includes('event_start_date'))
        throw new RangeError('the file has no event_name or event_start_date column (name them so in its header row, or map its headers with --map)');
      if (columns.unread.length) warnings.push(`columns not read: ${columns.unread.map((h) => JSON.stringify(h.slice(0, 60))).join(', ')}`);
      continue;
    }
    line++;
    if (entries.length >= maxRows) {
      leftOut++;
      continue;
    }
    const row: CsvRow = {};
    keys.forEach((key, i) => {
      if (key && record[i] !== undefined) row[key] = record[i];
    });
    const entry = rowEntry(row, readDate);
    if (typeof entry === 'string') skipped.push({ uid: `line ${line}`, reason: entry });
    else entries.push(entry);
  }
  if (!keys) throw new RangeError('the file is empty: it needs a header row');
  const applier = new FeedApplier(
    {
      store: o.store,
      call: o.call,
      user: o.user,
      feed: feedKey(o.file),
      status: o.status ?? 'publish',
      categories: o.categories ?? [],
      overwrite: o.overwrite ?? false,
      dryRun: o.dryRun ?? false,
      complete: leftOut === 0 && skipped.length === 0,
      clock,
      onProgress: o.onProgress,
    },
    { zones: new FeedZones(new Map(), clock), siteZone: o.siteZone },
  );
  const report = await applier.applyEntries(entries);
  report.skipped.unshift(...skipped);
  report.warnings.unshift(...warnings, ...(leftOut ? [`${leftOut} rows past the first ${maxRows} were not read`] : []));
  return report;
}
