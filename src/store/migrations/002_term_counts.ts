import type { MigrationContext } from './001_init.js';
import { recountAllTerms } from '../term-counts.js';

/**
 * Stored term counts (WordPress keeps `term_taxonomy.count` the same way): counting a
 * term's published events on every read costs O(events of the term) per embedded term.
 */
export async function up({ db, prefix }: MigrationContext): Promise<void> {
  await db.schema
    .alterTable(`${prefix}terms`)
    .addColumn('count', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await recountAllTerms(db, prefix);
}

/** Drops the stored counts. */
export async function down({ db, prefix }: MigrationContext): Promise<void> {
  await db.schema.alterTable(`${prefix}terms`).dropColumn('count').execute();
}
