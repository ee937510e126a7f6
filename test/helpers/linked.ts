import { expect } from 'vitest';
import { createCalendar, type CalendarOptions } from '../../src/index.js';
import { USERS, testCalendar, type As, type RequestInit, type TestCalendar, type TestResponse } from './harness.js';
import type { StoreCalendar } from './store.js';

/** What the venue and organizer tests need to know about each kind. */
export interface LinkedCase {
  name: 'venues' | 'organizers';
  noun: 'venue' | 'organizer';
  /** The name parameter and response key. */
  titleKey: 'venue' | 'organizer';
  postType: 'tribe_venue' | 'tribe_organizer';
  /** Every string meta field the kind declares (beyond name and description). */
  metaFields: readonly string[];
  /** A value for each meta field that the representation echoes unchanged. */
  sample: Record<string, string>;
  /** The event fields that link an event to the item. */
  link(id: number): Record<string, unknown>;
  /** The item as embedded in an event (to see whether the link survives). */
  linkedIds(event: Record<string, unknown>): number[];
}

export const VENUES: LinkedCase = {
  name: 'venues',
  noun: 'venue',
  titleKey: 'venue',
  postType: 'tribe_venue',
  metaFields: ['address', 'city', 'country', 'province', 'state', 'zip', 'phone', 'stateprovince', 'website'],
  sample: {
    address: '1 Main St',
    city: 'Springfield',
    country: 'United States',
    province: 'Ontario',
    state: 'IL',
    zip: '62701',
    phone: '555-0199',
    stateprovince: 'IL',
    website: 'https://cityhall.example',
  },
  link: (id) => ({ venue: id }),
  linkedIds: (event) => {
    const v = event.venue as Record<string, unknown> | unknown[];
    if (Array.isArray(v)) return v.map((x) => (x as { id: number }).id);
    return [v.id as number];
  },
};

export const ORGANIZERS: LinkedCase = {
  name: 'organizers',
  noun: 'organizer',
  titleKey: 'organizer',
  postType: 'tribe_organizer',
  metaFields: ['phone', 'website', 'email'],
  sample: { phone: '555-0100', website: 'https://arts.example', email: 'info@arts.example' },
  link: (id) => ({ organizer: [id] }),
  linkedIds: (event) => (event.organizer as { id: number }[]).map((o) => o.id),
};

export const KINDS = [VENUES, ORGANIZERS];

/** Calendar options of these suites: only the harness users exist. */
export const OPTIONS: Partial<CalendarOptions> = {
  userExists: (id) => Object.values(USERS).some((u) => u.id === id),
};

/** The exact body of WordPress' permission error. */
export const forbiddenBody = (status: 401 | 403) => ({ code: 'rest_forbidden', message: 'Sorry, you are not allowed to do that.', data: { status } });

/** Asserts a `rest_invalid_param` naming exactly `params`. */
export function expectInvalid(r: TestResponse, ...params: string[]): void {
  expect(r.status, JSON.stringify(r.body)).toBe(400);
  expect(r.body.code).toBe('rest_invalid_param');
  expect(r.body.message).toBe(`Invalid parameter(s): ${params.join(', ')}`);
  expect(Object.keys(r.body.data.params)).toEqual(params);
}

/** Asserts a type failure of `param` (`<param> is not of type <type>.`). */
export function expectTypeError(r: TestResponse, param: string, type: string): void {
  expectInvalid(r, param);
  const message = `${param} is not of type ${type}.`;
  expect(r.body.data.params[param]).toBe(message);
  expect(r.body.data.details[param]).toEqual({ code: 'rest_invalid_type', message, data: { param } });
}

/** Creates an item and returns its JSON (fails the test unless 201). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests walk the created item's arbitrary JSON
export async function createItem(t: TestCalendar, k: LinkedCase, fields: Record<string, unknown>, as: As = 'admin'): Promise<Record<string, any>> {
  const r = await t.request('POST', `/${k.name}`, { json: fields, as });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body;
}

/** Creates an event through the API and returns its id. */
export async function createEvent(t: TestCalendar, fields: Record<string, unknown>): Promise<number> {
  const r = await t.request('POST', '/events', {
    json: { title: `Event ${Math.random().toString(36).slice(2, 8)}`, start_date: '2031-06-01 10:00:00', end_date: '2031-06-01 11:00:00', ...fields },
    as: 'admin',
  });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.id;
}

/** Ids of a listing (all pages of 50 at most: enough for these tests). */
export async function listIds(t: TestCalendar, k: LinkedCase, query: Record<string, string | number> = {}, as: As = 'admin'): Promise<number[]> {
  const r = await t.request('GET', `/${k.name}`, { query: { per_page: 50, ...query }, as });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return (r.body[k.name] as { id: number }[]).map((x) => x.id);
}

/** A unique word for names, so that suites sharing a calendar do not collide. */
export function unique(prefix = 'n'): string {
  return `${prefix}${Math.random().toString(36).slice(2, 10)}`;
}

/** Removes every post (and its details and links) of a store calendar, for tests that count. */
export async function wipe(t: StoreCalendar): Promise<void> {
  for (const table of ['event_organizers', 'term_relationships', 'events', 'venues', 'organizers', 'attachments'] as const) {
    await t.db.deleteFrom(table).execute();
  }
  await t.db.deleteFrom('posts').execute();
}

/**
 * A second calendar over the same tables with other options (a mount with another base URL,
 * time zone or paging setting). It runs no migration: on MariaDB migrations take a server-wide
 * lock that every test process queues for. (On SQLite `:memory:` the sibling has a database of
 * its own, which it then migrates.)
 */
export async function sibling(t: TestCalendar, url: string, options: Partial<CalendarOptions>): Promise<TestCalendar> {
  if (url === ':memory:') return testCalendar(url, { ...OPTIONS, ...options });
  const calendar = createCalendar({
    db: url,
    baseUrl: 'http://example.org',
    // eslint-disable-next-line no-console -- unexpected errors of a test calendar belong in the test output
    onError: (e) => console.error(e),
    ...OPTIONS,
    ...options,
    tablePrefix: t.calendar.options.tablePrefix,
  });
  const ns = calendar.options.namespace;
  const request = async (method: string, path: string, init: RequestInit = {}): Promise<TestResponse> => {
    const headers: Record<string, string> = { host: 'example.org' };
    let body: string | undefined;
    if (init.json !== undefined) {
      body = JSON.stringify(init.json);
      headers['content-type'] = 'application/json';
    } else if (init.form !== undefined) {
      body = init.form;
      headers['content-type'] = 'application/x-www-form-urlencoded';
    }
    const query =
      typeof init.query === 'string'
        ? init.query
        : new URLSearchParams(Object.entries(init.query ?? {}).map(([k, v]): [string, string] => [k, String(v)])).toString();
    const res = await calendar.handle({
      method,
      path: `/${ns}${path}`,
      query,
      headers,
      body: body === undefined ? undefined : Buffer.from(body),
      root: init.root ?? '/wp-json',
      user: init.as ? USERS[init.as] : null,
    });
    if (!res) throw new Error(`not handled: ${method} ${path}`);
    const text = res.body === undefined ? undefined : Buffer.from(res.body).toString('utf8');
    return { status: res.status, headers: res.headers, text, body: text ? JSON.parse(text) : undefined };
  };
  return { calendar, ns, base: `http://example.org/wp-json/${ns}`, request, close: () => calendar.close() };
}

/** Seeds an image attachment (the API only creates them by fetching a URL) and returns its id. */
export async function addImage(t: StoreCalendar): Promise<number> {
  // The seeding helper writes any post type; an attachment is a post with an `inherit` status.
  const id = await t.addEvent({ status: 'inherit', type: 'attachment' as 'event' });
  await t.db
    .insertInto('attachments')
    .values({
      post_id: id,
      url: 'http://example.org/wp-content/uploads/pic.jpg',
      mime_type: 'image/jpeg',
      width: 640,
      height: 480,
      filesize: 1234,
      sizes: '{}',
    })
    .execute();
  return id;
}
