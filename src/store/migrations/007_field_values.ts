import { dialectOf } from '../dialects/index.js';
import type { MigrationContext } from './001_init.js';

/**
 * The values of the fields a host declares (`fields/`): one row per item and field, whatever
 * the kind, so that declaring or dropping a field needs no migration of the host's own. The
 * value is kept as JSON; a number also in `number` and a short text or flag in `text`, which
 * the archive filters compare in SQL.
 */
export async function up({ db, prefix }: MigrationContext): Promise<void> {
  const dialect = dialectOf(db);
  const table = `${prefix}field_values`;
  await dialect
    .tableOptions(
      db.schema
        .createTable(table)
        .addColumn('family', 'varchar(8)', (c) => c.notNull())
        .addColumn('item_id', 'integer', (c) => c.notNull())
        .addColumn('name', 'varchar(64)', (c) => c.notNull())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('number', 'double precision')
        .addColumn('text', 'varchar(191)')
        .addPrimaryKeyConstraint(`${table}_pk`, ['family', 'item_id', 'name']),
    )
    .execute();
  // The archive filters look a field's values up by name, then by value.
  await db.schema.createIndex(`${prefix}field_values_number`).on(table).columns(['family', 'name', 'number']).execute();
  await db.schema.createIndex(`${prefix}field_values_text`).on(table).columns(['family', 'name', 'text']).execute();
}

/** Drops the field values. */
export async function down({ db, prefix }: MigrationContext): Promise<void> {
  await db.schema.dropTable(`${prefix}field_values`).ifExists().execute();
}
