import { describe, expect, it } from 'vitest';
import { loadDriver } from '../../src/store/drivers.js';

/** The error Node gives when a bare specifier resolves to nothing. */
function notFound(name: string, code = 'ERR_MODULE_NOT_FOUND'): Error {
  return Object.assign(new Error(`Cannot find package '${name}' imported from /app/node_modules/calendar-events-rest/dist/index.js`), { code });
}

describe('database drivers', () => {
  it.each([
    ['pg', 'a PostgreSQL database (postgres://…)'],
    ['mysql2', 'a MySQL or MariaDB database (mysql://… or mariadb://…)'],
    ['better-sqlite3', 'an SQLite database (a file path, sqlite:… or :memory:)'],
  ] as const)('names the package to install when %s is missing', async (name, purpose) => {
    await expect(loadDriver(name, () => Promise.reject(notFound(name)))).rejects.toThrow(
      `calendar-events-rest: ${purpose} needs the "${name}" package, which is not installed (or was left out of a bundled or standalone build). Install it with: npm install ${name}`,
    );
    // CommonJS builds see `require`'s code.
    await expect(loadDriver(name, () => Promise.reject(notFound(name, 'MODULE_NOT_FOUND')))).rejects.toThrow(`npm install ${name}`);
  });

  it('passes on other failures as they are (a broken install is not a missing driver)', async () => {
    const inner = notFound('pg-types');
    await expect(loadDriver('pg', () => Promise.reject(inner))).rejects.toBe(inner);
    const native = new Error('The module was compiled against a different Node.js version');
    await expect(loadDriver('better-sqlite3', () => Promise.reject(native))).rejects.toBe(native);
  });

  it('loads an installed driver by name at run time', async () => {
    const sqlite = await loadDriver('better-sqlite3');
    const db = new sqlite.default(':memory:');
    expect(db.prepare('select 1 + 1 as two').get()).toEqual({ two: 2 });
    db.close();
  });
});
