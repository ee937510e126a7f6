// Migration 008 on a store made before it (issue 34): venues that had coordinates already
// (columns since 001) are found by the distance filter once the store is migrated, on every
// database, and a second migrate changes nothing.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { createCalendar } from '../../src/index.js';
import { connectDatabase } from '../../src/store/connect.js';
import { TABLES, type Database } from '../../src/store/database.js';
import { MIGRATIONS, createLedger, dropStore, migrationStatus, recordMigration } from '../../src/store/migrate.js';
import { TablePrefixPlugin } from '../../src/store/table-prefix.js';
import { DIALECTS, requester } from '../helpers/harness.js';
import { seedVenues } from './seed.js';

describe.each(DIALECTS)('migration 008 on a store with venues on $name', ({ name, url }) => {
  const dir = mkdtempSync(join(tmpdir(), 'calendar-geo-migrate-'));
  const db = name === 'sqlite' ? join(dir, 'calendar.sqlite') : url;
  const prefix = `g${randomBytes(4).toString('hex')}_`;
  afterAll(async () => {
    const raw = await connectDatabase(db);
    await dropStore(raw, prefix);
    await raw.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('finds the venues stored before it by distance', async () => {
    const raw = await connectDatabase(db);
    await createLedger(raw, `${prefix}migrations`);
    for (const [migration, { up }] of MIGRATIONS.filter(([n]) => n < '008')) {
      await up({ db: raw, prefix });
      await recordMigration(raw, `${prefix}migrations`, migration);
    }
    const tables = raw.withPlugin(new TablePrefixPlugin(prefix, TABLES)) as unknown as Kysely<Database>;
    const [near, far] = await seedVenues(
      tables,
      raw,
      prefix,
      [
        { lat: 48.8566, lng: 2.3522 },
        { lat: 51.5072, lng: -0.1276 },
      ],
      100,
    );
    expect((await migrationStatus(raw, prefix)).pending[0]).toBe('008_venue_geo');
    await raw.destroy();

    const calendar = createCalendar({ db, tablePrefix: prefix });
    await calendar.migrate();
    await calendar.migrate();
    expect((await calendar.migrationStatus()).pending).toEqual([]);
    const query = { start_date: '2027-01-01', end_date: '2027-12-31', geoloc: 1, geoloc_lat: 48.86, geoloc_lng: 2.35, geoloc_radius: 50 };
    const events = await requester(calendar)('GET', '/events', { query });
    expect(events.body.events.map((e: { id: number }) => e.id)).toEqual([near?.eventId]);
    const venues = await requester(calendar)('GET', '/venues', { query: { ...query, geoloc_radius: 400 } });
    expect(venues.body.venues.map((v: { id: number }) => v.id).sort()).toEqual([near?.id, far?.id].sort());
    await calendar.close();
  }, 60_000);
});
