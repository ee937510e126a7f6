/**
 * Issue 29 (measured on the original, 2026-11-28): a 200-character slug is kept whole on
 * create; trashed, it becomes its first 191 characters and `__trashed`; restored, it is the
 * whole 200 characters again (this port once cut it to 190 on create and gave back 191).
 * Events take a `slug`; venues and organizers derive theirs from the name. Over HTTP, on
 * every database (the column holds 200 characters).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/harness.js';
import { httpCalendar, type HttpCalendar } from '../helpers/http.js';

const soon = new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10);
const times = { start_date: `${soon} 10:00:00`, end_date: `${soon} 11:00:00` };

/** A 200-character slug of one letter (the same text as a name gives the same slug). */
const long = (letter: string) => letter.repeat(200);

/** Each kind sharing the post lifecycle, and how a create asks for a 200-character slug. */
const KINDS = [
  { path: '/events', create: (slug: string) => ({ title: 'Long slug party', slug, ...times }) },
  { path: '/venues', create: (slug: string) => ({ venue: slug }) },
  { path: '/organizers', create: (slug: string) => ({ organizer: slug }) },
];

describe.each(DIALECTS)('200-character slugs through the trash ($name, over HTTP)', ({ url }) => {
  let t: HttpCalendar;
  beforeAll(async () => {
    t = await httpCalendar(url);
  }, 600_000);
  afterAll(() => t?.close());

  describe.each(KINDS)('$path', ({ path, create }) => {
    const post = async (slug: string) => {
      const r = await t.request('POST', path, { as: 'admin', json: create(slug) });
      expect(r.status, r.text).toBe(201);
      return r.body as { id: number; slug: string };
    };
    const trash = async (id: number) => {
      const r = await t.request('DELETE', `${path}/${id}`, { as: 'admin' });
      expect(r.status, r.text).toBe(200);
      return r.body.slug as string;
    };
    const restore = async (id: number) => {
      const r = await t.request('PATCH', `${path}/${id}`, { as: 'admin', json: { status: 'publish' } });
      expect(r.status, r.text).toBe(200);
      return r.body.slug as string;
    };

    it('keeps the slug whole on create, cuts it to 191 + `__trashed` in the trash, and gives it back whole', async () => {
      const slug = long('a');
      const item = await post(slug);
      expect(item.slug).toBe(slug);
      expect(await trash(item.id)).toBe(`${'a'.repeat(191)}__trashed`);
      expect((await t.request('GET', `${path}/by-slug/${slug}`)).status).not.toBe(200);
      expect(await restore(item.id)).toBe(slug);
      expect((await t.request('GET', `${path}/by-slug/${slug}`)).body.id).toBe(item.id);
      // A second time round, the same.
      expect(await trash(item.id)).toBe(`${'a'.repeat(191)}__trashed`);
      expect(await restore(item.id)).toBe(slug);
    });

    it('numbers the slug given back when another item took it meanwhile (wp_unique_post_slug)', async () => {
      const slug = long('b');
      const first = await post(slug);
      expect(await trash(first.id)).toBe(`${'b'.repeat(191)}__trashed`);
      const second = await post(slug);
      expect(second.slug).toBe(slug);
      expect(await restore(first.id)).toBe(`${'b'.repeat(198)}-2`);
      // Both in the trash: the later `…__trashed` is numbered, the whole cut to 200 as
      // `_truncate_post_slug($slug, 198) . '-2'` cuts it.
      expect(await trash(second.id)).toBe(`${'b'.repeat(191)}__trashed`);
      expect(await trash(first.id)).toBe(`${'b'.repeat(191)}__trash-2`);
    });
  });
});
