/** Options a host sets wrong fail `createCalendar` at once, naming the option and what it takes. */
import { describe, expect, it } from 'vitest';
import { createCalendar, type CalendarOptions } from '../src/index.js';
import { databaseTarget } from '../src/store/connect.js';

const create = (options: Partial<CalendarOptions>) => () => createCalendar({ db: ':memory:', ...options });

describe('createCalendar option checks', () => {
  it.each([
    [{ baseUrl: 'example.org' }, 'option `baseUrl` is "example.org"; it takes an absolute http(s) URL such as \'https://example.org\'.'],
    [{ namespace: '' }, "option `namespace` is \"\"; it takes a path such as 'calendar/events/v1' or 'tribe/events/v1'."],
    [{ namespace: '/' }, 'option `namespace` is "/"'],
    [{ timezone: 'Mars/Base' }, "option `timezone` is \"Mars/Base\"; it takes a time zone name such as 'Europe/Paris' or 'UTC'"],
    [{ perPage: -5 }, 'option `perPage` is -5; it takes a whole number of at least 1.'],
    [{ perPage: 2.5 }, 'option `perPage` is 2.5'],
    [{ maxPerPage: 0 }, 'option `maxPerPage` is 0; it takes a whole number of at least 1.'],
    [
      { db: 'postgres:/calendar' },
      "option `db` is \"postgres:/calendar\"; it takes a SQLite file path (or 'sqlite:<file>', ':memory:') or a server URL 'postgres://…', 'mysql://…' or 'mariadb://…'; a server URL has '//' after 'postgres:'.",
    ],
    [{ db: 'mysql:host/db' }, "a server URL has '//' after 'mysql:'."],
    // The password of a URL never reaches a message (it may end up in a log).
    [
      { db: 'redis://cal:s3cret@cache/0' },
      "option `db` is \"redis://cal:***@cache/0\"; it takes a SQLite file path (or 'sqlite:<file>', ':memory:') or a server URL 'postgres://…', 'mysql://…' or 'mariadb://…'; the scheme 'redis:' is none of these.",
    ],
    [{ db: '' }, 'option `db` is ""; it takes a SQLite file path'],
    [{ db: { query: () => undefined } }, 'option `db` is an object; it takes a Kysely instance or a connection string'],
    // An object is named, never printed: a connection config holds a password, a pool refers to itself.
    [{ db: { host: 'db', password: 's3cret' } }, 'option `db` is an object; it takes'],
    [{ db: new (class Pool {})() }, 'option `db` is an object (Pool); it takes'],
    [{ limits: { bodyBytes: '1mb' } }, 'option `limits.bodyBytes` is "1mb"; it takes a whole number of at least 0 (a count, or bytes).'],
    [{ limits: { bodyByte: 1000 } }, 'option `limits.bodyByte` is unknown; did you mean `limits.bodyBytes`?'],
    [{ csrf: { lifetime: 1 } }, 'option `csrf.lifetime` is 1; it takes a whole number of seconds of at least 2.'],
    // Read replicas are PostgreSQL's, of a PostgreSQL primary.
    [
      { db: 'postgres://db/cal', replicas: ['mysql://r1/cal'] },
      'option `replicas[0]` is "mysql://r1/cal"; it takes a \'postgres://…\' URL: read replicas need PostgreSQL.',
    ],
    [{ db: 'postgres://db/cal', replicas: [{ host: 'r1' }] }, "option `replicas[0]` is an object; it takes a Kysely instance or a 'postgres://…' URL."],
    [
      { db: 'postgres://db/cal', replicas: 'postgres://r1/cal' },
      'option `replicas` is "postgres://r1/cal"; it takes a list of Kysely instances or \'postgres://…\' URLs.',
    ],
    [
      { db: ':memory:', replicas: ['postgres://r1/cal'] },
      'option `db` is ":memory:"; it takes a \'postgres://…\' URL or a PostgreSQL Kysely instance: read replicas need a PostgreSQL primary.',
    ],
    [{ db: 'postgres://db/cal', replication: { waitMs: -1 } }, 'option `replication.waitMs` is -1; it takes a whole number of milliseconds (0 or more).'],
    [{ db: 'postgres://db/cal', replication: { skipMs: 0.5 } }, 'option `replication.skipMs` is 0.5'],
  ] as [Partial<CalendarOptions>, string][])('%j', (options, message) => {
    expect(create(options)).toThrow(message);
  });

  it('accepts what the README documents', () => {
    for (const options of [
      { baseUrl: 'https://Example.org:8443/cal/', namespace: '/tribe/events/v1/', timezone: 'America/New_York', perPage: 20, maxPerPage: 100 },
      { timezone: 'UTC+2' },
      { timezone: 'UTC' },
    ] as Partial<CalendarOptions>[]) {
      expect(create(options)).not.toThrow();
    }
  });
});

describe('connection strings', () => {
  it.each([
    ['data/calendar.sqlite', { kind: 'sqlite', file: 'data/calendar.sqlite' }],
    ['sqlite:data/x.sqlite', { kind: 'sqlite', file: 'data/x.sqlite' }],
    [':memory:', { kind: 'sqlite', file: ':memory:' }],
    // A drive letter is one letter: a file path, not a scheme.
    ['C:\\calendars\\site.sqlite', { kind: 'sqlite', file: 'C:\\calendars\\site.sqlite' }],
    ['postgresql://u:p@localhost:5432/db', { kind: 'postgres', url: 'postgresql://u:p@localhost:5432/db' }],
    ['MariaDB://u:p@localhost/db', { kind: 'mysql', url: 'mysql://u:p@localhost/db' }],
  ])('%s', (target, expected) => {
    expect(databaseTarget(target)).toEqual(expected);
  });
});
