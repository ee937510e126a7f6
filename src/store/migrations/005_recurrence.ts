import { sql } from 'kysely';
import { dialectOf } from '../dialects/index.js';
import type { MigrationContext } from './001_init.js';

/**
 * Recurring events (`recurrence/`): which events are series or overrides of one occurrence
 * (`events.series_id`), each series' rules and how far its occurrences are indexed (`series`),
 * the occurrence index the archive lists (`occurrences`) with its id counter, and the scope of
 * a change to one (`changes.scope`).
 */
export async function up({ db, prefix }: MigrationContext): Promise<void> {
  const dialect = dialectOf(db);
  const t = (name: string) => prefix + name;
  const date = 'varchar(19)';
  await db.schema.alterTable(t('events')).addColumn('series_id', 'integer').execute();
  await db.schema.alterTable(t('changes')).addColumn('scope', 'varchar(16)').execute();
  await dialect
    .tableOptions(
      db.schema
        .createTable(t('series'))
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('rules', 'text', (c) => c.notNull())
        .addColumn('indexed_until', date, (c) => c.notNull())
        .addColumn('complete', 'smallint', (c) => c.notNull().defaultTo(0)),
    )
    .execute();
  await dialect
    .tableOptions(
      db.schema
        .createTable(t('occurrences'))
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('series_id', 'integer', (c) => c.notNull())
        .addColumn('content_id', 'integer', (c) => c.notNull())
        .addColumn('original_start', date, (c) => c.notNull())
        .addColumn('start_local', date, (c) => c.notNull())
        .addColumn('end_local', date, (c) => c.notNull())
        .addColumn('start_utc', date, (c) => c.notNull())
        .addColumn('end_utc', date, (c) => c.notNull())
        .addColumn('cancelled', 'smallint', (c) => c.notNull().defaultTo(0)),
    )
    .execute();
  await db.schema.createIndex(t('occurrences_key')).on(t('occurrences')).columns(['series_id', 'original_start']).unique().execute();
  // The archive walks occurrences by local start within a window, as it walks events.
  await db.schema.createIndex(t('occurrences_listing')).on(t('occurrences')).columns(['cancelled', 'start_local', 'id']).execute();
  await db.schema.createIndex(t('occurrences_content')).on(t('occurrences')).columns(['content_id']).execute();
  await dialect
    .tableOptions(
      db.schema
        .createTable(t('occurrence_sequence'))
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('last_id', 'integer', (c) => c.notNull()),
    )
    .execute();
  await sql`insert into ${sql.table(t('occurrence_sequence'))} (id, last_id) values (1, 0)`.execute(db);
}

/** Drops the recurrence tables (the columns go with the tables of the earlier migrations, dropped after). */
export async function down({ db, prefix }: MigrationContext): Promise<void> {
  for (const name of ['occurrence_sequence', 'occurrences', 'series'])
    await db.schema
      .dropTable(prefix + name)
      .ifExists()
      .execute();
}
