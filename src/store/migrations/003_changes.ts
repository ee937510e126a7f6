import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { dialectOf } from '../dialects/index.js';
import type { MigrationContext } from './001_init.js';

/**
 * The change log behind the change feed and webhooks (`changes/log.ts`), its sequence row,
 * and the webhook endpoints' cursors. Writes made before this migration are not in the log.
 */
export async function up({ db, prefix }: MigrationContext): Promise<void> {
  const dialect = dialectOf(db);
  const t = (name: string) => prefix + name;
  await dialect
    .tableOptions(
      db.schema
        .createTable(t('changes'))
        .addColumn('seq', 'integer', (c) => c.primaryKey())
        .addColumn('kind', 'varchar(16)', (c) => c.notNull())
        .addColumn('item_id', 'integer', (c) => c.notNull())
        .addColumn('change_type', 'varchar(16)', (c) => c.notNull())
        .addColumn('at_utc', 'varchar(32)', (c) => c.notNull()),
    )
    .execute();
  await dialect
    .tableOptions(
      db.schema
        .createTable(t('change_sequence'))
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('last_seq', 'integer', (c) => c.notNull())
        .addColumn('pruned_through', 'integer', (c) => c.notNull())
        .addColumn('store_id', 'varchar(64)', (c) => c.notNull()),
    )
    .execute();
  await sql`insert into ${sql.table(t('change_sequence'))} (id, last_seq, pruned_through, store_id) values (1, 0, 0, ${randomUUID()})`.execute(db);
  await dialect
    .tableOptions(
      db.schema
        .createTable(t('webhook_cursors'))
        .addColumn('endpoint', 'varchar(190)', (c) => c.primaryKey())
        .addColumn('seq', 'integer', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('retry_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('lease_owner', 'varchar(64)', (c) => c.notNull())
        .addColumn('lease_until', 'varchar(32)', (c) => c.notNull())
        .addColumn('last_error', 'varchar(500)', (c) => c.notNull()),
    )
    .execute();
}

/** Drops the log and the cursors. */
export async function down({ db, prefix }: MigrationContext): Promise<void> {
  for (const name of ['webhook_cursors', 'change_sequence', 'changes'])
    await db.schema
      .dropTable(prefix + name)
      .ifExists()
      .execute();
}
