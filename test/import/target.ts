import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { createCalendar, type CalendarOptions } from '../../src/index.js';
import { ImportMap, sourceKey } from '../../src/import/map.js';
import { Source, type SourceOptions } from '../../src/import/source.js';
import { connectDatabase } from '../../src/store/connect.js';
import { Store, migrateStore } from '../../src/store/index.js';
import { requester, type TestCalendar } from '../helpers/harness.js';
import type { HttpCalendar } from '../helpers/http.js';

/** A fresh store on `url` to import into, a calendar over it, and a client of `source`. */
export interface ImportTarget {
  store: Store;
  map: ImportMap;
  client: Source;
  /** Requests to the target calendar. */
  request: TestCalendar['request'];
  close(): Promise<void>;
}

/** A migrated store with its own prefix on `url`, the record of imports from `source`, and a client reading it. */
export async function importTarget(url: string, source: HttpCalendar, client: Omit<SourceOptions, 'root'> = {}, options: Partial<CalendarOptions> = {}): Promise<ImportTarget> {
  const raw: Kysely<unknown> = await connectDatabase(url);
  const prefix = `imp${randomBytes(3).toString('hex')}_`;
  await migrateStore(raw, prefix);
  const store = Store.open(raw, prefix);
  const target = createCalendar({ db: raw, tablePrefix: prefix, baseUrl: 'http://example.org', ...options });
  const root = `${source.origin}/wp-json`;
  return {
    store,
    map: new ImportMap(store.db, sourceKey(root, 'tribe/events/v1')),
    client: new Source({ root, ...client }),
    request: requester(target),
    async close() {
      await target.uninstall().catch(() => undefined);
      await raw.destroy();
    },
  };
}
