/**
 * Issue 11, finding 2: duplicate detection (writes.md §3.2) once overwrote whatever item had
 * the same title, so a contributor could rewrite an administrator's published venue by
 * "creating" one, and an author got a private venue's content back. Now (the spec's
 * recommendation) a match the caller may edit is reused and updated, one it may only read is
 * linked as it stands, and one it may not read is no match.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, type As } from '../helpers/harness.js';
import { httpCalendar, type HttpCalendar } from '../helpers/http.js';
import { png, serve, type TestServer } from '../images/fixtures.js';

const soon = new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10);
const times = { start_date: `${soon} 10:00:00`, end_date: `${soon} 11:00:00` };

describe.each(DIALECTS)('duplicate venues and organizers ($name, over HTTP)', ({ url }) => {
  let t: HttpCalendar;
  let images: TestServer;
  const id = {} as Record<'opera' | 'secret' | 'org' | 'own' | 'guarded', number>;
  const details = async (table: 'venues' | 'organizers', postId: number) =>
    t.db.selectFrom(table).selectAll().where('post_id', '=', postId).executeTakeFirstOrThrow();

  beforeAll(async () => {
    images = await serve((_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(png(2, 2)));
    t = await httpCalendar(url, { imageHosts: [`127.0.0.1:${images.port}`] });
    const post = async (name: keyof typeof id, path: string, json: Record<string, unknown>, as: As = 'admin') => {
      const r = await t.request('POST', path, { as, json });
      expect(r.status, r.text).toBe(201);
      id[name] = r.body.id;
    };
    await post('opera', '/venues', { venue: 'Opera House', address: '1 Main St', phone: '555-1000' });
    await post('secret', '/venues', { venue: 'Secret Hall', address: '42 Hidden Rd', status: 'private' });
    await post('org', '/organizers', { organizer: 'Big Org', email: 'boss@example.org' });
    await post('own', '/venues', { venue: 'My Hall', city: 'Lyon' }, 'contributor');
    await post('guarded', '/venues', { venue: 'Guarded hall', description: 'door code 1234' });
    await t.db.updateTable('posts').set({ password: 'pw' }).where('id', '=', id.guarded).execute();
  });
  afterAll(async () => {
    await t.close();
    await images.close();
  });

  it('a contributor creating a venue with a published title gets it linked as it stands', async () => {
    const before = await details('venues', id.opera);
    const r = await t.request('POST', '/venues', { as: 'contributor', json: { venue: 'opera house', address: '666 Phish Rd', phone: '555-6666' } });
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({ id: id.opera, venue: 'Opera House', address: '1 Main St', phone: '555-1000' });
    expect(await details('venues', id.opera)).toEqual(before);
  });

  it('the same through an event write, for venues and organizers', async () => {
    const venueBefore = await details('venues', id.opera);
    const orgBefore = await details('organizers', id.org);
    const r = await t.request('POST', '/events', {
      as: 'contributor',
      json: {
        title: 'Hijack',
        ...times,
        venue: { venue: 'OPERA HOUSE', address: '666 Phish Rd' },
        organizer: [{ organizer: 'big org', email: 'evil@example.org' }],
      },
    });
    expect(r.status, r.text).toBe(201);
    expect(r.body.venue).toMatchObject({ id: id.opera, address: '1 Main St' });
    expect(r.body.organizer).toMatchObject([{ id: id.org, email: 'boss@example.org' }]);
    expect(await details('venues', id.opera)).toEqual(venueBefore);
    expect(await details('organizers', id.org)).toEqual(orgBefore);
  });

  it('a match the caller may not read is no match: a new venue, and nothing of the private one', async () => {
    const r = await t.request('POST', '/venues', { as: 'author', json: { venue: 'Secret Hall' } });
    expect(r.status, r.text).toBe(201);
    expect(r.body.id).not.toBe(id.secret);
    expect(r.text).not.toContain('42 Hidden Rd');
    expect((await details('venues', id.secret)).address).toBe('42 Hidden Rd');
  });

  it('records no image for a match linked as it stands', async () => {
    const attachments = await t.rows('attachments');
    const r = await t.request('POST', '/venues', { as: 'author', json: { venue: 'Opera House', image: images.url('/new.png') } });
    expect([r.status, r.body.id, r.body.image ?? false]).toEqual([201, id.opera, false]);
    expect(await t.rows('attachments')).toBe(attachments);
  });

  it('never matches the hidden title and description of a password-protected item the caller may not edit', async () => {
    for (const json of [{ venue: 'Guarded hall', description: 'door code 1234' }, { venue: 'guarded hall' }]) {
      const r = await t.request('POST', '/venues', { as: 'contributor', json });
      expect([r.status, r.body.id === id.guarded], JSON.stringify(json)).toEqual([201, false]);
    }
    const editor = await t.request('POST', '/venues', { as: 'editor', json: { venue: 'Guarded hall', description: 'door code 1234' } });
    expect(editor.body.id).toBe(id.guarded);
  });

  it('a match the caller may edit is reused and updated, as upstream', async () => {
    const own = await t.request('POST', '/venues', { as: 'contributor', json: { venue: 'my hall', city: 'Paris' } });
    expect([own.status, own.body.id, own.body.city]).toEqual([201, id.own, 'Paris']);
    const editor = await t.request('POST', '/venues', { as: 'editor', json: { venue: 'Opera House', phone: '555-2000' } });
    expect([editor.status, editor.body.id, editor.body.phone]).toEqual([201, id.opera, '555-2000']);
    // The editor may read the private venue, and edit it.
    const secret = await t.request('POST', '/venues', { as: 'editor', json: { venue: 'secret hall', city: 'Nowhere' } });
    expect([secret.status, secret.body.id, secret.body.city]).toEqual([201, id.secret, 'Nowhere']);
  });
});
