/**
 * Issue 31, traps 2 and 13: adapters accepted anything. `calendarRouter()` or
 * `calendarRouter({ db })` mounted fine and every request then got Express' HTML 500;
 * Fastify without `calendar` failed with `TypeError: Cannot read properties of undefined
 * (reading 'options')`. Each adapter now checks its calendar and options where it is mounted,
 * with `createCalendar`'s kind of message. The Fastify plugin follows Fastify's plugin
 * conventions: a name and Fastify range, `app.calendar` for the host's routes, the calendar
 * closed on `app.close()`.
 */
import express from 'express';
import Fastify, { type FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { calendarRouter } from '../../adapters/express.js';
import { calendarPlugin } from '../../adapters/fastify.js';
import { fetchHandler } from '../../adapters/fetch.js';
import { calendarHandlers } from '../../adapters/next.js';
import { calendarNodeHandler } from '../../adapters/node.js';
import { createCalendar, type Calendar } from '../../src/index.js';

const NS = 'calendar/events/v1';
const NOT_A_CALENDAR = 'it takes the calendar createCalendar() returns.';
const OPTIONS_GIVEN = "it takes the calendar createCalendar(options) returns, not createCalendar's options.";

let calendar: Calendar;
beforeAll(async () => {
  calendar = createCalendar({ db: ':memory:' });
  await calendar.migrate();
});
afterAll(() => calendar.close());

/** A JavaScript host's call: the types do not stop it. */
const untyped = <F extends (...args: never[]) => unknown>(f: F) => f as unknown as (...args: unknown[]) => ReturnType<F>;

describe('Express: calendarRouter checks its arguments when it is mounted', () => {
  it('refuses no calendar, and createCalendar’s options given as one', () => {
    expect(() => untyped(calendarRouter)()).toThrow(`calendar-events-rest: calendarRouter(calendar, options): \`calendar\` is undefined; ${NOT_A_CALENDAR}`);
    expect(() => untyped(calendarRouter)({ db: ':memory:' })).toThrow(`\`calendar\` is an object; ${OPTIONS_GIVEN}`);
  });

  it('refuses an unknown or mistyped option, with the option meant', () => {
    expect(() => untyped(calendarRouter)(calendar, { getuser: () => null })).toThrow(
      'calendar-events-rest: calendarRouter option `getuser` is unknown; did you mean `getUser`?',
    );
    expect(() => untyped(calendarRouter)(calendar, { getUser: { id: 1 } })).toThrow(
      'calendar-events-rest: calendarRouter option `getUser` is an object; it takes a function',
    );
    expect(() => untyped(calendarRouter)(calendar, { notFound: 404 })).toThrow("calendarRouter option `notFound` is 404; it takes 'next' (the default");
  });

  it('never reaches the request that answered Express’ HTML 500', async () => {
    const app = express();
    // What the trial did: the mount itself now throws, where the host wrote it.
    expect(() => app.use('/wp-json', untyped(calendarRouter)())).toThrow(TypeError);
    app.use('/wp-json', calendarRouter(calendar));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((done) => server.once('listening', done));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/wp-json/${NS}/tags`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    } finally {
      server.close();
    }
  });
});

describe('Fastify: calendarPlugin checks its options at register', () => {
  const register = async (options: unknown) => {
    const app = Fastify();
    try {
      await app.register(calendarPlugin, options as never);
      await app.ready();
    } finally {
      await app.close();
    }
  };

  it('fails register, not a request, without a calendar or with options in its place', async () => {
    await expect(register({ prefix: '/wp-json' })).rejects.toThrow(
      `calendar-events-rest: app.register(calendarPlugin, { calendar }): \`calendar\` is undefined; ${NOT_A_CALENDAR}`,
    );
    await expect(register({ prefix: '/wp-json', calendar: { db: ':memory:' } })).rejects.toThrow(`\`calendar\` is an object; ${OPTIONS_GIVEN}`);
    await expect(register({ calendar, prefix: '/wp-json', getuser: () => null })).rejects.toThrow(
      'calendar-events-rest: calendarPlugin option `getuser` is unknown; did you mean `getUser`?',
    );
    await expect(register({ calendar, prefix: '/wp-json', locale: 7 })).rejects.toThrow("calendarPlugin option `locale` is 7; it takes a locale such as 'fr'.");
    // What `register` itself takes passes.
    await expect(register({ calendar, prefix: '/wp-json', logLevel: 'warn', close: false })).resolves.toBeUndefined();
  });

  it('is named for Fastify (hasPlugin, dependencies) and decorates the scope with app.calendar for host routes', async () => {
    const failures: unknown[] = [];
    const own = createCalendar({ db: ':memory:', onError: (error) => failures.push(error) });
    await own.migrate();
    const app = Fastify();
    await app.register(calendarPlugin, { calendar: own, prefix: '/wp-json' });
    await app.register(calendarPlugin, { calendar: own, prefix: '/fr/wp-json', locale: 'fr' });
    // A host plugin that needs the calendar says so, as with any named Fastify plugin.
    const needsCalendar = Object.assign(
      async (scope: FastifyInstance) => {
        scope.get('/count', async () => {
          expectTypeOf(scope.calendar).toEqualTypeOf<Calendar>();
          const { body } = await scope.calendar.call('GET', '/tags');
          return { tags: (body as { tags: unknown[] }).tags.length };
        });
      },
      { [Symbol.for('plugin-meta')]: { name: 'host-routes', dependencies: ['calendar-events-rest'] } },
    );
    await app.register(needsCalendar);
    await app.ready();
    expect(app.hasPlugin('calendar-events-rest')).toBe(true);
    expect(app.calendar).toBe(own);
    expect((await app.inject({ url: '/count' })).json()).toEqual({ tags: 0 });
    expect((await app.inject({ url: `/fr/wp-json/${NS}/tags` })).statusCode).toBe(200);

    // app.close() closes the calendar (once, though it is registered twice): its store is gone.
    await app.close();
    const after = await own.handle({ method: 'GET', path: `/${NS}/tags`, headers: {}, root: '/wp-json' });
    expect(after?.status).toBe(500);
    expect(String(failures[0])).toContain('destroyed');
  });

  it('leaves the calendar open with close: false, and refuses two calendars in one scope', async () => {
    const app = Fastify();
    await app.register(calendarPlugin, { calendar, prefix: '/wp-json', close: false });
    const other = createCalendar({ db: ':memory:' });
    await expect(app.register(calendarPlugin, { calendar: other, prefix: '/other' })).rejects.toThrow(
      'calendar-events-rest: calendarPlugin: this Fastify scope already has another calendar as app.calendar',
    );
    await app.close();
    await other.close();
    const still = await calendar.handle({ method: 'GET', path: `/${NS}/tags`, headers: {}, root: '/wp-json' });
    expect(still?.status).toBe(200);
  });
});

describe('the Node handler, the Fetch handler and Next check theirs when they are made', () => {
  it('refuses no calendar, options in its place, and unknown options', () => {
    expect(() => untyped(calendarNodeHandler)()).toThrow(
      `calendar-events-rest: calendarNodeHandler(calendar, options): \`calendar\` is undefined; ${NOT_A_CALENDAR}`,
    );
    expect(() => untyped(calendarNodeHandler)(calendar, { notfound: 'json' })).toThrow(
      'calendarNodeHandler option `notfound` is unknown; did you mean `notFound`?',
    );
    expect(() => untyped(fetchHandler)({ db: ':memory:' })).toThrow(
      `calendar-events-rest: fetchHandler(calendar, options): \`calendar\` is an object; ${OPTIONS_GIVEN}`,
    );
    expect(() => untyped(fetchHandler)(calendar, { protocol: 'ftp' })).toThrow("fetchHandler option `protocol` is \"ftp\"; it takes 'http' or 'https'.");
    expect(() => untyped(calendarHandlers)(undefined)).toThrow('calendar-events-rest: calendarHandlers(calendar, options): `calendar` is undefined');
    expect(() => untyped(calendarHandlers)(calendar, { roots: '/wp-json' })).toThrow('calendarHandlers option `roots` is unknown; did you mean `root`?');
  });

  it('checks a calendar given by a function on first use (next build opens nothing)', async () => {
    const handle = untyped(fetchHandler)(() => ({ db: ':memory:' }));
    await expect(handle(new Request(`http://localhost/wp-json/${NS}/tags`))).rejects.toThrow(
      `calendar-events-rest: fetchHandler(getCalendar): \`getCalendar()\` is an object; ${OPTIONS_GIVEN}`,
    );
    const lazy = calendarHandlers(() => calendar);
    expect((await lazy.GET(new Request(`http://localhost/wp-json/${NS}/tags`))).status).toBe(200);
  });
});
