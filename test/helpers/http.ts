import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { calendarRouter } from '../../adapters/express.js';
import type { CalendarOptions, CoreRequest, User } from '../../src/index.js';
import { USERS, encodeRequest, type RequestInit, type TestResponse } from './harness.js';
import { storeCalendar, type StoreCalendar } from './store.js';

/** A store calendar mounted in an Express app on 127.0.0.1, called over real HTTP. */
export interface HttpCalendar extends StoreCalendar {
  /** `http://127.0.0.1:<port>` */
  origin: string;
}

const header = (req: CoreRequest, name: string) => {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

/**
 * The host's `getUser` of these tests: `Authorization: Bearer user-<name>` or a session cookie
 * `session=<name>` names one of the harness' {@link USERS}.
 */
function getUser(req: CoreRequest): User | null {
  const bearer = /^Bearer user-(\w+)$/.exec(header(req, 'authorization') ?? '');
  const cookie = /(?:^|;\s*)session=(\w+)/.exec(header(req, 'cookie') ?? '');
  const name = bearer?.[1] ?? cookie?.[1];
  return name && name in USERS ? USERS[name as keyof typeof USERS] : null;
}

/**
 * A migrated calendar on `url` behind the Express adapter (roots `/wp-json` and `/fr/wp-json`),
 * whose `request` goes over HTTP: `as` becomes a bearer token, headers and bodies travel as given.
 * `mount` adds the test's own routes before the calendar's.
 */
export async function httpCalendar(
  url: string,
  options: Partial<CalendarOptions> = {},
  { mount }: { mount?: (app: express.Express, calendar: StoreCalendar) => void } = {},
): Promise<HttpCalendar> {
  const t = await storeCalendar(url, { getUser, baseUrl: undefined, ...options });
  const app = express();
  mount?.(app, t);
  app.use('/wp-json', calendarRouter(t.calendar));
  app.use('/fr/wp-json', calendarRouter(t.calendar, { locale: 'fr' }));
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const request = async (method: string, path: string, init: RequestInit = {}): Promise<TestResponse> => {
    const headers: Record<string, string> = { ...init.headers };
    if (init.as) headers.authorization = `Bearer user-${init.as}`;
    const { body, query } = encodeRequest(init, headers);
    const full = path.startsWith(`/${t.ns}`) ? path : `/${t.ns}${path}`;
    const res = await fetch(`${origin}${init.root ?? '/wp-json'}${full}${query ? `?${query}` : ''}`, { method, headers, body, redirect: 'manual' });
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: res.status, headers: Object.fromEntries(res.headers), text, body: parsed };
  };

  return {
    ...t,
    origin,
    base: `${origin}/wp-json/${t.ns}`,
    request,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await t.close();
    },
  };
}
