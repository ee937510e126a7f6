import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postRow } from '../../helpers/store.js';
import { DIALECTS, type TestCalendar } from '../../helpers/harness.js';
import { bmp, gif, png, serve, type TestServer } from '../../images/fixtures.js';
import { createEvent, createLinked, eventFields, invalidParamBody, probedCalendar, type ProbedCalendar } from './fixtures.js';

const PNG = png(3, 2);
const GIF = gif(5, 4);
// 600 KB: two never fit in 1 MiB together.
const BIG = bmp(400, 500);

describe.each(DIALECTS)('events: images on $name', ({ url }) => {
  let t: ProbedCalendar;
  /** The same tables, mounted with the default host policy (public addresses only). */
  let strict: TestCalendar;
  let server: TestServer;
  /** Another port of the same loopback host, not allow-listed. */
  let otherPort: TestServer;
  beforeAll(async () => {
    otherPort = await serve((_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(PNG));
    server = await serve((req, res) => {
      const path = req.url ?? '/';
      if (path.startsWith('/img/') && path.endsWith('.png')) res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
      else if (path.startsWith('/big/')) res.writeHead(200, { 'content-type': 'image/bmp', 'content-length': BIG.length }).end(BIG);
      else if (path === '/latin.png') res.writeHead(302, { location: '/img/gar%E7on%20%ZZ.png' }).end();
      else if (path === '/other-port.png') res.writeHead(302, { location: otherPort.url('/img/x.png') }).end();
      else if (path === '/pic.gif') res.writeHead(200, { 'content-type': 'image/gif' }).end(GIF);
      else if (path === '/page.html') res.writeHead(200, { 'content-type': 'text/html' }).end('<p>hi</p>');
      else if (path === '/liar.png') res.writeHead(200, { 'content-type': 'image/png' }).end('not really a png');
      else if (path === '/elsewhere.png') res.writeHead(302, { location: `http://localhost:${server.port}/img/x.png` }).end();
      else if (path === '/hop.png') res.writeHead(302, { location: '/img/hopped.png' }).end();
      else res.writeHead(404, { 'content-type': 'text/plain' }).end('missing');
    });
    // Port 1 is listed so that a refused connection, not the policy, turns it down below.
    t = await probedCalendar(url, { imageHosts: [`127.0.0.1:${server.port}`, '127.0.0.1:1'] });
    strict = await t.variant({ imageHosts: [] });
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    await server?.close();
    await otherPort?.close();
  });

  const counts = async () => ({ posts: await t.rows('posts'), attachments: await t.rows('attachments'), events: await t.rows('events') });
  const titleOf = async (id: number) => (await t.db.selectFrom('posts').select('title').where('id', '=', id).executeTakeFirstOrThrow()).title;

  it('side-loads an image URL once and shows the image object of responses.md §1.8', async () => {
    const src = server.url('/img/first.png');
    const hits = server.hits.length;
    const e = await createEvent(t, { image: src, title: 'With image' });
    expect(JSON.stringify(e.image)).toBe(JSON.stringify({ url: src, id: e.image.id, extension: 'png', width: 3, height: 2, filesize: PNG.length }));
    expect(server.hits.length).toBe(hits + 1);
    // The same URL again reuses the attachment without fetching.
    const again = await createEvent(t, { image: src });
    expect(again.image).toEqual(e.image);
    expect(server.hits.length).toBe(hits + 1);
    // By attachment id: a numeric string (JSON) or a form value; `image` is a string argument,
    // so a JSON number fails the type pass (writes.md §1).
    expect((await createEvent(t, { image: String(e.image.id) })).image).toEqual(e.image);
    const typed = await t.request('POST', '/events', { json: eventFields({ image: e.image.id }), as: 'admin' });
    expect(typed.body.data.params).toEqual({ image: 'image is not of type string.' });
    const form = await t.request('POST', '/events', { form: `title=F&start_date=2027-01-01&end_date=2027-01-01&image=${e.image.id}`, as: 'admin' });
    expect(form.body.image).toEqual(e.image);
    // Single GET: the image, and its URL in json_ld.
    const single = await t.request('GET', `/events/${e.id}`);
    expect(single.body.image).toEqual(e.image);
    expect(single.body.json_ld.image).toBe(src);
    expect(Object.keys(single.body.json_ld).indexOf('image')).toBe(4);
    // Archive items carry it too.
    const list = await t.request('GET', '/events', { query: { include: String(e.id), starts_after: '2027-01-01' } });
    expect(list.body.events[0].image).toEqual(e.image);
  });

  it('reads other image types and follows same-host redirects', async () => {
    const g = await createEvent(t, { image: server.url('/pic.gif') });
    expect(g.image).toMatchObject({ extension: 'gif', width: 5, height: 4, filesize: GIF.length });
    const hop = await createEvent(t, { image: server.url('/hop.png') });
    expect(hop.image).toMatchObject({ extension: 'png', width: 3, height: 2 });
  });

  it('side-loads URLs whose escapes are not UTF-8, titling them from the decoded file name', async () => {
    for (const [path, title] of [
      ['/img/caf%E9.png', 'café'], // Latin-1
      ['/img/caf%C3%A9.png', 'café'], // UTF-8
      ['/img/a%ZZ.png', 'a%ZZ'], // malformed, kept as written
      ['/img/nul%00.png', 'nul%00'],
      ['/latin.png', 'garçon %ZZ'], // the title comes from where the redirect led
    ]) {
      const res = await t.request('POST', '/events', { json: eventFields({ image: server.url(path) }), as: 'admin' });
      expect({ path, status: res.status }).toEqual({ path, status: 201 });
      expect(res.body.image).toMatchObject({ url: server.url(path), extension: 'png', width: 3, height: 2 });
      expect({ path, title: await titleOf(res.body.image.id) }).toEqual({ path, title });
    }
    expect(server.hits).toContain('/img/gar%E7on%20%ZZ.png');
  });

  it('fetches from an allowed host on its listed port only, on every hop', async () => {
    const before = await counts();
    for (const src of [otherPort.url('/img/x.png'), `http://localhost:${server.port}/img/x.png`, server.url('/other-port.png')]) {
      const res = await t.request('POST', '/events', { json: eventFields({ image: src }), as: 'admin' });
      expect({ src, body: res.body }).toEqual({ src, body: invalidParamBody('image') });
    }
    expect(otherPort.hits).toEqual([]);
    expect(await counts()).toEqual(before);
  });

  it('takes the size limits of side-loaded images from the calendar limits', async () => {
    const before = await counts();
    for (const limits of [{ imageBytes: PNG.length - 1 }, { imageBytesInFlight: PNG.length - 1 }]) {
      const tight = await t.variant({ limits });
      const res = await tight.request('POST', '/events', { json: eventFields({ image: server.url('/img/tight.png') }), as: 'admin' });
      expect({ limits, body: res.body }).toEqual({ limits, body: invalidParamBody('image') });
      expect((await tight.calendar.services()).images.budget.used).toBe(0);
    }
    expect(await counts()).toEqual(before);
    const exact = await t.variant({ limits: { imageBytes: PNG.length, imageBytesInFlight: PNG.length } });
    expect((await exact.request('POST', '/events', { json: eventFields({ image: server.url('/img/exact.png') }), as: 'admin' })).status).toBe(201);
  });

  it('bounds the bytes of concurrent side-loads by imageBytesInFlight, and lets each through in turn', async () => {
    const bounded = await t.variant({ limits: { imageBytesInFlight: 1024 * 1024 } });
    const responses = await Promise.all(
      [1, 2, 3, 4].map((n) => bounded.request('POST', '/events', { json: eventFields({ image: server.url(`/big/${n}.bmp`) }), as: 'admin' })),
    );
    for (const res of responses) expect(res.body.image).toMatchObject({ extension: 'bmp', width: 400, height: 500, filesize: BIG.length });
    const { budget } = (await bounded.calendar.services()).images;
    expect(budget.peak).toBeGreaterThanOrEqual(BIG.length);
    expect(budget.peak).toBeLessThanOrEqual(1024 * 1024);
    expect([budget.used, budget.waiting]).toEqual([0, 0]);
  });

  it('keeps the image when omitted on update and replaces it when sent', async () => {
    const e = await createEvent(t, { image: server.url('/img/keep.png') });
    const kept = await t.request('PATCH', `/events/${e.id}`, { json: { title: 'x' }, as: 'admin' });
    expect(kept.body.image).toEqual(e.image);
    const other = await t.request('PATCH', `/events/${e.id}`, { json: { image: server.url('/img/other.png') }, as: 'admin' });
    expect(other.body.image.url).toBe(server.url('/img/other.png'));
    expect(other.body.image.id).not.toBe(e.image.id);
    const before = await counts();
    const bad = await t.request('PATCH', `/events/${e.id}`, { json: { image: server.url('/page.html'), title: 'changed' }, as: 'admin' });
    expect(bad.body).toEqual(invalidParamBody('image'));
    expect(await counts()).toEqual(before);
    expect((await t.request('GET', `/events/${e.id}`)).body.title).toBe('x');
  });

  it('refuses URLs that are not allowed, not images or not there, leaving nothing behind', async () => {
    const before = await counts();
    const hits = server.hits.length;
    // The default policy never contacts loopback addresses.
    for (const src of [server.url('/img/strict.png'), `http://localhost:${server.port}/img/strict.png`]) {
      const res = await strict.request('POST', '/events', { json: eventFields({ image: src, venue: { venue: 'Image leak hall' } }), as: 'admin' });
      expect({ src, body: res.body }).toEqual({ src, body: invalidParamBody('image') });
    }
    expect(server.hits.length).toBe(hits);
    for (const src of [
      server.url('/page.html'),
      server.url('/liar.png'),
      server.url('/missing.png'),
      server.url('/elsewhere.png'),
      `ftp://127.0.0.1:${server.port}/img/a.png`,
      `http://user:pw@127.0.0.1:${server.port}/img/a.png`,
      'http://127.0.0.1:1/img/closed.png',
      'foo bar',
      '/relative/path.png',
    ]) {
      const res = await t.request('POST', '/events', { json: eventFields({ image: src, organizer: [{ organizer: 'Image leak org' }] }), as: 'admin' });
      expect({ src, body: res.body }).toEqual({ src, body: invalidParamBody('image') });
    }
    expect(await counts()).toEqual(before);
  });

  it('refuses ids that are not image attachments and empty values', async () => {
    const event = await createEvent(t);
    const venue = await createLinked(t, 'venues', { venue: 'Image venue' });
    for (const image of [String(event.id), String(venue.id), event.id, 999999, '999999', '', 0, '0', [], {}, true, -3, '1.5']) {
      const res = await t.request('POST', '/events', { json: eventFields({ image }), as: 'admin' });
      expect({ image, body: res.body }).toEqual({ image, body: invalidParamBody('image') });
    }
    expect((await t.request('PATCH', `/events/${event.id}`, { json: { image: '' }, as: 'admin' })).body).toEqual(invalidParamBody('image'));
  });

  it('lets only callers who may upload files side-load, but anyone who may write use an id', async () => {
    const hits = server.hits.length;
    const res = await t.request('POST', '/events', { json: eventFields({ image: server.url('/img/contrib.png') }), as: 'contributor' });
    expect(res.body).toEqual(invalidParamBody('image'));
    expect(server.hits.length).toBe(hits);
    const byAuthor = await createEvent(t, { image: server.url('/img/author.png') }, 'author');
    expect(byAuthor.image.url).toBe(server.url('/img/author.png'));
    const byContributor = await createEvent(t, { image: String(byAuthor.image.id) }, 'contributor');
    expect(byContributor.image).toEqual(byAuthor.image);
    // Validation (400) comes before permission (401/403).
    expect((await t.request('POST', '/events', { json: eventFields({ image: server.url('/img/anon.png') }) })).status).toBe(400);
    expect((await t.request('POST', '/events', { json: eventFields({ image: String(byAuthor.image.id) }) })).status).toBe(401);
  });

  it('shows stored sizes and drops metadata the attachment does not have', async () => {
    const stamp = '2026-01-01 00:00:00';
    const attachment = async (values: {
      url: string;
      mime_type: string;
      width: number | null;
      height: number | null;
      filesize: number | null;
      sizes: string;
    }) => {
      await t.db
        .insertInto('posts')
        .values(postRow({ type: 'attachment', status: 'inherit', title: values.url, date: stamp }))
        .execute();
      const row = await t.db.selectFrom('posts').select('id').where('title', '=', values.url).executeTakeFirstOrThrow();
      await t.db
        .insertInto('attachments')
        .values({ post_id: row.id, ...values })
        .execute();
      return row.id;
    };
    const thumb = { width: 150, height: 100, 'mime-type': 'image/jpeg', filesize: 2048, url: 'https://cdn.example/big-150x100.jpg' };
    const full = await attachment({
      url: 'https://cdn.example/big.JPG',
      mime_type: 'image/jpeg',
      width: 1200,
      height: 800,
      filesize: 123456,
      sizes: JSON.stringify({ thumbnail: thumb }),
    });
    const e = await createEvent(t, { image: String(full) });
    expect(JSON.stringify(e.image)).toBe(
      JSON.stringify({
        url: 'https://cdn.example/big.JPG',
        id: full,
        extension: 'jpg',
        width: 1200,
        height: 800,
        filesize: 123456,
        sizes: { thumbnail: thumb },
      }),
    );
    const bare = await attachment({ url: 'https://cdn.example/plain.webp', mime_type: 'image/webp', width: null, height: null, filesize: null, sizes: '{}' });
    expect((await createEvent(t, { image: String(bare) })).image).toEqual({ url: 'https://cdn.example/plain.webp', id: bare, extension: 'webp' });
  });

  it('side-loads the image of a venue or organizer given as data, and checks it first', async () => {
    const e = await createEvent(t, {
      venue: { venue: 'Data hall with image', image: server.url('/img/venue-data.png') },
      organizer: [{ organizer: 'Data org with image', image: server.url('/img/org-data.png') }],
    });
    expect(e.venue.image).toMatchObject({ url: server.url('/img/venue-data.png'), width: 3, height: 2 });
    expect(e.organizer[0].image).toMatchObject({ url: server.url('/img/org-data.png') });
    const before = await counts();
    const hits = server.hits.length;
    const bad = await t.request('POST', '/events', { json: eventFields({ venue: { venue: 'Bad image hall', image: server.url('/page.html') } }), as: 'admin' });
    expect(bad.body).toEqual(invalidParamBody('venue'));
    const badOrg = await t.request('POST', '/events', { json: eventFields({ organizer: [{ organizer: 'Bad image org', image: 'foo bar' }] }), as: 'admin' });
    expect(badOrg.body).toEqual(invalidParamBody('organizer'));
    // Several venues are refused before the event image is fetched.
    const several = await t.request('POST', '/events', {
      json: eventFields({ image: server.url('/img/never.png'), venue: [{ venue: 'One' }, { venue: 'Two' }] }),
      as: 'admin',
    });
    expect(several.body.code).toBe('could-not-create-venue');
    expect(server.hits.filter((h) => h === '/img/never.png')).toEqual([]);
    expect(server.hits.length).toBe(hits + 1);
    expect(await counts()).toEqual(before);
  });

  it('shows the image of a linked venue', async () => {
    const e0 = await createEvent(t, { image: server.url('/img/venue.png') });
    const venue = await createLinked(t, 'venues', { venue: 'Pictured hall', image: String(e0.image.id) });
    const e = await createEvent(t, { venue: venue.id });
    expect(e.venue.image).toEqual(e0.image);
  });
});
