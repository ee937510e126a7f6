import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCli, lines, REPO, runFromSources, type BuiltCli } from './run-cli.js';

const ROLES = ['administrator', 'editor', 'author', 'contributor', 'subscriber'];

let cli: BuiltCli;
beforeAll(async () => {
  cli = await buildCli();
});
afterAll(() => cli.remove());

describe('token', () => {
  it('prints a new administrator entry on stdout and how to use it on stderr', async () => {
    const run = await cli.run(['token']);
    expect(run.code).toBe(0);
    const [entry, ...rest] = lines(run.stdout);
    expect(rest).toEqual([]);
    const token = /^administrator:([A-Za-z0-9_-]{32})$/.exec(entry ?? '')?.[1];
    expect(token).toBeDefined();
    expect(run.stderr).toContain(`CALENDAR_TOKENS='administrator:${token}' npm start`);
    expect(run.stderr).toContain(`curl -H 'Authorization: Bearer ${token}'`);
    // Fresh each time.
    expect(lines((await cli.run(['token'])).stdout)[0]).not.toBe(entry);
  });

  it('makes an entry for any built-in role', async () => {
    const run = await cli.run(['token', '--role', 'subscriber']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^subscriber:[A-Za-z0-9_-]{32}\n$/);
  });

  it('refuses another role, in one line naming the choices', async () => {
    const run = await cli.run(['token', '--role', 'owner']);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(lines(run.stderr)).toEqual([expect.stringContaining(`'owner' is invalid. Allowed choices are ${ROLES.join(', ')}.`)]);
  });
});

describe('mistakes print one line and exit 1', () => {
  it.each([
    [
      'an unknown scheme',
      ['migrate', '--db', 'oracle://db.example/x'],
      /^calendar-events-rest: option `--db` is "oracle:\/\/db\.example\/x"; it takes a SQLite file path .*; the scheme 'oracle:' is none of these\.$/,
    ],
    [
      'a server URL without its //',
      ['migrate', '--db', 'postgres:/calendar'],
      /^calendar-events-rest: option `--db` is "postgres:\/calendar"; .*a server URL has '\/\/' after 'postgres:'\.$/,
    ],
    [
      'an unreachable server (password masked)',
      ['status', '--db', 'postgres://u:secret@127.0.0.1:1/x'],
      /^calendar-events-rest: postgres:\/\/u:\*\*\*@127\.0\.0\.1:1\/x: connect ECONNREFUSED/,
    ],
    [
      'a non-numeric --events',
      ['seed', '--events', 'many'],
      /^error: option '--events <n>' argument 'many' is invalid\. It must be a whole number, 1 or more\.$/,
    ],
    ['--events 0', ['seed', '--events', '0'], /is invalid\. It must be a whole number, 1 or more\.$/],
    ['a missing --events', ['seed'], /^error: required option '--events <n>' not specified$/],
    [
      'a table prefix with a dash',
      ['migrate', '--table-prefix', 'my-cal_'],
      /argument 'my-cal_' is invalid\. It may hold letters, digits and underscores only/,
    ],
  ])('%s', async (_what, args, message) => {
    const run = await cli.run(args);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(lines(run.stderr)).toEqual([expect.stringMatching(message)]);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('help and version', () => {
  const { version } = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string };

  it('--version prints the version of package.json', async () => {
    expect(await cli.run(['--version'])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });

  it('--version finds package.json from the sources too', async () => {
    expect(await runFromSources(['--version'])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });

  it('--help lists the commands; status --help tells its exit status', async () => {
    const help = await cli.run(['--help']);
    expect(help.code).toBe(0);
    for (const command of ['migrate', 'status', 'seed', 'token']) expect(help.stdout).toMatch(new RegExp(`^  ${command} `, 'm'));
    const status = await cli.run(['status', '--help']);
    expect(status.code).toBe(0);
    expect(status.stdout).toContain('Exit status: 0 when the store is up to date, 1 when migrations are pending');
  });
});
