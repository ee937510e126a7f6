/** `GET {root}`: the REST root's index, which every answer's `Link` header points at. */
import { describe, expect, it } from 'vitest';
import { createCalendar } from '../../../src/index.js';
import { entityTag } from '../../../src/http/conditional.js';

const get = (path: string, method = 'GET') => ({ method, path, headers: { host: 'example.org' }, root: '/wp-json' });

describe('the root index', () => {
  it('lists the namespace and its routes, with the site’s zone', async () => {
    const calendar = createCalendar({ db: ':memory:', timezone: 'Europe/Paris' });
    await calendar.migrate();
    for (const path of ['/', '']) {
      const res = await calendar.handle(get(path));
      expect(res?.status).toBe(200);
      const body = JSON.parse(res?.body ? Buffer.from(res.body).toString('utf8') : '{}') as Record<string, unknown>;
      expect(body).toMatchObject({
        name: 'example.org',
        url: 'http://example.org',
        home: 'http://example.org',
        timezone_string: 'Europe/Paris',
        namespaces: ['calendar/events/v1'],
      });
      expect([1, 2]).toContain(body.gmt_offset);
      const routes = body.routes as Record<string, unknown>;
      expect(Object.keys(routes).slice(0, 3)).toEqual(['/', '/calendar/events/v1', '/calendar/events/v1/doc']);
      expect(res?.headers.Link).toBe('<http://example.org/wp-json/>; rel="https://api.w.org/"');
    }
    const head = await calendar.handle(get('/', 'HEAD'));
    expect(head?.status).toBe(200);
    expect(head?.body).toBeUndefined();
    // Tagged by its own bytes, not the namespace index's it is built on.
    const full = await calendar.handle(get('/'));
    const namespace = await calendar.handle(get('/calendar/events/v1'));
    expect(full?.headers.ETag).toBe(entityTag(full!.body!));
    expect(full?.headers.ETag).not.toBe(namespace?.headers.ETag);
    const again = await calendar.handle({ ...get('/'), headers: { host: 'example.org', 'if-none-match': full!.headers.ETag! } });
    expect([again?.status, again?.body]).toEqual([304, undefined]);
    const stale = await calendar.handle({ ...get('/'), headers: { host: 'example.org', 'if-none-match': namespace!.headers.ETag! } });
    expect(stale?.status).toBe(200);
    // Writes to the root are the host's business.
    expect(await calendar.handle(get('/', 'POST'))).toBeNull();
    await calendar.close();
  });

  it('`rootIndex: false` leaves the root to the host', async () => {
    const calendar = createCalendar({ db: ':memory:', rootIndex: false });
    await calendar.migrate();
    expect(await calendar.handle(get('/'))).toBeNull();
    await calendar.close();
  });
});
