/** The store's port: its connection, migrations and removal (the resources compose their queries over it). */
import type { Kysely } from 'kysely';
import { dropStore, migrateToLatest } from './migrate.js';

export { Connection } from './connection.js';

/** Creates or upgrades the store's tables (with `prefix`) in a raw Kysely instance. */
export async function migrateStore(raw: Kysely<unknown>, prefix: string): Promise<void> {
  await migrateToLatest(raw, prefix);
}

export { dropStore };
