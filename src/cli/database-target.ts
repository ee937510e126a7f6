import { existsSync } from 'node:fs';
import type { Kysely } from 'kysely';
import { connectDatabase } from '../store/connect.js';
import { CliError, failureLine } from './failure.js';

/** The schemes `connectDatabase` opens a server for; anything else with `://` is a mistake. */
const SERVER_SCHEMES = ['postgres', 'postgresql', 'mysql', 'mariadb'];
const TARGET_FORMS = 'a SQLite file path, sqlite:<file>, or a postgres://, mysql:// or mariadb:// URL';

/** The database the example servers use (examples/shared/env.ts), so that the CLI prepares the store they open. */
export function defaultTarget(env: NodeJS.ProcessEnv = process.env): string {
  return env.CALENDAR_DB_URL || env.CALENDAR_DB || 'data/calendar.sqlite';
}

/** The target with any password masked, for messages. */
export function describeTarget(target: string): string {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(target)) return target;
  try {
    const url = new URL(target);
    if (url.password) url.password = '***';
    return url.href;
  } catch {
    return target.replace(/\/\/([^:/@]*):[^@/]*@/, '//$1:***@');
  }
}

/** The SQLite file a target names, or `undefined` for a server (or an in-memory database). */
function sqliteFile(target: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(target)) return undefined;
  const file = target.replace(/^sqlite:/i, '');
  return file === ':memory:' ? undefined : file;
}

/** Whether the target is a SQLite file that is not there yet (opening it would create it). */
export function isMissingSqliteFile(target: string): boolean {
  const file = sqliteFile(target);
  return file !== undefined && !existsSync(file);
}

/** Refuses a target `connectDatabase` cannot open, with the forms it takes. */
function checkTarget(target: string): void {
  if (!target.trim()) throw new CliError(`--db is empty: give ${TARGET_FORMS}.`);
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(target)?.[1]?.toLowerCase();
  if (scheme !== undefined && !SERVER_SCHEMES.includes(scheme)) {
    throw new CliError(`Unsupported database "${describeTarget(target)}": give ${TARGET_FORMS}.`);
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
