/** Options a host sets wrong fail `createCalendar` at once, naming the option and what it takes. */
import { describe, expect, it } from 'vitest';
import { createCalendar, type CalendarOptions } from '../src/index.js';

const create = (options: Partial<CalendarOptions>) => () => createCalendar({ db: ':memory:', ...options });

describe('createCalendar option checks', () => {
  it.each([
    [{ baseUrl: 'example.org' }, 'option `baseUrl` is "example.org"; it takes an absolute http(s) URL such as \'https://example.org\'.'],
    [{ namespace: '' }, 'option `namespace` is ""; it takes a path such as \'calendar/events/v1\' or \'tribe/events/v1\'.'],
    [{ namespace: '/' }, 'option `namespace` is "/"'],
    [{ timezone: 'Mars/Base' }, 'option `timezone` is "Mars/Base"; it takes a time zone name such as \'Europe/Paris\' or \'UTC\''],
    [{ perPage: -5 }, 'option `perPage` is -5; it takes a whole number of at least 1.'],
    [{ perPage: 2.5 }, 'option `perPage` is 2.5'],
    [{ maxPerPage: 0 }, 'option `maxPerPage` is 0; it takes a whole number of at least 1.'],
  ] as [Partial<CalendarOptions>, string][])('%j', (options, message) => {
    expect(create(options)).toThrow(message);
  });

  it('accepts what the README documents', () => {
    for (const options of [
      { baseUrl: 'https://Example.org:8443/cal/', namespace: '/tribe/events/v1/', timezone: 'America/New_York', perPage: 20, maxPerPage: 100 },
      { timezone: 'UTC+2' },
      { timezone: 'UTC' },
    ]) {
      expect(create(options)).not.toThrow();
    }
  });
});
