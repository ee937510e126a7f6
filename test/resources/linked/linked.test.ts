// Behaviour venues and organizers share (issue 3): routes, writes, statuses, permissions,
// trash and permanent deletion, visibility, archives and bad input, on every dialect.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, type As } from '../../helpers/harness.js';
import { storeCalendar, type StoreCalendar } from '../../helpers/store.js';
import {
  KINDS,
  addImage,
  OPTIONS,
  createEvent,
  createItem,
  expectInvalid,
  expectTypeError,
  forbiddenBody,
  listIds,
  sibling,
  unique,
  wipe,
} from '../../helpers/linked.js';

const DATE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

describe.each(DIALECTS)('linked posts on $name', ({ url }) => {
  let t: StoreCalendar;
  // Creating the tables waits for MariaDB's server-wide migration lock, which concurrent
  // test runs may hold for a while.
  beforeAll(async () => {
    t = await storeCalendar(url, OPTIONS);
  }, 600_000);
  afterAll(() => t?.close());

  describe.each(KINDS)('$name', (k) => {
    const home = 'http://example.org';
    const pretty = (slug: string) => `${home}/${k.noun}/${slug}/`;
    const plain = (id: number) => `${home}/?post_type=${k.postType}&p=${id}`;
    const path = (x: number | string) => (typeof x === 'number' ? `/${k.name}/${x}` : `/${k.name}/by-slug/${x}`);
    const get = (x: number | string, as: As = null, query?: Record<string, string>) => t.request('GET', path(x), { as, query });
    const total = async () => (await t.request('GET', `/${k.name}`, { query: { status: 'any,trash' }, as: 'admin' })).body.total as number;

    describe('create', () => {
      it('answers 201 with the item: string author, pretty url, global ids, no json_ld, no Location', async () => {
        const name = unique('Create ');
        const r = await t.request('POST', `/${k.name}`, { json: { [k.titleKey]: name, description: 'Some text' }, as: 'author' });
        expect(r.status).toBe(201);
        expect(r.headers.Location).toBeUndefined();
        expect(r.headers['X-TEC-Total']).toBeUndefined();
        const b = r.body;
        expect(typeof b.id).toBe('number');
        expect(b.author).toBe('3');
        expect(b.status).toBe('publish');
        for (const key of ['date', 'date_utc', 'modified', 'modified_utc']) expect(b[key]).toMatch(DATE);
        expect(b.url).toBe(pretty(name.toLowerCase().replace(' ', '-')));
        expect(b[k.titleKey]).toBe(name);
        expect(b.description).toBe('<p>Some text</p>');
        expect(b.slug).toBe(name.toLowerCase().replace(' ', '-'));
        expect(b.global_id).toBe(`example.org?id=${b.id}`);
        expect(b.global_id_lineage).toEqual([`example.org?id=${b.id}`]);
        expect(b).not.toHaveProperty('json_ld');
        expect(b).not.toHaveProperty('rest_url');
        expect(b).not.toHaveProperty('excerpt');
        expect(b).not.toHaveProperty('image');
      });

      it('accepts a form body and ignores unknown parameters', async () => {
        const name = unique('Form ');
        const r = await t.request('POST', `/${k.name}`, { form: `${k.titleKey}=${encodeURIComponent(name)}&timezone=UTC&excerpt=x&bogus=1`, as: 'admin' });
        expect(r.status).toBe(201);
        expect(r.body[k.titleKey]).toBe(name);
        expect(r.body).not.toHaveProperty('excerpt');
      });

      it('derives unique slugs per type and keeps them on rename', async () => {
        const name = unique('Slug ');
        const slug = name.toLowerCase().replace(' ', '-');
        const a = await createItem(t, k, { [k.titleKey]: name });
        const b = await createItem(t, k, { [k.titleKey]: name, description: 'other' });
        const c = await createItem(t, k, { [k.titleKey]: name, description: 'third' });
        expect([a.slug, b.slug, c.slug]).toEqual([slug, `${slug}-2`, `${slug}-3`]);
        expect(b.url).toBe(pretty(`${slug}-2`));
        const other = KINDS.find((x) => x !== k)!;
        const o = await createItem(t, other, { [other.titleKey]: name });
        expect(o.slug).toBe(slug);
        const renamed = await t.request('POST', path(a.id), { json: { [k.titleKey]: `${name} renamed` }, as: 'admin' });
        expect(renamed.status).toBe(200);
        expect(renamed.body.slug).toBe(slug);
        expect(renamed.body[k.titleKey]).toBe(`${name} renamed`);
      });

      it('transliterates accents in slugs', async () => {
        const r = await createItem(t, k, { [k.titleKey]: `Été à Zürich ${unique()}` });
        expect(r.slug).toMatch(/^ete-a-zurich-n[a-z0-9]+$/);
      });

      it('reuses an item with the same title (any case) and overwrites its meta, answering 201', async () => {
        const name = unique('Dup ');
        const [field = ''] = k.metaFields.filter((f) => f !== 'website' && f !== 'stateprovince');
        const first = await createItem(t, k, { [k.titleKey]: name, [field]: 'one' });
        const before = await total();
        const again = await t.request('POST', `/${k.name}`, { json: { [k.titleKey]: name.toUpperCase(), [field]: 'two' }, as: 'admin' });
        expect(again.status).toBe(201);
        expect(again.body.id).toBe(first.id);
        expect(again.body[field]).toBe('two');
        expect(again.body.slug).toBe(first.slug);
        expect(await total()).toBe(before);
        // The same description matches too; a different one makes a new item.
        const withText = await createItem(t, k, { [k.titleKey]: `${name} t`, description: 'same' });
        expect((await createItem(t, k, { [k.titleKey]: `${name} T`, description: 'same' })).id).toBe(withText.id);
        const different = await createItem(t, k, { [k.titleKey]: `${name} t`, description: 'different' });
        expect(different.id).not.toBe(withText.id);
        expect(different.slug).toBe(`${withText.slug}-2`);
      });

      it('matches duplicate names without regard to case, also beyond ASCII', async () => {
        const tail = unique();
        const first = await createItem(t, k, { [k.titleKey]: `Café Ünïque ${tail}` });
        const again = await createItem(t, k, { [k.titleKey]: `CAFÉ ÜNÏQUE ${tail.toUpperCase()}` });
        expect(again.id).toBe(first.id);
        const other = await createItem(t, k, { [k.titleKey]: `Cafe Unique ${tail}` });
        expect(other.id).not.toBe(first.id);
        const found = async (search: string) => listIds(t, k, { search });
        expect(await found(`ünïque ${tail}`)).toEqual([first.id]);
        expect(await found(`ÜNÏQUE ${tail}`)).toEqual([first.id]);
        expect(await found(`café ${tail}`)).toEqual([first.id]);
      });

      it('frees the slug of an item deleted for good', async () => {
        const name = unique('Freed ');
        const first = await createItem(t, k, { [k.titleKey]: name });
        await t.request('DELETE', path(first.id), { as: 'admin', query: { force: 'true' } });
        const again = await createItem(t, k, { [k.titleKey]: name });
        expect(again.id).not.toBe(first.id);
        expect(again.slug).toBe(first.slug);
      });

      it('reads the publication date in the site time zone', async () => {
        const ny = await sibling(t, url, { timezone: 'America/New_York' });
        try {
          const local = await createItem(ny, k, { [k.titleKey]: unique('Zone '), date: '2025-01-10 09:05:00' });
          expect([local.date, local.date_utc]).toEqual(['2025-01-10 09:05:00', '2025-01-10 14:05:00']);
          const utc = await createItem(ny, k, { [k.titleKey]: unique('Zone '), date_utc: '2025-07-10 14:05:00' });
          expect([utc.date, utc.date_utc]).toEqual(['2025-07-10 10:05:00', '2025-07-10 14:05:00']);
          const stamp = await ny.request('POST', `/${k.name}`, { form: `${k.titleKey}=${unique('Zone ')}&date=1700000000`, as: 'admin' });
          expect(stamp.status).toBe(201);
          expect(stamp.body.date_utc).toBe('2023-11-14 22:13:20');
          expect(stamp.body.date).toBe('2023-11-14 17:13:20');
        } finally {
          await ny.close();
        }
      });

      it('does not reuse a trashed item', async () => {
        const name = unique('Trashed dup ');
        const first = await createItem(t, k, { [k.titleKey]: name });
        expect((await t.request('DELETE', path(first.id), { as: 'admin' })).status).toBe(200);
        const again = await createItem(t, k, { [k.titleKey]: name });
        expect(again.id).not.toBe(first.id);
        expect(again.slug).toBe(first.slug);
      });

      it('sets status by role: publishers as asked (default publish), contributors draft/pending', async () => {
        const cases: [As, string | undefined, string][] = [
          ['admin', undefined, 'publish'],
          ['editor', 'draft', 'draft'],
          ['author', undefined, 'publish'],
          ['author', 'private', 'private'],
          ['contributor', undefined, 'draft'],
          ['contributor', 'publish', 'pending'],
          ['contributor', 'future', 'pending'],
          ['contributor', 'private', 'private'],
          ['contributor', 'pending', 'pending'],
        ];
        for (const [as, status, expected] of cases) {
          const name = unique('Status ');
          const r = await createItem(t, k, { [k.titleKey]: name, ...(status ? { status } : {}) }, as);
          expect(r.status, `${as} ${status}`).toBe(expected);
          // Venues and organizers get their slug even as drafts.
          expect(r.slug).toBe(name.toLowerCase().replace(' ', '-'));
          if (expected === 'publish') expect(r.url).toBe(pretty(r.slug));
          else if (expected === 'private') expect(r.url).toBe(pretty(r.slug));
          else expect(r.url).toBe(plain(r.id));
        }
      });

      it('schedules a future publication date', async () => {
        const r = await createItem(t, k, { [k.titleKey]: unique('Future '), date: '2040-01-01 10:00:00' });
        expect(r.status).toBe('future');
        expect(r.date).toBe('2040-01-01 10:00:00');
        expect(r.date_utc).toBe('2040-01-01 10:00:00');
        expect(r.url).toBe(plain(r.id));
        const past = await createItem(t, k, { [k.titleKey]: unique('Past '), date_utc: '2020-02-03 04:05:06' });
        expect(past.status).toBe('publish');
        expect(past.date).toBe('2020-02-03 04:05:06');
      });

      it('sets the author to an existing user only', async () => {
        expect((await createItem(t, k, { [k.titleKey]: unique('Auth '), author: 4 })).author).toBe('4');
        expect((await createItem(t, k, { [k.titleKey]: unique('Auth '), author: '2' })).author).toBe('2');
        const before = await total();
        expectInvalid(await t.request('POST', `/${k.name}`, { json: { [k.titleKey]: unique(), author: 23 }, as: 'admin' }), 'author');
        expectInvalid(await t.request('POST', `/${k.name}`, { json: { [k.titleKey]: unique(), author: 'foo' }, as: 'admin' }), 'author');
        expectInvalid(await t.request('POST', `/${k.name}`, { json: { [k.titleKey]: unique(), author: 0 }, as: 'admin' }), 'author');
        expect(await total()).toBe(before);
      });

      it('rejects a missing or empty name', async () => {
        const before = await total();
        const missing = await t.request('POST', `/${k.name}`, { json: { description: 'x' }, as: 'admin' });
        expect(missing.status).toBe(400);
        expect(missing.body).toEqual({
          code: 'rest_missing_callback_param',
          message: `Missing parameter(s): ${k.titleKey}`,
          data: { status: 400, params: [k.titleKey] },
        });
        const nulled = await t.request('POST', `/${k.name}`, { json: { [k.titleKey]: null }, as: 'admin' });
        expect(nulled.body.code).toBe('rest_missing_callback_param');
        const empty = await t.request('POST', `/${k.name}`, { json: { [k.titleKey]: '' }, as: 'admin' });
        expectInvalid(empty, k.titleKey);
        expect(empty.body.data).toEqual({ status: 400, params: { [k.titleKey]: 'Invalid parameter.' }, details: [] });
        expectInvalid(await t.request('POST', `/${k.name}`, { json: { [k.titleKey]: '0' }, as: 'admin' }), k.titleKey);
        // Text only: not a string parameter.
        expect((await t.request('POST', `/${k.name}`, { body: `${k.titleKey}=x`, headers: { 'content-type': 'text/plain' }, as: 'admin' })).body.code).toBe(
          'rest_missing_callback_param',
        );
        expect(await total()).toBe(before);
      });

      it('validates dates, status and website', async () => {
        const before = await total();
        const bad: Record<string, unknown>[] = [
          { date: 'foo' },
          { date_utc: 'not a date' },
          { status: 'kinda_thinking_about_it' },
          { website: 'foo' },
          { website: 'javascript:alert(1)' },
        ];
        for (const fields of bad) {
          const r = await t.request('POST', `/${k.name}`, { json: { [k.titleKey]: unique(), ...fields }, as: 'admin' });
          expectInvalid(r, Object.keys(fields)[0] ?? '');
        }
        // Several failures are listed together, in declaration order.
        const several = await t.request('POST', `/${k.name}`, { json: { [k.titleKey]: '', website: 'foo', date: 'nope' }, as: 'admin' });
        expectInvalid(several, 'date', k.titleKey, 'website');
        expect(await total()).toBe(before);
      });

      it('rejects JSON numbers, booleans and null in string fields with rest_invalid_type', async () => {
        const before = await total();
        // The name's validator wants a non-empty string: a number fails it (plain message).
        const named = await t.request('POST', `/${k.name}`, { json: { [k.titleKey]: 12 }, as: 'admin' });
        expectInvalid(named, k.titleKey);
        expect(named.body.data.params[k.titleKey]).toBe('Invalid parameter.');
        for (const field of ['description', ...k.metaFields]) {
          // "String or empty": PHP-empty values pass the validator, then fail the type pass.
          for (const value of [0, false, null]) {
            const r = await t.request('POST', `/${k.name}`, { json: { [k.titleKey]: unique(), [field]: value }, as: 'admin' });
            expectTypeError(r, field, 'string');
          }
          for (const value of [12, true, ['a'], { a: 'b' }]) {
            const r = await t.request('POST', `/${k.name}`, { json: { [k.titleKey]: unique(), [field]: value }, as: 'admin' });
            expectInvalid(r, field);
          }
        }
        expectTypeError(await t.request('POST', `/${k.name}`, { json: { [k.titleKey]: unique(), date: 1800000000 }, as: 'admin' }), 'date', 'string');
        expectInvalid(await t.request('POST', `/${k.name}`, { json: { [k.titleKey]: unique(), author: true }, as: 'admin' }), 'author');
        expect(await total()).toBe(before);
      });

      it('lets only callers with the edit capability create', async () => {
        const before = await total();
        const anon = await t.request('POST', `/${k.name}`, { json: { [k.titleKey]: unique() } });
        expect(anon.status).toBe(401);
        expect(anon.body).toEqual(forbiddenBody(401));
        expect(anon.headers.Allow).toBe('GET');
        const sub = await t.request('POST', `/${k.name}`, { json: { [k.titleKey]: unique() }, as: 'subscriber' });
        expect(sub.status).toBe(403);
        expect(sub.body).toEqual(forbiddenBody(403));
        // Validation comes before permission.
        expect((await t.request('POST', `/${k.name}`, { json: {} })).status).toBe(400);
        expect(await total()).toBe(before);
      });

      it('keeps or strips HTML in names according to unfiltered_html', async () => {
        const admin = await createItem(t, k, { [k.titleKey]: `It's -- "q" ... & <b>b</b> ${unique()}` }, 'admin');
        expect(admin[k.titleKey]).toMatch(/^It&#8217;s &#8212; &#8220;q&#8221; &#8230; &#038; <b>b<\/b> n/);
        const contributor = await createItem(t, k, { [k.titleKey]: `x <script>x</script><b>b</b> ${unique()}` }, 'contributor');
        expect(contributor[k.titleKey]).toMatch(/^x x<b>b<\/b> n/);
        expect(contributor[k.titleKey]).not.toContain('script');
      });
    });

    describe('update', () => {
      it('changes only the fields sent and answers 200 without json_ld, on POST, PUT and PATCH', async () => {
        const name = unique('Upd ');
        const created = await createItem(t, k, { [k.titleKey]: name, description: 'Keep me', status: 'draft', ...k.sample });
        const [first = '', second = ''] = k.metaFields.filter((f) => f !== 'stateprovince' && f !== 'website');
        let n = 0;
        for (const method of ['POST', 'PUT', 'PATCH']) {
          const r = await t.request(method, path(created.id), { json: { [first]: `changed ${++n}` }, as: 'admin' });
          expect(r.status, method).toBe(200);
          expect(r.body).not.toHaveProperty('json_ld');
          expect(r.body[first]).toBe(`changed ${n}`);
          expect(r.body[second]).toBe(k.sample[second]);
          expect(r.body.description).toBe('<p>Keep me</p>');
          expect(r.body.status).toBe('draft');
          expect(r.body.slug).toBe(created.slug);
          expect(r.body[k.titleKey]).toBe(name);
          expect(r.body.date).toBe(created.date);
          expect(Object.keys(r.body)).toEqual(Object.keys(created));
        }
        const read = await get(created.id, 'admin');
        expect(read.body[first]).toBe('changed 3');
      });

      it('clears a field sent empty, and the description with ""', async () => {
        const created = await createItem(t, k, { [k.titleKey]: unique('Clear '), description: 'Text', ...k.sample });
        const [field = ''] = k.metaFields;
        const r = await t.request('PATCH', path(created.id), { json: { [field]: '', description: '' }, as: 'admin' });
        expect(r.status).toBe(200);
        expect(r.body).not.toHaveProperty(field);
        expect(r.body).not.toHaveProperty('description');
        for (const other of k.metaFields.filter((f) => f !== field && f !== 'stateprovince')) expect(r.body[other]).toBe(k.sample[other]);
      });

      it('sets, keeps and removes the image', async () => {
        const image = await addImage(t);
        const created = await createItem(t, k, { [k.titleKey]: unique('Img '), image: String(image), ...k.sample });
        const keys = Object.keys(created);
        expect(keys[keys.indexOf('slug') + 1]).toBe('image');
        expect(created.image).toMatchObject({ url: 'http://example.org/wp-content/uploads/pic.jpg', id: image });
        const kept = await t.request('PATCH', path(created.id), { json: { [k.metaFields[0] ?? '']: 'x' }, as: 'admin' });
        expect(kept.body.image.id).toBe(image);
        expectInvalid(await t.request('PATCH', path(created.id), { json: { image: 987654 }, as: 'admin' }), 'image');
        expectInvalid(await t.request('POST', `/${k.name}`, { json: { [k.titleKey]: unique(), image: created.id }, as: 'admin' }), 'image');
        const removed = await t.request('PATCH', path(created.id), { json: { image: '' }, as: 'admin' });
        expect(removed.status).toBe(200);
        expect(removed.body).not.toHaveProperty('image');
        const numeric = await createItem(t, k, { [k.titleKey]: unique('Img '), image: String(image) });
        expect(numeric.image.id).toBe(image);
      });

      it('changes status (scaled back for contributors) and publication date when sent', async () => {
        const created = await createItem(t, k, { [k.titleKey]: unique('St '), status: 'draft' });
        expect(created.date_utc).toBe('0000-00-00 00:00:00');
        const pub = await t.request('POST', path(created.id), { json: { status: 'publish' }, as: 'editor' });
        expect(pub.body.status).toBe('publish');
        expect(pub.body.date_utc).toMatch(DATE);
        expect(pub.body.date_utc).not.toBe('0000-00-00 00:00:00');
        expect(pub.body.url).toBe(pretty(created.slug));
        const dated = await t.request('POST', path(created.id), { json: { date: '2019-05-06 07:08:09' }, as: 'admin' });
        expect(dated.body.date).toBe('2019-05-06 07:08:09');
        expect(dated.body.status).toBe('publish');
        const own = await createItem(t, k, { [k.titleKey]: unique('St ') }, 'contributor');
        const asked = await t.request('POST', path(own.id), { json: { status: 'publish' }, as: 'contributor' });
        expect(asked.status).toBe(200);
        expect(asked.body.status).toBe('pending');
      });

      it('allows renaming to the name of another item', async () => {
        const a = await createItem(t, k, { [k.titleKey]: unique('Ren ') });
        const b = await createItem(t, k, { [k.titleKey]: unique('Ren ') });
        const r = await t.request('POST', path(b.id), { json: { [k.titleKey]: a[k.titleKey] }, as: 'admin' });
        expect(r.status).toBe(200);
        expect(r.body.id).toBe(b.id);
        expect(r.body[k.titleKey]).toBe(a[k.titleKey]);
        expect(r.body.slug).toBe(b.slug);
      });

      it('updates by slug', async () => {
        const created = await createItem(t, k, { [k.titleKey]: unique('BySlug ') });
        const r = await t.request('PUT', path(created.slug), { json: { description: 'By slug' }, as: 'admin' });
        expect(r.status).toBe(200);
        expect(r.body.id).toBe(created.id);
        expect(r.body.description).toBe('<p>By slug</p>');
      });

      it('answers 400 for unknown ids and slugs, before permission', async () => {
        for (const as of ['admin', null] as As[]) {
          const byId = await t.request('POST', path(987654), { json: { description: 'x' }, as });
          expectInvalid(byId, 'id');
          expect(byId.body.data.details).toEqual([]);
          expectInvalid(await t.request('PATCH', path('no-such-item'), { json: { description: 'x' }, as }), 'slug');
          expectInvalid(await t.request('DELETE', path(987654), { as }), 'id');
          expectInvalid(await t.request('GET', path(987654), { as }), 'id');
          expectInvalid(await t.request('GET', path('no-such-item'), { as }), 'slug');
        }
        // An id of another kind is not an item of this kind.
        const other = KINDS.find((x) => x !== k)!;
        const o = await createItem(t, other, { [other.titleKey]: unique() });
        expectInvalid(await get(o.id), 'id');
        expectInvalid(await get(o.slug), 'slug');
        const event = await createEvent(t, {});
        expectInvalid(await get(event), 'id');
      });

      it('leaves the item unchanged after a rejected write', async () => {
        const created = await createItem(t, k, { [k.titleKey]: unique('Rej '), description: 'Orig', ...k.sample });
        const [field = ''] = k.metaFields.filter((f) => f !== 'website');
        const attempts: Record<string, unknown>[] = [
          { [field]: 'new value', website: 'not a url' },
          { [field]: 'new value', [k.titleKey]: '' },
          { [field]: 'new value', status: 'bogus' },
          { [field]: 'new value', author: 99 },
          { [field]: 'new value', date: 'not a date' },
          { [field]: 'new value', description: 5 },
          { [field]: 'new value', image: 'not an image' },
        ];
        for (const json of attempts) {
          const r = await t.request('POST', path(created.id), { json, as: 'admin' });
          expect(r.status, JSON.stringify(json)).toBe(400);
        }
        const anon = await t.request('POST', path(created.id), { json: { [field]: 'new value' } });
        expect(anon.status).toBe(401);
        const after = await get(created.id, 'admin');
        const { json_ld: _ld, ...rest } = after.body;
        expect(rest).toEqual(created);
      });
    });

    describe('permissions', () => {
      it('checks the per-item capability on updates, by id and by slug', async () => {
        const admins = await createItem(t, k, { [k.titleKey]: unique('Perm ') }, 'admin');
        const ownDraft = await createItem(t, k, { [k.titleKey]: unique('Perm ') }, 'contributor');
        const ownPublished = await createItem(t, k, { [k.titleKey]: unique('Perm ') }, 'contributor');
        expect((await t.request('POST', path(ownPublished.id), { json: { status: 'publish' }, as: 'admin' })).body.status).toBe('publish');
        const authors = await createItem(t, k, { [k.titleKey]: unique('Perm ') }, 'author');
        // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests walk the item's arbitrary JSON
        const cases: [As, Record<string, any>, number][] = [
          ['contributor', admins, 403],
          ['contributor', ownDraft, 200],
          ['contributor', ownPublished, 403],
          ['contributor2', ownDraft, 403],
          ['author', authors, 200],
          ['author', admins, 403],
          ['author2', authors, 403],
          ['editor', authors, 200],
          ['editor', ownDraft, 200],
          ['subscriber', admins, 403],
          [null, admins, 401],
        ];
        for (const [as, item, status] of cases) {
          for (const key of [item.id, item.slug]) {
            const r = await t.request('POST', path(key), { json: { description: `by ${as}` }, as });
            expect(r.status, `${as} on ${key}`).toBe(status);
            if (status >= 400) expect(r.body).toEqual(forbiddenBody(status as 401 | 403));
          }
        }
        // The contributor's failed writes left the admin's item as it was.
        expect((await get(admins.id, 'admin')).body).not.toHaveProperty('description');
      });

      it('checks the per-item capability on deletes, by id and by slug', async () => {
        const admins = await createItem(t, k, { [k.titleKey]: unique('DelPerm ') }, 'admin');
        for (const as of ['contributor', 'author', 'subscriber', null] as As[]) {
          for (const key of [admins.id, admins.slug]) {
            const r = await t.request('DELETE', path(key), { as });
            expect(r.status, `${as} ${key}`).toBe(as ? 403 : 401);
            const forced = await t.request('DELETE', path(key), { as, query: { force: 'true' } });
            expect(forced.status).toBe(as ? 403 : 401);
          }
        }
        expect((await get(admins.id)).body.status).toBe('publish');
        const own = await createItem(t, k, { [k.titleKey]: unique('DelPerm ') }, 'contributor');
        const bySlug = await t.request('DELETE', path(own.slug), { as: 'contributor' });
        expect(bySlug.status).toBe(200);
        expect(bySlug.body.status).toBe('trash');
        const editorOn = await createItem(t, k, { [k.titleKey]: unique('DelPerm ') }, 'author');
        expect((await t.request('DELETE', path(editorOn.id), { as: 'editor' })).status).toBe(200);
      });

      it('reports the verbs the caller may use in Allow', async () => {
        const item = await createItem(t, k, { [k.titleKey]: unique('Allow ') }, 'admin');
        expect((await get(item.id)).headers.Allow).toBe('GET');
        expect((await get(item.id, 'admin')).headers.Allow).toBe('GET, DELETE, POST, PUT, PATCH');
        expect((await get(item.slug, 'contributor')).headers.Allow).toBe('GET');
        expect((await t.request('GET', `/${k.name}`, { as: 'contributor' })).headers.Allow).toBe('GET, POST');
        expect((await t.request('GET', `/${k.name}`, { as: 'subscriber' })).headers.Allow).toBe('GET');
      });
    });

    describe('delete', () => {
      it('trashes, then answers 410; the trashed item is readable only by who may edit it', async () => {
        const name = unique('Del ');
        const created = await createItem(t, k, { [k.titleKey]: name, description: 'D' });
        const r = await t.request('DELETE', path(created.id), { as: 'admin' });
        expect(r.status).toBe(200);
        expect(r.body.status).toBe('trash');
        expect(r.body.slug).toBe(`${created.slug}__trashed`);
        expect(r.body.url).toBe(plain(created.id));
        expect(r.body).not.toHaveProperty('json_ld');
        expect(r.body.description).toBe('<p>D</p>');
        const again = await t.request('DELETE', path(created.id), { as: 'admin' });
        expect(again.status).toBe(410);
        expect(again.body).toEqual({ code: `${k.noun}-is-in-trash`, message: `The ${k.noun} is already trashed`, data: { status: 410 } });
        const admin = await get(created.id, 'admin');
        expect(admin.status).toBe(200);
        expect(admin.body.status).toBe('trash');
        expect(admin.body).toHaveProperty('json_ld');
        for (const as of [null, 'subscriber', 'contributor', 'author'] as As[]) {
          const denied = await get(created.id, as);
          expect(denied.status, String(as)).toBe(403);
          expect(denied.body).toEqual({ code: `${k.noun}-not-accessible`, message: `The requested ${k.noun} is not accessible`, data: { status: 403 } });
        }
        // The trashed slug addresses it; the old one no longer does.
        expect((await get(`${created.slug}__trashed`, 'admin')).body.id).toBe(created.id);
        expectInvalid(await get(created.slug, 'admin'), 'slug');
        // Anonymous: 401 for an existing item, 400 for an unknown one.
        expect((await t.request('DELETE', path(created.id))).status).toBe(401);
      });

      it('deletes permanently with force=true, answering {deleted, previous}', async () => {
        const created = await createItem(t, k, { [k.titleKey]: unique('Force '), ...k.sample });
        const before = await total();
        const r = await t.request('DELETE', path(created.id), { as: 'admin', query: { force: 'true' } });
        expect(r.status).toBe(200);
        expect(Object.keys(r.body)).toEqual(['deleted', 'previous']);
        expect(r.body.deleted).toBe(true);
        expect(r.body.previous).toEqual(created);
        expect(await total()).toBe(before - 1);
        expectInvalid(await get(created.id, 'admin'), 'id');
        expectInvalid(await get(created.slug, 'admin'), 'slug');
        expectInvalid(await t.request('DELETE', path(created.id), { as: 'admin', query: { force: 'true' } }), 'id');
        // A trashed item can be removed for good too, and by slug.
        const trashed = await createItem(t, k, { [k.titleKey]: unique('Force ') });
        await t.request('DELETE', path(trashed.id), { as: 'admin' });
        const gone = await t.request('DELETE', path(`${trashed.slug}__trashed`), { as: 'editor', query: { force: '1' } });
        expect(gone.status).toBe(200);
        expect(gone.body.previous.status).toBe('trash');
        expectInvalid(await get(trashed.id, 'admin'), 'id');
        // force=false trashes as usual.
        const soft = await createItem(t, k, { [k.titleKey]: unique('Force ') });
        expect((await t.request('DELETE', path(soft.id), { as: 'admin', query: { force: 'false' } })).body.status).toBe('trash');
      });

      it('unlinks a trashed or deleted item from events, which survive', async () => {
        for (const force of [false, true]) {
          const item = await createItem(t, k, { [k.titleKey]: unique('Linked ') });
          const event = await createEvent(t, k.link(item.id));
          expect(k.linkedIds((await t.request('GET', `/events/${event}`, { as: 'admin' })).body)).toEqual([item.id]);
          const r = await t.request('DELETE', path(item.id), { as: 'admin', query: force ? { force: 'true' } : {} });
          expect(r.status).toBe(200);
          const after = await t.request('GET', `/events/${event}`, { as: 'admin' });
          expect(after.status).toBe(200);
          expect(after.body[k.titleKey]).toEqual([]);
          const filtered = await listIds(t, k, { event: String(event) });
          expect(filtered).toEqual([]);
        }
      });
    });

    describe('visibility', () => {
      it('shows non-public items only to those who may read them (auth.md §1.1, §3.1)', async () => {
        const draftByContributor = await createItem(t, k, { [k.titleKey]: unique('Vis ') }, 'contributor');
        const pendingByContributor = await createItem(t, k, { [k.titleKey]: unique('Vis '), status: 'publish' }, 'contributor');
        expect(pendingByContributor.status).toBe('pending');
        const privateByAuthor = await createItem(t, k, { [k.titleKey]: unique('Vis '), status: 'private' }, 'author');
        const futureByAdmin = await createItem(t, k, { [k.titleKey]: unique('Vis '), date: '2045-01-01 00:00:00' }, 'admin');
        const draftByAdmin = await createItem(t, k, { [k.titleKey]: unique('Vis '), status: 'draft' }, 'admin');
        const everyone: As[] = [null, 'subscriber', 'contributor', 'contributor2', 'author', 'author2', 'editor', 'admin'];
        // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests walk the item's arbitrary JSON
        const readers = new Map<Record<string, any>, As[]>([
          [draftByContributor, ['contributor', 'editor', 'admin']],
          [pendingByContributor, ['contributor', 'editor', 'admin']],
          [privateByAuthor, ['author', 'editor', 'admin']],
          [futureByAdmin, ['editor', 'admin']],
          [draftByAdmin, ['editor', 'admin']],
        ]);
        for (const [item, allowed] of readers) {
          for (const as of everyone) {
            for (const key of [item.id, item.slug]) {
              const r = await get(key, as);
              const expected = allowed.includes(as) ? 200 : 403;
              expect(r.status, `${item.status} ${key} as ${as}`).toBe(expected);
              if (expected === 200) {
                expect(r.body.id).toBe(item.id);
                expect(r.body).toHaveProperty('json_ld');
              } else expect(r.body.code).toBe(`${k.noun}-not-accessible`);
            }
          }
        }
        // A private item keeps its pretty url for those who can read it.
        expect((await get(privateByAuthor.id, 'editor')).body.url).toBe(pretty(privateByAuthor.slug));
        expect((await get(draftByAdmin.id, 'admin')).body.url).toBe(plain(draftByAdmin.id));
      });
    });

    describe('archive', () => {
      it('lists per status rules: anonymous publish only, editors any, status=trash, status lists', async () => {
        await wipe(t);
        const own = t;
        {
          const mk = async (fields: Record<string, unknown>, as: As = 'admin') => (await createItem(own, k, { [k.titleKey]: unique(), ...fields }, as)).id;
          const pub = await mk({});
          const draft = await mk({ status: 'draft' });
          const pending = await mk({}, 'contributor2');
          const priv = await mk({ status: 'private' });
          const future = await mk({ date: '2044-01-01 00:00:00' });
          const trashed = await mk({});
          await own.request('DELETE', path(trashed), { as: 'admin' });
          await own.request('POST', path(pending), { json: { status: 'pending' }, as: 'contributor2' });
          const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);
          const list = async (query: Record<string, string>, as: As) => {
            const r = await own.request('GET', `/${k.name}`, { query, as });
            return r;
          };
          for (const as of [null, 'subscriber'] as As[]) {
            const r = await list({}, as);
            expect(r.body[k.name].map((x: { id: number }) => x.id)).toEqual([pub]);
            expect(r.body.total).toBe(1);
            expect(r.body.rest_url).toBe(`${own.base}/${k.name}/?page=1&per_page=10&status=publish`);
            expect((await list({ status: 'publish' }, as)).status).toBe(200);
            expect((await list({ status: 'any' }, as)).body.total).toBe(1);
            for (const status of ['draft', 'publish,draft', 'publish, draft', 'trash', 'bogus']) expectInvalid(await list({ status }, as), 'status');
          }
          const all = sorted([pub, draft, pending, priv, future]);
          for (const as of ['contributor', 'author', 'editor', 'admin'] as As[]) {
            const r = await list({}, as);
            expect(sorted(r.body[k.name].map((x: { id: number }) => x.id)), String(as)).toEqual(all);
            expect(r.body.total).toBe(5);
            expect(r.body.rest_url).toBe(`${own.base}/${k.name}/?page=1&per_page=10&status=any`);
          }
          const drafts = await list({ status: 'draft' }, 'contributor');
          expect(drafts.status).toBe(200);
          expect(drafts.body[k.name].map((x: { id: number }) => x.id)).toEqual([draft]);
          const two = await list({ status: 'draft,pending' }, 'admin');
          expect(sorted(two.body[k.name].map((x: { id: number }) => x.id))).toEqual(sorted([draft, pending]));
          expect(two.body.rest_url).toBe(`${own.base}/${k.name}/?page=1&per_page=10&status=draft,pending`);
          const arr = await own.request('GET', `/${k.name}`, { query: 'status[]=private&status[]=future', as: 'admin' });
          expect(sorted(arr.body[k.name].map((x: { id: number }) => x.id))).toEqual(sorted([priv, future]));
          expect((await list({ status: 'trash' }, 'admin')).body[k.name].map((x: { id: number }) => x.id)).toEqual([trashed]);
          expect((await list({ status: 'any' }, 'admin')).body.total).toBe(5);
          expectInvalid(await list({ status: 'bogus' }, 'admin'), 'status');
          expectInvalid(await list({ status: 'publish,bogus' }, 'admin'), 'status');
          // Archive items carry no json_ld; private items read by editors keep the pretty url.
          const items = (await list({}, 'admin')).body[k.name] as Record<string, unknown>[];
          for (const item of items) expect(item).not.toHaveProperty('json_ld');
          expect(items.find((x) => x.id === priv)!.url).toMatch(new RegExp(`/${k.noun}/`));
          expect(items.find((x) => x.id === draft)!.url).toBe(plain(draft));
        }
      });

      it('pages with X-TEC headers, paging urls per lists.md §4, and 404 past the last page', async () => {
        await wipe(t);
        const own = t;
        {
          for (let i = 0; i < 5; i++) await createItem(own, k, { [k.titleKey]: unique() });
          const base = `${own.base}/${k.name}/`;
          const page = async (query: Record<string, string | number>, as: As = null) => own.request('GET', `/${k.name}`, { query, as });
          const p1 = await page({ per_page: 2 });
          expect(p1.status).toBe(200);
          expect(Object.keys(p1.body)).toEqual([k.name, 'rest_url', 'next_rest_url', 'total', 'total_pages']);
          expect(p1.body.rest_url).toBe(`${base}?page=1&per_page=2&status=publish`);
          expect(p1.body.next_rest_url).toBe(`${base}?per_page=2&status=publish&page=2`);
          expect(p1.body.total).toBe(5);
          expect(p1.body.total_pages).toBe(3);
          expect(p1.headers['X-TEC-Total']).toBe('5');
          expect(p1.headers['X-TEC-TotalPages']).toBe('3');
          expect(p1.headers.Allow).toBe('GET');
          expect(p1.headers.Vary).toBe('Origin');
          expect(p1.headers['Content-Type']).toBe('application/json; charset=UTF-8');
          const p2 = await page({ per_page: 2, page: 2 });
          expect(Object.keys(p2.body)).toEqual([k.name, 'rest_url', 'next_rest_url', 'previous_rest_url', 'total', 'total_pages']);
          expect(p2.body.previous_rest_url).toBe(`${base}?per_page=2&status=publish`);
          expect(p2.body.next_rest_url).toBe(`${base}?per_page=2&status=publish&page=3`);
          const p3 = await page({ per_page: 2, page: '3' });
          expect(Object.keys(p3.body)).toEqual([k.name, 'rest_url', 'previous_rest_url', 'total', 'total_pages']);
          expect(p3.body[k.name]).toHaveLength(1);
          expect(p3.body.previous_rest_url).toBe(`${base}?per_page=2&status=publish&page=2`);
          const p4 = await page({ per_page: 2, page: 4 });
          expect(p4.status).toBe(404);
          expect(p4.body).toEqual({
            code: `${k.noun}-archive-page-not-found`,
            message: `The requested ${k.noun} archive page does not exist`,
            data: { status: 404 },
          });
          expect(p4.headers['X-TEC-Total']).toBeUndefined();
          expect(p4.headers.Allow).toBe('GET');
          // Admin: `any`, and list values raw in rest_url but encoded in the paging urls.
          const admin = await page({ per_page: 2, page: 2, status: 'publish,draft' }, 'admin');
          expect(admin.body.rest_url).toBe(`${base}?page=2&per_page=2&status=publish,draft`);
          expect(admin.body.next_rest_url).toBe(`${base}?per_page=2&status=publish%2Cdraft&page=3`);
          expect(admin.body.previous_rest_url).toBe(`${base}?per_page=2&status=publish%2Cdraft`);
          expect(admin.headers['Cache-Control']).toBe('no-cache, must-revalidate, max-age=0, no-store, private');
          expect(admin.headers.Vary).toBeUndefined();
          // HEAD answers with the same headers and no body.
          const head = await own.request('HEAD', `/${k.name}`, { query: { per_page: 2 } });
          expect(head.status).toBe(200);
          expect(head.text).toBeUndefined();
          expect(head.headers['X-TEC-Total']).toBe('5');
        }
      });

      it('answers an empty page 1 with 200, total 0 and no paging urls', async () => {
        await wipe(t);
        const own = t;
        {
          const r = await own.request('GET', `/${k.name}`);
          expect(r.status).toBe(200);
          expect(r.body).toEqual({ [k.name]: [], rest_url: `${own.base}/${k.name}/?page=1&per_page=10&status=publish`, total: 0, total_pages: 0 });
          expect(r.headers['X-TEC-Total']).toBe('0');
          expect(r.headers['X-TEC-TotalPages']).toBe('0');
          expect((await own.request('GET', `/${k.name}`, { query: { page: 2 } })).status).toBe(404);
        }
      });

      it('clamps per_page to the mount maximum and uses the mount default', async () => {
        await wipe(t);
        const own = await sibling(t, url, { perPage: 4, maxPerPage: 3 });
        try {
          for (let i = 0; i < 7; i++) await createItem(own, k, { [k.titleKey]: unique() });
          const def = await own.request('GET', `/${k.name}`);
          expect(def.body[k.name]).toHaveLength(3);
          expect(def.body.rest_url).toBe(`${own.base}/${k.name}/?page=1&per_page=3&status=publish`);
          const big = await own.request('GET', `/${k.name}`, { query: { per_page: 500 } });
          expect(big.body[k.name]).toHaveLength(3);
          expect(big.body.total_pages).toBe(3);
          expect(big.body.rest_url).toBe(`${own.base}/${k.name}/?page=1&per_page=3&status=publish`);
          const small = await own.request('GET', `/${k.name}`, { query: { per_page: 2 } });
          expect(small.body.total_pages).toBe(4);
        } finally {
          await own.close();
        }
        const r = await t.request('GET', `/${k.name}`, { query: { per_page: 500 } });
        expect(r.body.rest_url).toBe(`${t.base}/${k.name}/?page=1&per_page=50&status=publish`);
      });

      it('rejects bad page and per_page values', async () => {
        for (const name of ['page', 'per_page']) {
          for (const value of ['0', '-1', 'foo', '1.5', '', 'foo bar', '99999999999999999999']) {
            const r = await t.request('GET', `/${k.name}`, { query: { [name]: value } });
            expectInvalid(r, name);
            expect(r.body.data.params[name]).toBe('Invalid parameter.');
            expect(r.body.data.details).toEqual([]);
          }
          expectInvalid(await t.request('GET', `/${k.name}`, { query: `${name}[]=1` }), name);
        }
        // A huge (valid) page is only past the last one.
        expect((await t.request('GET', `/${k.name}`, { query: { page: '999999999999999' } })).status).toBe(404);
        expect((await t.request('GET', `/${k.name}`, { query: { page: '2147483648', per_page: 50 } })).status).toBe(404);
      });

      it('orders by publication date descending, then id descending', async () => {
        await wipe(t);
        const own = t;
        {
          const mk = async (date: string) => (await createItem(own, k, { [k.titleKey]: unique(), date })).id;
          const old = await mk('2020-01-01 10:00:00');
          const tie1 = await mk('2022-01-01 10:00:00');
          const newest = await mk('2023-01-01 10:00:00');
          const tie2 = await mk('2022-01-01 10:00:00');
          const older = await mk('2021-06-01 10:00:00');
          expect(await listIds(own, k)).toEqual([newest, tie2, tie1, older, old]);
          const r = await own.request('GET', `/${k.name}`, { query: { per_page: 2, page: 2 } });
          expect(r.body[k.name].map((x: { id: number }) => x.id)).toEqual([tie1, older]);
        }
      });

      it('filters by event, has_events and only_with_upcoming', async () => {
        await wipe(t);
        const own = t;
        {
          const mk = async () => (await createItem(own, k, { [k.titleKey]: unique() })).id;
          const [published, draftOnly, pendingOnly, privateOnly, trashedOnly, none, pastOnly, hiddenOnly, futureOnly] = [
            await mk(),
            await mk(),
            await mk(),
            await mk(),
            await mk(),
            await mk(),
            await mk(),
            await mk(),
            await mk(),
          ];
          const ev = (id: number, fields: Record<string, unknown> = {}) => createEvent(own, { ...k.link(id), ...fields });
          const pubEvent = await ev(published);
          await ev(draftOnly, { status: 'draft' });
          await ev(pendingOnly, { status: 'pending' });
          await ev(privateOnly, { status: 'private' });
          const trashedEvent = await ev(trashedOnly);
          expect((await own.request('DELETE', `/events/${trashedEvent}`, { as: 'admin' })).status).toBe(200);
          await ev(pastOnly, { start_date: '2020-06-01 10:00:00', end_date: '2020-06-01 11:00:00' });
          await ev(hiddenOnly, { hide_from_listings: true });
          await ev(futureOnly, { status: 'future', date: '2040-01-01 00:00:00' });
          const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);
          const ids = async (query: Record<string, string | number>, as: As = 'admin') => sorted(await listIds(own, k, query, as));
          const linked = sorted([published, privateOnly, trashedOnly, pastOnly, hiddenOnly, futureOnly]);
          const unlinked = sorted([draftOnly, pendingOnly, none]);
          for (const v of ['1', 'true', 'yes', 'on', 'y', 'enable', 'enabled', 'TRUE', 'Yes']) expect(await ids({ has_events: v }), v).toEqual(linked);
          for (const v of ['0', 'false', 'no', 'foo', '']) expect(await ids({ has_events: v }), v).toEqual(unlinked);
          expect(await ids({ has_events: '1' }, null)).toEqual(linked);
          // Upcoming events count as the caller's own events archive lists them (lists.md §6).
          const upcomingForEditors = sorted([published, draftOnly, pendingOnly, privateOnly, futureOnly]);
          for (const v of ['1', 'true', 'yes']) {
            expect(await ids({ only_with_upcoming: v }), v).toEqual(upcomingForEditors);
            expect(await ids({ only_with_upcoming: v }, null), v).toEqual([published]);
          }
          const everything = sorted([...linked, ...unlinked]);
          for (const v of ['0', 'false', 'no']) expect(await ids({ only_with_upcoming: v }), v).toEqual(everything);
          expect(await ids({})).toEqual(everything);
          expect(await ids({ event: pubEvent })).toEqual([published]);
          expect(await ids({ event: String(pubEvent), has_events: '1', only_with_upcoming: '1' })).toEqual([published]);
          expect(await ids({ event: pubEvent, has_events: '0' })).toEqual([]);
          // rest_url carries event and has_events as given (and our own search / only_with_upcoming).
          const r = await own.request('GET', `/${k.name}`, { query: { has_events: 'yes', event: pubEvent, only_with_upcoming: '1', search: 'zz top' } });
          expect(r.status).toBe(200);
          expect(r.body.rest_url).toBe(
            `${own.base}/${k.name}/?page=1&per_page=10&event=${pubEvent}&has_events=yes&status=publish&search=zz top&only_with_upcoming=1`,
          );
          // `event` must be an existing event.
          const item = await mk();
          for (const bad of ['23', String(item), 'foo', '0', '-1', '1.5', '99999999999999999999', ''])
            expectInvalid(await own.request('GET', `/${k.name}`, { query: { event: bad } }), 'event');
          expectInvalid(await own.request('GET', `/${k.name}`, { query: 'event[]=1' }), 'event');
        }
      });

      it('paging urls of a filtered listing keep the filters', async () => {
        await wipe(t);
        const own = t;
        {
          const ids = [];
          for (let i = 0; i < 3; i++) ids.push((await createItem(own, k, { [k.titleKey]: `Filter item ${i}` })).id);
          const base = `${own.base}/${k.name}/`;
          const r = await own.request('GET', `/${k.name}`, { query: { search: 'filter item', per_page: 1, page: 2, has_events: 'false' } });
          expect(r.body.total).toBe(3);
          expect(r.body.rest_url).toBe(`${base}?page=2&per_page=1&has_events=false&status=publish&search=filter item`);
          expect(r.body.next_rest_url).toBe(`${base}?per_page=1&has_events=false&status=publish&search=filter+item&page=3`);
          expect(r.body.previous_rest_url).toBe(`${base}?per_page=1&has_events=false&status=publish&search=filter+item`);
          // The paging urls can be followed.
          const next = new URL(r.body.next_rest_url);
          const followed = await own.request('GET', `/${k.name}`, { query: next.search.slice(1) });
          expect(followed.status).toBe(200);
          expect(followed.body[k.name]).toHaveLength(1);
          const adminNext = (await own.request('GET', `/${k.name}`, { query: { per_page: 1 }, as: 'admin' })).body.next_rest_url;
          expect(adminNext).toBe(`${base}?per_page=1&status=any&page=2`);
          expect((await own.request('GET', `/${k.name}`, { query: new URL(adminNext).search.slice(1), as: 'admin' })).status).toBe(200);
        }
      });

      it('search: no match gives total 0; trashed never match; wildcards and SQL are literal', async () => {
        await wipe(t);
        const own = t;
        {
          const a = (await createItem(own, k, { [k.titleKey]: '100% Fun_Place' })).id;
          const b = (await createItem(own, k, { [k.titleKey]: 'Plain hall', description: 'A quiet FUN evening' })).id;
          const trashed = (await createItem(own, k, { [k.titleKey]: 'Fun trashed' })).id;
          await own.request('DELETE', path(trashed), { as: 'admin' });
          const draft = (await createItem(own, k, { [k.titleKey]: 'Fun draft', status: 'draft' })).id;
          const sorted = (ids: number[]) => [...ids].sort((x, y) => x - y);
          const s = async (search: string, as: As = null, extra: Record<string, string> = {}) => sorted(await listIds(own, k, { search, ...extra }, as));
          expect(await s('fun')).toEqual(sorted([a, b]));
          expect(await s('FUN', 'admin')).toEqual(sorted([a, b, draft]));
          expect(await s('fun', 'admin', { status: 'trash' })).toEqual([]);
          expect(await s('fun', 'admin', { status: 'any,trash' })).toEqual(sorted([a, b, draft]));
          expect(await s('100%')).toEqual([a]);
          // `_` separates fragments: both are in the name.
          expect(await s('un_pl')).toEqual([a]);
          expect(await s('fun_hall')).toEqual([]);
          expect(await s('%')).toEqual([]);
          expect(await s('_')).toEqual([]);
          expect(await s("' OR 1=1 --")).toEqual([]);
          expect(await s('"; DROP TABLE posts; --')).toEqual([]);
          expect(await s('quiet evening')).toEqual([b]);
          // All fragments must be in one field: the name has "plain", the description "quiet".
          expect(await s('plain quiet')).toEqual([]);
          const none = await own.request('GET', `/${k.name}`, { query: { search: 'zzzz nothing' } });
          expect(none.status).toBe(200);
          expect(none.body[k.name]).toEqual([]);
          expect(none.body.total).toBe(0);
          expect(none.body.total_pages).toBe(0);
          expect(none.body).not.toHaveProperty('next_rest_url');
          expect(none.headers['X-TEC-Total']).toBe('0');
          expectInvalid(await own.request('GET', `/${k.name}`, { query: { search: '' } }), 'search');
          expectInvalid(await own.request('GET', `/${k.name}`, { query: 'search[]=fun' }), 'search');
          expectInvalid(await own.request('GET', `/${k.name}`, { query: 'search[a]=fun' }), 'search');
        }
      });
    });

    describe('bad input', () => {
      it('never answers 5xx to hostile values in any write field, and writes nothing', async () => {
        const fields = [
          k.titleKey,
          'description',
          'author',
          'date',
          'date_utc',
          'status',
          'image',
          ...k.metaFields,
          ...(k.noun === 'venue' ? ['show_map', 'show_map_link'] : []),
        ];
        const values: unknown[] = [
          null,
          true,
          false,
          0,
          -1,
          1.5,
          1e308,
          [],
          ['a'],
          [1, 2],
          {},
          { a: 1 },
          { 0: 'x' },
          'x'.repeat(300_000),
          '\u0000',
          "'; DROP TABLE posts; --",
          '%_%',
          '\ud800',
          '\u202e\u0301🎉',
          '   ',
        ];
        const item = await createItem(t, k, { [k.titleKey]: unique('Hostile '), ...k.sample });
        const before = await total();
        for (const field of fields) {
          for (const value of values) {
            const create = await t.request('POST', `/${k.name}`, { json: { [k.titleKey]: unique('H '), [field]: value }, as: 'admin' });
            expect(create.status, `create ${field}=${JSON.stringify(value)?.slice(0, 40)}`).toBeLessThan(500);
            if (create.status === 201) {
              expect((await get(create.body.id, 'admin')).status).toBe(200);
              await t.request('DELETE', path(create.body.id), { as: 'admin', query: { force: 'true' } });
            } else expect(create.status).toBeGreaterThanOrEqual(400);
            const update = await t.request('PATCH', path(item.id), { json: { [field]: value }, as: 'admin' });
            expect(update.status, `update ${field}=${JSON.stringify(value)?.slice(0, 40)}`).toBeLessThan(500);
            if (update.status === 200) {
              // Put it back so that later values start from the same item.
              await t.request('PATCH', path(item.id), {
                json: { [k.titleKey]: item[k.titleKey], description: '', ...k.sample, status: 'publish' },
                as: 'admin',
              });
            }
          }
        }
        expect(await total()).toBe(before);
        const after = await get(item.id, 'admin');
        expect(after.status).toBe(200);
        for (const f of k.metaFields) expect(after.body[f]).toBe(item[f]);
      });

      it('refuses values the store cannot hold with 400, on every dialect, writing nothing', async () => {
        const item = await createItem(t, k, { [k.titleKey]: unique('Big '), description: 'Small' });
        const before = await total();
        const [field = ''] = k.metaFields.filter((f) => f !== 'website');
        const tooBig: [string, string][] = [
          [k.titleKey, 'x'.repeat(70_000)],
          ['description', 'y'.repeat(66_000)],
          // Under the parser's character limit, over 64 KiB once encoded as UTF-8.
          [field, '🎉'.repeat(20_000)],
        ];
        for (const [name, value] of tooBig) {
          const created = await t.request('POST', `/${k.name}`, { json: { [k.titleKey]: unique(), [name]: value }, as: 'admin' });
          expectInvalid(created, name);
          expect(created.body.data.details[name].code).toBe('rest_param_too_large');
          const updated = await t.request('PATCH', path(item.id), { json: { [name]: value }, as: 'admin' });
          expectInvalid(updated, name);
        }
        // Entities added by the HTML filter count too.
        const own = await createItem(t, k, { [k.titleKey]: unique('Big ') }, 'contributor');
        const expanded = await t.request('PATCH', path(own.id), { json: { description: '&'.repeat(30_000) }, as: 'contributor' });
        expect(expanded.status).toBe(400);
        // Just under the limit is fine.
        const fits = await t.request('PATCH', path(item.id), { json: { description: 'z'.repeat(60_000) }, as: 'admin' });
        expect(fits.status).toBe(200);
        expect(await total()).toBe(before + 1);
        const after = await get(item.id, 'admin');
        expect(after.body[k.titleKey]).toBe(item[k.titleKey]);
        expect(after.body.description).toBe(`<p>${'z'.repeat(60_000)}</p>`);
      });

      it('refuses an item with neither name nor description once filtered', async () => {
        const before = await total();
        const blank = await t.request('POST', `/${k.name}`, { json: { [k.titleKey]: '   ' }, as: 'admin' });
        expect(blank.status).toBe(400);
        expect(blank.body).toEqual({
          code: `could-not-create-${k.noun}`,
          message: `The ${k.noun} could not be created from the provided data`,
          data: { status: 400 },
        });
        const stripped = await t.request('POST', `/${k.name}`, { json: { [k.titleKey]: '<script></script>' }, as: 'contributor' });
        expect(stripped.body.code).toBe(`could-not-create-${k.noun}`);
        expect(await total()).toBe(before);
        const item = await createItem(t, k, { [k.titleKey]: unique('Blank ') });
        const renamed = await t.request('POST', path(item.id), { json: { [k.titleKey]: ' ' }, as: 'admin' });
        expect(renamed.status).toBe(400);
        expect(renamed.body.code).toBe(`could-not-update-${k.noun}`);
        expect((await get(item.id)).body[k.titleKey]).toBe(item[k.titleKey]);
        // With a description the name may be blank (WordPress only refuses empty posts).
        const described = await createItem(t, k, { [k.titleKey]: ' ', description: 'Only text' });
        expect(described).not.toHaveProperty(k.titleKey);
        expect(described.slug).toBe(String(described.id));
      });

      it('keeps long slugs within the store column, also when numbered and trashed', async () => {
        const long = `${'Long name '.repeat(30)}${unique()}`;
        const a = await createItem(t, k, { [k.titleKey]: long });
        const b = await createItem(t, k, { [k.titleKey]: long, description: 'second' });
        expect(a.slug.length).toBeLessThanOrEqual(200);
        expect(b.slug).toMatch(/-2$/);
        expect(b.slug.length).toBeLessThanOrEqual(200);
        for (const item of [a, b]) {
          const trashed = await t.request('DELETE', path(item.id), { as: 'admin' });
          expect(trashed.status).toBe(200);
          // A numbered `…__trashed` is cut to fit as any slug (wp_unique_post_slug): `…__trash-2`.
          expect(trashed.body.slug).toMatch(/__trash(?:ed)?(-\d+)?$/);
          expect(trashed.body.slug.length).toBeLessThanOrEqual(200);
          expect((await get(trashed.body.slug, 'admin')).body.id).toBe(item.id);
        }
        // Cut slugs never end inside a percent-encoded character.
        const cjk = await createItem(t, k, { [k.titleKey]: `${'中文名称'.repeat(20)} ${unique()}` });
        expect(cjk.slug.length).toBeLessThanOrEqual(200);
        expect(cjk.slug).toMatch(/^(?:[a-z0-9_-]|%[0-9a-f]{2})+$/);
        expect(() => decodeURIComponent(cjk.slug)).not.toThrow();
        expect((await get(cjk.slug)).body.id).toBe(cjk.id);
        const trashedCjk = await t.request('DELETE', path(cjk.id), { as: 'admin' });
        expect(trashedCjk.body.slug.length).toBeLessThanOrEqual(200);
        expect(() => decodeURIComponent(trashedCjk.body.slug)).not.toThrow();
      });

      it('keeps odd Unicode intact', async () => {
        const name = `Ünïcödé 🎉 \u202eltr\u202c ${unique()} 中文`;
        const r = await createItem(t, k, { [k.titleKey]: name, description: 'Zero\u200bwidth' });
        const read = await get(r.id);
        expect(read.body[k.titleKey]).toBe(name);
        expect(read.body.description).toBe('<p>Zero\u200bwidth</p>');
        expect(r.slug).toMatch(/^unicode-[a-z0-9%_-]+$/);
        expect((await get(r.slug)).body.id).toBe(r.id);
      });

      it('answers 4xx to odd ids, slugs and archive parameters', async () => {
        const cases: [string, string, number][] = [
          ['GET', `/${k.name}/99999999999999999999`, 400],
          ['GET', `/${k.name}/2147483648`, 400],
          ['GET', `/${k.name}/0`, 400],
          ['GET', `/${k.name}/-1`, 404],
          ['GET', `/${k.name}/1e3`, 404],
          ['GET', `/${k.name}/foo`, 404],
          ['GET', `/${k.name}/by-slug/`, 404],
          ['GET', `/${k.name}/by-slug/${encodeURIComponent("' OR '1'='1")}`, 400],
          ['GET', `/${k.name}/by-slug/${encodeURIComponent('%')}`, 400],
          ['GET', `/${k.name}/by-slug/${encodeURIComponent('\u0000')}`, 400],
          ['GET', `/${k.name}/by-slug/${'a'.repeat(5000)}`, 400],
          ['DELETE', `/${k.name}/99999999999999999999`, 400],
          ['PATCH', `/${k.name}/by-slug/%E0%A4%A`, 400],
          ['DELETE', `/${k.name}`, 404],
          ['PUT', `/${k.name}`, 404],
        ];
        for (const [method, p, status] of cases) {
          const r = await t.request(method, p, { as: 'admin', json: method === 'GET' || method === 'DELETE' ? undefined : { description: 'x' } });
          expect(r.status, `${method} ${p.slice(0, 60)}`).toBe(status);
        }
        const queries = [
          'has_events[a][b]=1',
          'only_with_upcoming[]=1',
          'status[a]=publish',
          'page=1&page=2',
          'per_page[]=3',
          `search=${'x'.repeat(10000)}`,
          'event=1%00',
          'status=%00',
        ];
        for (const q of queries) {
          const r = await t.request('GET', `/${k.name}`, { query: q, as: 'admin' });
          expect(r.status, q).toBeLessThan(500);
        }
        const badJson = await t.request('POST', `/${k.name}`, { body: '{"venue": ', headers: { 'content-type': 'application/json' }, as: 'admin' });
        expect(badJson.status).toBe(400);
        expect(badJson.body.code).toBe('rest_invalid_json');
      });
    });

    it('is listed in the namespace index with its args', async () => {
      const r = await t.request('GET', `/${t.ns}`);
      const routes = r.body.routes;
      const ns = `/${t.ns}`;
      const archive = routes[`${ns}/${k.name}`];
      expect(archive.methods).toEqual(['GET', 'POST']);
      expect(archive._links).toEqual({ self: [{ href: `${t.base}/${k.name}` }] });
      const readArgs = archive.endpoints[0].args;
      // Venues add the distance filter of the events archive (issue 34).
      const geoloc = k.name === 'venues' ? ['geoloc', 'geoloc_lat', 'geoloc_lng', 'geoloc_radius'] : [];
      expect(Object.keys(readArgs)).toEqual(['page', 'per_page', 'search', 'event', 'has_events', 'only_with_upcoming', 'status', ...geoloc]);
      expect(Object.keys(readArgs.page)).toEqual(['default', 'description', 'type', 'required']);
      expect(readArgs.per_page.default).toBe('10');
      expect(Object.keys(readArgs.has_events)).toEqual(['description', 'required']);
      expect(Object.keys(readArgs.only_with_upcoming)).toEqual(['description', 'default', 'required']);
      expect(readArgs.only_with_upcoming.default).toBe(false);
      expect(Object.keys(readArgs.status)).toEqual(['format', 'description', 'required']);
      const createArgs = archive.endpoints[1].args;
      expect(createArgs[k.titleKey]).toMatchObject({ type: 'string', required: true });
      const single = routes[`${ns}/${k.name}/(?P<id>\\d+)`];
      expect(single.methods).toEqual(['GET', 'DELETE', 'POST', 'PUT', 'PATCH']);
      expect(single).not.toHaveProperty('_links');
      expect(single.endpoints[0].args.id).toMatchObject({ type: 'integer', required: true });
      expect(single.endpoints[2].args[k.titleKey].required).toBe(false);
      expect(Object.keys(single.endpoints[2].args)[0]).toBe('id');
      const bySlug = routes[`${ns}/${k.name}/by-slug/(?P<slug>[^/]+)`];
      expect(bySlug.methods).toEqual(['GET', 'DELETE', 'POST', 'PUT', 'PATCH']);
      expect(bySlug.endpoints[2].args.slug).toMatchObject({ type: 'string', required: true });
      expect(Object.keys(bySlug.endpoints[2].args)[0]).toBe('slug');
    });
  });
});
