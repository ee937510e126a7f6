// The publication date of venue and organizer writes (issue 29): a `date` that names its own
// offset keeps its digits (TEC reads it into a PHP DateTime, which takes the string's zone), and
// an unparsable `date` or `date_utc` that no REST argument check has seen (a direct call of the
// services) is a 400 `rest_invalid_date` where it used to date the item "now".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/http/errors.js';
import { ORGANIZER, VENUE } from '../../../src/posts/kinds.js';
import type { LinkedInput } from '../../../src/resources/linked/args.js';
import type { Services } from '../../../src/resources/services.js';
import { ADMIN, NOW, servicesOf, targetOf } from '../../helpers/direct.js';
import { DIALECTS } from '../../helpers/harness.js';
import { KINDS, OPTIONS, unique } from '../../helpers/linked.js';
import { storeCalendar, type StoreCalendar } from '../../helpers/store.js';

/** The site zone: UTC+1 in winter. */
const SITE = 'Europe/Paris';

/** WordPress' answer to a date it cannot read. */
const invalidDate = (param: 'date' | 'date_utc') => ({ code: 'rest_invalid_date', message: 'Invalid date.', data: { status: 400, param } });

/** The API error a promise was rejected with (fails the test when it resolved). */
async function rejected(promise: Promise<unknown>): Promise<Record<string, unknown>> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return (error as ApiError).toJSON();
  }
  throw new Error('expected the write to be refused');
}

describe.each(DIALECTS)('venues and organizers: publication dates on $name', ({ url }) => {
  let t: StoreCalendar;
  let services: Services;
  beforeAll(async () => {
    t = await storeCalendar(url, { ...OPTIONS, timezone: SITE });
    services = await servicesOf(t);
  }, 600_000);
  afterAll(() => t?.close());

  describe.each(KINDS)('$name', (k) => {
    const dates = (body: { date: string; date_utc: string }) => [body.date, body.date_utc];
    const service = () => services.linked(k.name === 'venues' ? VENUE : ORGANIZER);

    it('keep the digits of a date with its own offset, then read them in the site zone', async () => {
      const created = await t.request('POST', `/${k.name}`, { as: 'admin', json: { [k.titleKey]: unique('Offset '), date: '2026-01-05T10:00:00+02:00' } });
      expect(created.status).toBe(201);
      expect(dates(created.body)).toEqual(['2026-01-05 10:00:00', '2026-01-05 09:00:00']);
      const updated = await t.request('POST', `/${k.name}/${created.body.id}`, { as: 'admin', json: { date: '2026-07-05T10:00:00-08:00' } });
      expect(dates(updated.body)).toEqual(['2026-07-05 10:00:00', '2026-07-05 08:00:00']);
      // `date_utc` is an instant: its offset is applied.
      const utc = await t.request('POST', `/${k.name}`, { as: 'admin', json: { [k.titleKey]: unique('Offset '), date_utc: '2026-01-05T10:00:00+02:00' } });
      expect(dates(utc.body)).toEqual(['2026-01-05 09:00:00', '2026-01-05 08:00:00']);
    });

    it('refuse an unparsable date given to the services directly, and write nothing', async () => {
      const before = await t.rows('posts');
      for (const param of ['date', 'date_utc'] as const) {
        for (const value of ['foo', '', '2026-13-45 99:99']) {
          const input: LinkedInput = { [k.titleKey]: unique('Bad date '), [param]: value };
          expect(await rejected(service().create(input, ADMIN, SITE, NOW)), `${param} ${value}`).toEqual(invalidDate(param));
        }
      }
      expect(await t.rows('posts')).toBe(before);
      const row = await service().create({ [k.titleKey]: unique('Dated '), date: '2026-01-05 10:00:00' }, ADMIN, SITE, NOW);
      for (const param of ['date', 'date_utc'] as const) {
        expect(await rejected(service().update(targetOf(row), { [k.titleKey]: 'Renamed', [param]: 'foo' }, ADMIN, SITE, NOW))).toEqual(invalidDate(param));
      }
      const stored = await service().get(row.id);
      expect([stored?.title, stored?.date, stored?.date_utc]).toEqual([row.title, '2026-01-05 10:00:00', '2026-01-05 09:00:00']);
    });

    it('refuse an unparsable date before an item with the same name is reused', async () => {
      const name = unique('Reused ');
      const first = await service().create({ [k.titleKey]: name }, ADMIN, SITE, NOW);
      expect(await rejected(service().create({ [k.titleKey]: name, date: 'foo' }, ADMIN, SITE, NOW))).toEqual(invalidDate('date'));
      expect((await service().get(first.id))?.modified).toBe(first.modified);
    });
  });
});
