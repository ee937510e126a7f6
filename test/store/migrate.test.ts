/**
 * Several instances starting at once on one fresh database: each migrates, none fails,
 * and every migration is applied exactly once.
 */
import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { connectDatabase } from '../../src/store/connect.js';
import { dropStore, migrateToLatest } from '../../src/store/migrate.js';
import { DIALECTS } from '../helpers/harness.js';

const INSTANCES = 6;

// The database servers only: SQLite's driver waits for a lock synchronously, so instances
// sharing one process (as here) would block each other; its writers are serial anyway.
const SERVERS = DIALECTS.filter((d) => d.name !== 'sqlite');

describe.skipIf(SERVERS.length === 0)('migrations started by several instances at once', () => {
  it.each(SERVERS)('on $name: all succeed and apply each migration once', { timeout: 120_000 }, async ({ url }) => {
    const prefix = `m${randomBytes(4).toString('hex')}_`;
    const instances: Kysely<unknown>[] = [];
    for (let i = 0; i < INSTANCES; i++) instances.push(await connectDatabase(url));
    try {
      const results = await Promise.allSettled(instances.map((db) => migrateToLatest(db, prefix)));
      const failures = results.flatMap((r) => (r.status === 'rejected' ? [String(r.reason)] : []));
      expect(failures).toEqual([]);
      const applied = results.flatMap((r) => (r.status === 'fulfilled' ? r.value : []));
      const ledger = await sql<{ name: string }>`select name from ${sql.table(`${prefix}migrations`)} order by name`.execute(instances[0]!);
      expect(applied.sort()).toEqual(ledger.rows.map((r) => r.name));
      expect(ledger.rows.length).toBeGreaterThan(0);
    } finally {
      await dropStore(instances[0]!, prefix);
      await Promise.all(instances.map((db) => db.destroy()));
    }
  });
});
