import { dialectOf } from '../dialects/index.js';
import type { MigrationContext } from './001_init.js';

/**
 * iCalendar and CSV imports and the subscriptions that repeat them (`feeds/`, `subscriptions/`).
 * `feed_items` is what each entry of a feed became (its key: a hash of UID and RECURRENCE-ID,
 * which are texts of any length, where `imported_items` keys numeric source ids), with a digest
 * of what was written and the event's modification date after the write, so that a run again
 * leaves unchanged entries alone and sees events edited through the API since. `subscriptions`
 * holds one row per feed followed: its settings, the validators of its last fetch, the lease of
 * the instance running it, and what its last run did.
 */
export async function up({ db, prefix }: MigrationContext): Promise<void> {
  const dialect = dialectOf(db);
  const t = (name: string) => prefix + name;
  await dialect
    .tableOptions(
      db.schema
        .createTable(t('feed_items'))
        .addColumn('feed', 'varchar(190)', (c) => c.notNull())
        .addColumn('item_key', 'varchar(64)', (c) => c.notNull())
        .addColumn('uid', 'text', (c) => c.notNull())
        .addColumn('recurrence_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('kind', 'varchar(16)', (c) => c.notNull())
        .addColumn('item_id', 'integer', (c) => c.notNull())
        .addColumn('digest', 'varchar(64)', (c) => c.notNull())
        .addColumn('written_modified', 'varchar(32)', (c) => c.notNull())
        .addColumn('imported_at', 'varchar(32)', (c) => c.notNull())
        .addPrimaryKeyConstraint(t('feed_items_pk'), ['feed', 'item_key']),
    )
    .execute();
  await db.schema.createIndex(t('feed_items_item')).on(t('feed_items')).columns(['kind', 'item_id']).execute();
  await dialect
    .tableOptions(
      db.schema
        .createTable(t('subscriptions'))
        .addColumn('name', 'varchar(190)', (c) => c.primaryKey())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('settings', 'text', (c) => c.notNull())
        .addColumn('origin', 'varchar(16)', (c) => c.notNull())
        .addColumn('etag', 'varchar(255)', (c) => c.notNull())
        .addColumn('last_modified', 'varchar(64)', (c) => c.notNull())
        .addColumn('next_run_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('lease_owner', 'varchar(64)', (c) => c.notNull())
        .addColumn('lease_until', 'varchar(32)', (c) => c.notNull())
        .addColumn('last_run_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('last_outcome', 'varchar(16)', (c) => c.notNull())
        .addColumn('last_error', 'text', (c) => c.notNull())
        .addColumn('last_report', 'text', (c) => c.notNull())
        .addColumn('runs', 'integer', (c) => c.notNull())
        .addColumn('not_modified', 'integer', (c) => c.notNull())
        .addColumn('failures', 'integer', (c) => c.notNull()),
    )
    .execute();
}

/** Drops the records of feeds and the subscriptions. */
export async function down({ db, prefix }: MigrationContext): Promise<void> {
  await db.schema.dropTable(`${prefix}subscriptions`).ifExists().execute();
  await db.schema.dropTable(`${prefix}feed_items`).ifExists().execute();
}
