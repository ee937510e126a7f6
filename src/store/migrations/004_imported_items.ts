import { dialectOf } from '../dialects/index.js';
import type { MigrationContext } from './001_init.js';

/**
 * What imports brought in (`import/map.ts`): each item of a source site, by kind and source id,
 * with the item it became and the source's modification date at the time, so that an import run
 * again updates what changed, adds what is new, and never duplicates.
 */
export async function up({ db, prefix }: MigrationContext): Promise<void> {
  const dialect = dialectOf(db);
  const t = (name: string) => prefix + name;
  await dialect
    .tableOptions(
      db.schema
        .createTable(t('imported_items'))
        .addColumn('source', 'varchar(190)', (c) => c.notNull())
        .addColumn('kind', 'varchar(16)', (c) => c.notNull())
        .addColumn('source_id', 'integer', (c) => c.notNull())
        .addColumn('item_id', 'integer', (c) => c.notNull())
        .addColumn('source_modified', 'varchar(32)', (c) => c.notNull())
        .addColumn('imported_at', 'varchar(32)', (c) => c.notNull())
        .addPrimaryKeyConstraint(t('imported_items_pk'), ['source', 'kind', 'source_id']),
    )
    .execute();
  await db.schema.createIndex(t('imported_items_item')).on(t('imported_items')).columns(['kind', 'item_id']).execute();
}

/** Drops the record of imports. */
export async function down({ db, prefix }: MigrationContext): Promise<void> {
  await db.schema.dropTable(`${prefix}imported_items`).ifExists().execute();
}
