import { randomBytes } from 'node:crypto';
import { createCalendar, type Calendar, type CalendarOptions, type User } from '../../src/index.js';

/** The databases every store test runs on: SQLite always, the servers when their URL is set. */
export const DIALECTS: { name: string; url: string }[] = [
  { name: 'sqlite', url: ':memory:' },
  ...(process.env.CALENDAR_TEST_POSTGRES_URL ? [{ name: 'postgres', url: process.env.CALENDAR_TEST_POSTGRES_URL }] : []),
  ...(process.env.CALENDAR_TEST_MYSQL_URL ? [{ name: 'mysql', url: process.env.CALENDAR_TEST_MYSQL_URL }] : []),
];

/** One user per built-in role, with stable ids. */
export const USERS = {
  admin: { id: 1, roles: ['administrator'] },
  editor: { id: 2, roles: ['editor'] },
  author: { id: 3, roles: ['author'] },
  contributor: { id: 4, roles: ['contributor'] },
  subscriber: { id: 5, roles: ['subscriber'] },
  author2: { id: 6, roles: ['author'] },
  contributor2: { id: 7, roles: ['contributor'] },
} satisfies Record<string, User>;

export type As = keyof typeof USERS | null;

export interface RequestInit {
  query?: string | Record<string, string | number | boolean>;
  json?: unknown;
  /** A form body (`a=1&b[]=2`). */
  form?: string;
  /** A raw body with `headers['content-type']`. */
  body?: string;
  as?: As;
  headers?: Record<string, string>;
  root?: string;
  locale?: string;
}

export interface TestResponse {
  status: number;
  headers: Record<string, string>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- assertions walk arbitrary JSON
  body: any;
  text: string | undefined;
}

export interface TestCalendar {
  calendar: Calendar;
  ns: string;
  base: string;
  request(method: string, path: string, init?: RequestInit): Promise<TestResponse>;
  close(): Promise<void>;
}

/** A migrated calendar with its own table prefix on `url`, and a request helper for core requests. */
export async function testCalendar(url: string, options: Partial<CalendarOptions> = {}): Promise<TestCalendar> {
  const prefix = `t${randomBytes(4).toString('hex')}_`;
  // eslint-disable-next-line no-console -- unexpected errors of a test calendar belong in the test output
  const calendar = createCalendar({ db: url, tablePrefix: prefix, baseUrl: 'http://example.org', onError: (e) => console.error(e), ...options });
  await calendar.migrate();
  const ns = calendar.options.namespace;
  const request = requester(calendar);
  // Server databases are shared by every test file: leave no tables behind.
  const close = async () => {
    if (url !== ':memory:') await calendar.uninstall().catch(() => undefined);
    await calendar.close();
  };
  return { calendar, ns, base: `http://example.org/wp-json/${ns}`, request, close };
}

/** The body, its `Content-Type` (unless the headers name one) and the query string of a test request. */
export function encodeRequest(init: RequestInit, headers: Record<string, string>): { body: string | undefined; query: string } {
  let body: string | undefined;
  if (init.json !== undefined) {
    body = JSON.stringify(init.json);
    headers['content-type'] ??= 'application/json';
  } else if (init.form !== undefined) {
    body = init.form;
    headers['content-type'] ??= 'application/x-www-form-urlencoded';
  } else body = init.body;
  const query =
    typeof init.query === 'string'
      ? init.query
      : new URLSearchParams(Object.entries(init.query ?? {}).map(([k, v]): [string, string] => [k, String(v)])).toString();
  return { body, query };
}

/** The request helper of a test calendar: core requests with the harness' defaults (host, root, users). */
export function requester(calendar: Calendar): TestCalendar['request'] {
  const ns = calendar.options.namespace;
  return async (method: string, path: string, init: RequestInit = {}): Promise<TestResponse> => {
    const headers: Record<string, string> = { host: 'example.org', ...init.headers };
    const { body, query } = encodeRequest(init, headers);
    const res = await calendar.handle({
      method,
      path: path.startsWith('/') && !path.startsWith(`/${ns}`) ? `/${ns}${path}` : path,
      query,
      headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v])),
      body: body === undefined ? undefined : Buffer.from(body),
      root: init.root ?? '/wp-json',
      locale: init.locale,
      user: init.as ? USERS[init.as] : null,
    });
    if (!res) throw new Error(`not handled: ${method} ${path}`);
    const text = res.body === undefined ? undefined : Buffer.from(res.body).toString('utf8');
    // Calendar files are read as text (`text`); everything else is JSON.
    const json = res.headers['Content-Type']?.startsWith('application/json') ?? true;
    return { status: res.status, headers: res.headers, text, body: text && json ? JSON.parse(text) : undefined };
  };
}
