/**
 * The database drivers are optional peer dependencies: a host installs the one it uses. They
 * are loaded by name at run time only, so that a bundler (Next.js' Turbopack, webpack) never
 * tries to resolve a driver the host did not install. The type imports below vanish from the
 * build.
 */
import type BetterSqlite3 from 'better-sqlite3';
import type MySql from 'mysql2';
import type Pg from 'pg';

/** What each supported driver is for, in the message that asks for it. */
const PURPOSE: Record<DriverName, string> = {
  pg: 'a PostgreSQL database (postgres://…)',
  mysql2: 'a MySQL or MariaDB database (mysql://… or mariadb://…)',
  'better-sqlite3': 'an SQLite database (a file path, sqlite:… or :memory:)',
};

/** The drivers the store can use. */
export type DriverName = 'pg' | 'mysql2' | 'better-sqlite3';

/** A CommonJS module as `import()` gives it: its exports, and the same as `default`. */
type Imported<M> = M & { default: M };

/** The modules as their packages type them. */
export interface Drivers {
  pg: Imported<typeof Pg>;
  mysql2: Imported<typeof MySql>;
  'better-sqlite3': Imported<typeof BetterSqlite3>;
}

/** Whether `error` says that `name` itself (not something it needs) is not installed. */
function isMissing(error: unknown, name: string): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as NodeJS.ErrnoException).code;
  return (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && error.message.includes(`'${name}'`);
}

/** The error a host sees when the driver for its database is not installed: what to install, and why. */
export function missingDriver(name: string, purpose: string): Error {
  return new Error(
    `calendar-events-rest: ${purpose} needs the "${name}" package, which is not installed (or was left out of a bundled or standalone build). Install it with: npm install ${name}`,
  );
}

/**
 * Loads a driver by name; a driver that is not installed is an error that names the package
 * to install. `load` is the import itself (a parameter so that tests can stand in a module
 * that is missing).
 */
export async function loadDriver<N extends DriverName>(
  name: N,
  load: (specifier: string) => Promise<unknown> = (s) => import(/* webpackIgnore: true */ s),
): Promise<Drivers[N]> {
  try {
    // The package's own types describe what the import gives.
    return (await load(name)) as Drivers[N];
  } catch (error) {
    if (isMissing(error, name)) throw missingDriver(name, PURPOSE[name]);
    throw error;
  }
}
