import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearerTokens, type CoreRequest } from '../../src/index.js';
import { httpCalendar, type HttpCalendar } from '../helpers/http.js';
import { buildCli, lines, type BuiltCli } from './run-cli.js';

// Issue 31, trap 6: `token` minted tokens only the repository's example servers read
// (CALENDAR_TOKENS); an app that installed the package had nothing to read them with. The
// package now exports `bearerTokens`, which reads the entries the command prints, and the
// command says how to use them in one's own server.

const request = (authorization?: string): CoreRequest => ({
  method: 'GET',
  path: '/',
  headers: authorization === undefined ? {} : { authorization },
  root: '/wp-json',
});

describe('token, read by bearerTokens in a host server', () => {
  let cli: BuiltCli;
  let host: HttpCalendar;
  let editor: string;
  let author: string;

  beforeAll(async () => {
    cli = await buildCli();
    const runs = await Promise.all([cli.run(['token', '--role', 'editor']), cli.run(['token', '--role', 'author'])]);
    editor = lines(runs[0].stdout)[0] ?? '';
    author = lines(runs[1].stdout)[0] ?? '';
    expect(lines(runs[0].stderr)[0]).toBe(
      `In your server: createCalendar({ db, ...bearerTokens(process.env.CALENDAR_TOKENS) }) with CALENDAR_TOKENS='${editor}' (separate several entries with commas)`,
    );
    // A host server as the README shows it: the entries in an environment variable, spread into the options.
    host = await httpCalendar(':memory:', { ...bearerTokens(`${editor},${author}`) });
  }, 60_000);
  afterAll(async () => {
    cli?.remove();
    await host?.close();
  });

  const call = (method: string, authorization: string | undefined, json?: Record<string, unknown>) =>
    host.request(method, '/venues', { headers: authorization ? { authorization } : {}, json });
  const bearer = (entry: string) => `Bearer ${entry.slice(entry.indexOf(':') + 1)}`;

  it('lets each token act with its role, over HTTP', async () => {
    const made = await call('POST', bearer(editor), { venue: 'Hall', status: 'publish' });
    expect([made.status, made.body.author]).toEqual([201, '1']);
    const draft = await call('POST', bearer(author), { venue: 'Cellar' });
    expect([draft.status, draft.body.author]).toEqual([201, '2']);
    // An author may not edit an editor's venue.
    const other = await host.request('POST', `/venues/${made.body.id}`, { headers: { authorization: bearer(author) }, json: { venue: 'Mine' } });
    expect(other.status).toBe(403);
  });

  it('answers 401 to a token not listed, and reads anonymously without one', async () => {
    const wrong = await call('GET', 'Bearer not-a-token');
    expect([wrong.status, wrong.body.code]).toEqual([401, 'incorrect_password']);
    expect((await call('GET', undefined)).status).toBe(200);
    const anonymous = await call('POST', undefined, { venue: 'Nope' });
    expect(anonymous.status).toBe(401);
  });

  it('reads the entries as the example servers did: ids by position, userExists, another scheme left to the host', () => {
    const auth = bearerTokens([editor, author]);
    expect(auth.getUser(request(bearer(author)))).toEqual({ id: 2, roles: ['author'] });
    expect(auth.getUser(request(`bearer   ${editor.slice(editor.indexOf(':') + 1)}  `))).toEqual({ id: 1, roles: ['editor'] });
    expect(auth.getUser(request('Basic YWRtaW46c2VjcmV0'))).toBeNull();
    expect(auth.getUser(request())).toBeNull();
    expect([auth.userExists(1), auth.userExists(2), auth.userExists(3)]).toEqual([true, true, false]);
  });

  it('refuses entries it cannot read, without printing the token', () => {
    expect(() => bearerTokens('owner:abc')).toThrow(
      'bearerTokens: entry 1 (owner): "owner" is not a role (administrator, editor, author, contributor, subscriber)',
    );
    expect(() => bearerTokens('editor:abc, tokenwithoutrole')).toThrow('bearerTokens: entry 2 (no role) is not role:token');
    expect(() => bearerTokens('editor:same,author:same')).toThrow('bearerTokens: entry 2 (author): its token is listed before');
    expect(() => bearerTokens('')).toThrow('no role:token entry (make one with `npx calendar-events-rest token`)');
    expect(() => bearerTokens(undefined)).toThrow('no role:token entry');
    expect(() => bearerTokens(12 as unknown as string)).toThrow('bearerTokens(tokens): tokens must be "role:token" entries');
    try {
      bearerTokens('editor:secret-value,editor');
    } catch (e) {
      expect(String(e)).not.toContain('secret-value');
    }
  });
});
