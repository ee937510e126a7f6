import { InvalidArgumentError, type Command } from 'commander';
import { defaultTarget } from './database-target.js';

/** The options of every command that opens the store. */
export interface StoreOptions {
  db: string;
  tablePrefix: string;
}

/** The library's default prefix (`createCalendar`), so that the CLI prepares the tables a default calendar reads. */
const DEFAULT_PREFIX = 'tec_';

/** Adds `--db` and `--table-prefix` to a command. */
export function withStoreOptions(command: Command): Command {
  return command
    .option(
      '--db <target>',
      'SQLite file, sqlite:<file>, postgres://…, mysql://… or mariadb://… (default: $CALENDAR_DB_URL, else $CALENDAR_DB, else data/calendar.sqlite)',
    )
    .option('--table-prefix <prefix>', "prefix of the store's tables", parseTablePrefix, DEFAULT_PREFIX);
}

/** The store options of a parsed command, with the database taken from the environment when not given. */
export function storeOptions(options: { db?: string; tablePrefix: string }): StoreOptions {
  // Resolved here rather than as commander's default, so that --help never prints a URL with its password.
  return { db: options.db ?? defaultTarget(), tablePrefix: options.tablePrefix };
}

/** Accepts a prefix of letters, digits and underscores (what a table name can hold unquoted everywhere). */
function parseTablePrefix(value: string): string {
  if (!/^[A-Za-z0-9_]{0,40}$/.test(value)) throw new InvalidArgumentError('It may hold letters, digits and underscores only (at most 40).');
  return value;
}
