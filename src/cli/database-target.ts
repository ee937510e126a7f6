import { existsSync } from 'node:fs';
import type { Kysely } from 'kysely';
import { connectDatabase, databaseTarget, type DatabaseTarget } from '../store/connect.js';
import { hidePassword } from '../option-error.js';
import { migrateToLatest, migrationStatus } from '../store/migrate.js';
import { CliError, failureLine } from './failure.js';
import { printLine } from './output.js';

/** The database the example servers use (examples/shared/env.ts), so that the CLI prepares the store they open. */
export function defaultTarget(env: NodeJS.ProcessEnv = process.env): string {
  return env.CALENDAR_DB_URL || env.CALENDAR_DB || 'data/calendar.sqlite';
}

/** The target with any password masked, for messages. */
export function describeTarget(target: string): string {
  return hidePassword(target);
}

/** The SQLite file a target names, or `undefined` for a server (or an in-memory database). */
function sqliteFile(target: string): string | undefined {
  const where = checkTarget(target);
  return where.kind === 'sqlite' && where.file !== ':memory:' ? where.file : undefined;
}

/** Whether the target is a SQLite file that is not there yet (opening it would create it). */
export function isMissingSqliteFile(target: string): boolean {
  const file = sqliteFile(target);
  return file !== undefined && !existsSync(file);
}

/** Refuses a target `connectDatabase` cannot open, with the library's own message (the forms it takes). */
function checkTarget(target: string): DatabaseTarget {
  try {
    return databaseTarget(target, '--db');
  } catch (error) {
    throw new CliError(error instanceof Error ? error.message.replace(/^calendar-events-rest: /, '') : String(error));
  }
}

/**
 * Runs `work` on the database and always destroys the connection, so that the process can
 * exit. A failure in it becomes one line naming the database (passwords masked).
 */
export async function withDatabase<T>(target: string, work: (db: Kysely<unknown>) => Promise<T>): Promise<T> {
  checkTarget(target);
  let db: Kysely<unknown> | undefined;
  try {
    db = await connectDatabase(target);
    return await work(db);
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(`${describeTarget(target)}: ${failureLine(error)}`, { cause: error });
  } finally {
    await db?.destroy().catch(() => undefined);
  }
}

/**
 * Readies a store for a feed or file import: migrated to the latest (each migration applied
 * printed), or, for a dry run, which writes nothing, refused unless it already is.
 */
export async function readyForImport(db: Kysely<unknown>, o: { db: string; tablePrefix: string; dryRun?: boolean }): Promise<void> {
  if (!o.dryRun) {
    for (const name of await migrateToLatest(db, o.tablePrefix)) printLine(`applied ${name}`);
    return;
  }
  const { pending } = await migrationStatus(db, o.tablePrefix);
  if (pending.length)
    throw new CliError(
      `${describeTarget(o.db)}: ${pending.length} migrations pending; a dry run reads a migrated store (run \`calendar-events-rest migrate\` first)`,
    );
}
