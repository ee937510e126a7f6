import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { createCalendar, type CalendarOptions } from '../../src/index.js';
import { ImportMap, sourceKey } from '../../src/import/map.js';
import { prepareRun, type ImportCalendarOptions } from '../../src/import/import-calendar.js';
import type { ImportRun } from '../../src/import/run.js';
import { connectDatabase } from '../../src/store/connect.js';
import { Store } from '../../src/resources/store.js';
import { migrateStore } from '../../src/store/index.js';
import { requester, type TestCalendar } from '../helpers/harness.js';
import type { HttpCalendar } from '../helpers/http.js';

/** A fresh store on `url` to import into, a calendar over it, and import runs from `source`. */
export interface ImportTarget {
  /** The target's database and table prefix, as `importSite` takes them. */
  raw: Kysely<unknown>;
  prefix: string;
  store: Store;
  map: ImportMap;
  /** A run from the source into the store (images not copied unless asked), its post archives asked with `query`. */
  run(options?: Partial<ImportCalendarOptions>, query?: Record<string, string>): ImportRun;
  /** Requests to the target calendar. */
  request: TestCalendar['request'];
  close(): Promise<void>;
}

/** A migrated store with its own prefix on `url`, the record of imports from `source`, and a client reading it. */
export async function importTarget(
  url: string,
  source: HttpCalendar,
  client: Omit<ImportCalendarOptions, 'root'> = {},
  options: Partial<CalendarOptions> = {},
): Promise<ImportTarget> {
  const raw: Kysely<unknown> = await connectDatabase(url);
  const prefix = `imp${randomBytes(3).toString('hex')}_`;
  await migrateStore(raw, prefix);
  const store = Store.open(raw, prefix);
  const target = createCalendar({ db: raw, tablePrefix: prefix, baseUrl: 'http://example.org', ...options });
  const root = `${source.origin}/wp-json`;
  return {
    raw,
    prefix,
    store,
    map: new ImportMap(store.db, sourceKey(root, 'tribe/events/v1')),
    run(more = {}, query = {}) {
      const { run } = prepareRun(store, { root, images: false, ...client, ...more });
      run.query = query;
      return run;
    },
    request: requester(target),
    async close() {
      await target.uninstall().catch(() => undefined);
      await raw.destroy();
    },
  };
}
