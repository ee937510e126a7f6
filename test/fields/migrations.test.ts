// Field values and the library's migrations (issue 32): a store made before fields existed
// (migrations up to 006) is migrated forward by a calendar that declares fields; values written
// then survive a further migrate and are read back by another calendar instance on the same tables.
import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createCalendar, field } from '../../src/index.js';
import { connectDatabase } from '../../src/store/connect.js';
import { MIGRATIONS, createLedger, dropStore, migrationStatus, recordMigration } from '../../src/store/migrate.js';
import { DIALECTS, requester } from '../helpers/harness.js';

const FIELDS = { events: { capacity: field({ type: z.number().int(), filterable: true }) }, venues: { wheelchair_access: field({ type: z.boolean() }) } };

describe.each(DIALECTS)('field values across migrations on $name', ({ name, url }) => {
  const dir = mkdtempSync(join(tmpdir(), 'calendar-fields-migrate-'));
  const db = name === 'sqlite' ? join(dir, 'calendar.sqlite') : url;
  const prefix = `m${randomBytes(4).toString('hex')}_`;
  afterAll(async () => {
    const raw = await connectDatabase(db);
    await dropStore(raw, prefix);
    await raw.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('are written after the upgrade that adds them, and read back after migrating again', async () => {
    // The store as the release before fields left it.
    const raw = await connectDatabase(db);
    await createLedger(raw, `${prefix}migrations`);
    for (const [migration, { up }] of MIGRATIONS.filter(([n]) => n < '007')) {
      await up({ db: raw, prefix });
      await recordMigration(raw, `${prefix}migrations`, migration);
    }
    expect((await migrationStatus(raw, prefix)).pending).toEqual(MIGRATIONS.map(([n]) => n).filter((n) => n >= '007'));
    await raw.destroy();

    const first = createCalendar({ db, tablePrefix: prefix, fields: FIELDS });
    await first.migrate();
    const made = await requester(first)('POST', '/events', {
      as: 'admin',
      json: {
        title: 'Upgraded',
        status: 'publish',
        start_date: '2027-02-01 10:00:00',
        end_date: '2027-02-01 12:00:00',
        capacity: 40,
        venue: { venue: 'Old hall', wheelchair_access: false },
      },
    });
    expect(made.status, made.text).toBe(201);
    await first.migrate();
    await first.close();

    const second = createCalendar({ db, tablePrefix: prefix, fields: FIELDS });
    await second.migrate();
    const read = await requester(second)('GET', `/events/${made.body.id}`);
    expect(read.body).toMatchObject({ capacity: 40, venue: { venue: 'Old hall', wheelchair_access: false } });
    const filtered = await requester(second)('GET', '/events', { query: { capacity: '40', start_date: '2027-02-01', end_date: '2027-02-02' } });
    expect(filtered.body.total).toBe(1);
    await second.close();
  }, 60_000);
});
