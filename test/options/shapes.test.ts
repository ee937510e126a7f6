/**
 * Issue 31, trap 3: `createCalendar({ db, getUser: { id: 1 } })` was accepted, and then every
 * request (anonymous reads too) answered 500; a misspelt option (`tablePrefx`, `cors.origin`)
 * passed silently in JavaScript. Both now fail `createCalendar`, naming the option, what it
 * takes, or the option meant.
 */
import { describe, expect, it } from 'vitest';
import { createCalendar, type CalendarOptions } from '../../src/index.js';

/** Options as a JavaScript host writes them: the types do not stop it. */
const create = (options: Record<string, unknown>) => () => createCalendar({ db: ':memory:', ...options });

describe('createCalendar refuses options of the wrong type', () => {
  it.each([
    [{ getUser: { id: 1 } }, 'option `getUser` is an object; it takes a function (request) => user or null (or a promise of one).'],
    [{ onError: 'log' }, 'option `onError` is "log"; it takes a function (error) => void.'],
    [{ userExists: true }, 'option `userExists` is true; it takes a function'],
    [{ trustProxy: 'yes' }, 'option `trustProxy` is "yes"; it takes true or false.'],
    [{ tablePrefix: 7 }, "option `tablePrefix` is 7; it takes a text such as 'tec_'."],
    [{ cors: { origins: 'https://app.example' } }, 'option `cors.origins` is "https://app.example"; it takes \'*\', a list of origins or a function'],
    [{ cors: true }, 'option `cors` is true; it takes false or an object'],
    [{ csrf: { session: 'sid' } }, 'option `csrf.session` is "sid"; it takes a function (request) => session id.'],
    [{ imageHosts: 'localhost' }, 'option `imageHosts` is "localhost"; it takes a list of host names'],
    [{ imageHosts: ['ok', 3] }, 'option `imageHosts[1]` is 3; it takes a text.'],
    [{ limits: 1000 }, 'option `limits` is 1000; it takes an object of limits'],
  ])('%j', (options, message) => {
    expect(create(options)).toThrow(`calendar-events-rest: ${message}`);
  });

  it('refuses no options at all with the shape it takes', () => {
    expect(() => createCalendar(undefined as unknown as CalendarOptions)).toThrow(
      "calendar-events-rest: createCalendar option `options` is undefined; it takes an object such as { db: 'data/calendar.sqlite' }.",
    );
  });

  it('no longer answers every request 500 for a getUser that is not a function', async () => {
    // What the trial saw, had it got this far: the check is at creation, not per request.
    let calendar: ReturnType<typeof createCalendar> | undefined;
    try {
      calendar = createCalendar({ db: ':memory:', getUser: { id: 1 } } as unknown as CalendarOptions);
    } catch (error) {
      expect(String(error)).toContain('option `getUser` is an object');
    }
    expect(calendar).toBeUndefined();
  });
});

describe('createCalendar refuses unknown option names, with the nearest one', () => {
  it.each([
    [{ tablePrefx: 'x_' }, 'option `tablePrefx` is unknown; did you mean `tablePrefix`?'],
    [{ cors: { origin: 'https://app.example' } }, 'option `cors.origin` is unknown; did you mean `cors.origins`?'],
    [{ getuser: () => null }, 'option `getuser` is unknown; did you mean `getUser`?'],
    [{ trustproxy: true }, 'option `trustproxy` is unknown; did you mean `trustProxy`?'],
    [{ limits: { bodyByte: 10 } }, 'option `limits.bodyByte` is unknown; did you mean `limits.bodyBytes`?'],
    [{ csrf: { trustedOrigin: [] } }, 'option `csrf.trustedOrigin` is unknown; did you mean `csrf.trustedOrigins`?'],
    [{ recurrence: { horizonMonth: 3 } }, 'option `recurrence.horizonMonth` is unknown; did you mean `recurrence.horizonMonths`?'],
    [
      { webhooks: { endpoints: [{ url: 'https://hooks.example', secret: 'long enough', kind: ['event'] }] } },
      'option `webhooks.endpoints[0].kind` is unknown; did you mean `webhooks.endpoints[0].kinds`?',
    ],
    // Nothing near: a short object says what it holds, the calendar's options point to the README.
    [{ ical: { title: 'x' } }, 'option `ical.title` is unknown; the options of `ical` are pastDays, maxEvents, refreshMinutes, name.'],
    [{ database: 'x.sqlite' }, 'option `database` is unknown; it is none of the options of createCalendar (docs/reference/options.md).'],
  ])('%j', (options, message) => {
    expect(create(options)).toThrow(`calendar-events-rest: ${message}`);
  });

  it('accepts every documented option, and undefined for any of them', async () => {
    const calendar = createCalendar({
      db: ':memory:',
      tablePrefix: 'x_',
      namespace: 'tribe/events/v1',
      perPage: 5,
      maxPerPage: 20,
      timezone: 'Europe/Paris',
      baseUrl: 'https://example.org',
      imageHosts: ['localhost:8080'],
      trustProxy: true,
      getUser: () => null,
      userExists: () => true,
      strictAuthor: true,
      dictionaries: {},
      limits: { bodyBytes: 2048 },
      onError: () => undefined,
      responseCache: false,
      httpCache: { maxAge: 10 },
      ical: { pastDays: 1, maxEvents: 10, refreshMinutes: 5, name: 'Cal' },
      recurrence: { horizonMonths: 12 },
      changes: { retentionDays: 2 },
      cors: { origins: ['https://app.example'], credentials: true, allowHeaders: ['X-WP-Nonce'], allowMethods: ['GET'], maxAge: 60 },
      csrf: { secret: 's', lifetime: 60, trustedOrigins: ['https://app.example'], session: () => undefined, cookieAuthenticated: () => false },
      permalinks: { event: '/events/{slug}' },
      autoMigrate: true,
      rootIndex: false,
      doc: 'complete',
      replication: undefined,
    });
    await calendar.close();
    await createCalendar({ db: ':memory:', cors: false, csrf: false, webhooks: undefined }).close();
  });
});
