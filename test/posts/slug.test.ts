/**
 * Post slugs (src/posts/slug.ts): unique per post type, `__trashed` on the way to the
 * trash and back without it. Run on an in-memory SQLite store, rows seeded directly.
 */
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { restoredSlug, storedSlugForm, trashedSlug, truncateSlug, uniquePostSlug } from '../../src/posts/slug.js';
import { connectDatabase } from '../../src/store/connect.js';
import type { PostType } from '../../src/store/database.js';
import { Store } from '../../src/resources/store.js';
import { migrateStore } from '../../src/store/index.js';
import { postRow } from '../helpers/store.js';

const NOW = '2026-01-01 10:00:00';

let raw: Kysely<unknown>;
let store: Store;

beforeAll(async () => {
  raw = await connectDatabase(':memory:');
  await migrateStore(raw, 'tp_');
  store = Store.open(raw, 'tp_');
});
afterAll(() => raw.destroy());
beforeEach(async () => {
  await store.db.deleteFrom('posts').execute();
});

/** Inserts a post with this slug; returns its id. */
function seed(slug: string | null, type: PostType = 'event', status = 'publish'): Promise<number> {
  return store.posts.insert(postRow({ type, status, status_before_trash: status === 'trash' ? 'publish' : null, title: `Seeded ${slug}`, slug, date: NOW }));
}

describe('truncateSlug', () => {
  it('keeps a short slug whole', () => {
    expect(truncateSlug('party', 5)).toBe('party');
    expect(truncateSlug('', 0)).toBe('');
  });

  it('cuts to the length, without a trailing dash', () => {
    expect(truncateSlug('summer-party', 7)).toBe('summer');
    expect(truncateSlug('summer-party', 8)).toBe('summer-p');
    expect(truncateSlug('a--b', 3)).toBe('a');
  });

  it('never cuts a percent-encoded character', () => {
    // 中 is three encoded octets (9 characters), é two (6).
    expect(truncateSlug('ab%e4%b8%ad', 10)).toBe('ab');
    expect(truncateSlug('ab%e4%b8%ad', 11)).toBe('ab%e4%b8%ad');
    expect(truncateSlug('ab%e4%b8%adc', 11)).toBe('ab%e4%b8%ad');
    expect(truncateSlug('caf%c3%a9s', 8)).toBe('caf');
    expect(truncateSlug('caf%c3%a9s', 9)).toBe('caf%c3%a9');
    // A four-octet character (an emoji) is kept whole or left out too.
    expect(truncateSlug('x%f0%9f%8e%89y', 12)).toBe('x');
    expect(truncateSlug('x%f0%9f%8e%89y', 13)).toBe('x%f0%9f%8e%89');
  });
});

describe('uniquePostSlug', () => {
  it('is the sanitised title when no post of the type has it', async () => {
    expect(await uniquePostSlug(store, 'event', 'Summer Party!')).toBe('summer-party');
    expect(await uniquePostSlug(store, 'event', 'Été à Zürich')).toBe('ete-a-zurich');
  });

  it('numbers a taken slug from 2', async () => {
    await seed('summer-party');
    expect(await uniquePostSlug(store, 'event', 'Summer Party')).toBe('summer-party-2');
    await seed('summer-party-2');
    await seed('summer-party-4');
    expect(await uniquePostSlug(store, 'event', 'Summer Party')).toBe('summer-party-3');
  });

  it('finds the first free number past many namesakes in a few queries', async () => {
    await seed('crowd');
    for (let n = 2; n <= 300; n++) if (n !== 150) await seed(`crowd-${n}`);
    const one = vi.spyOn(store.posts, 'slugTaken');
    const many = vi.spyOn(store.posts, 'slugsTaken');
    expect(await uniquePostSlug(store, 'event', 'Crowd')).toBe('crowd-150');
    await seed('crowd-150');
    const other = await seed('crowd-301');
    expect(await uniquePostSlug(store, 'event', 'Crowd')).toBe('crowd-302');
    // The post's own slug is not in its way.
    expect(await uniquePostSlug(store, 'event', 'Crowd', other)).toBe('crowd-301');
    // Each: the title's own slug, then batches of 4, 16, 64 and 256 numbers (four reach 341).
    expect(one.mock.calls.length + many.mock.calls.length).toBeLessThanOrEqual(3 * 5);
    one.mockRestore();
    many.mockRestore();
  });

  it('counts posts of every status, including trashed and drafts', async () => {
    await seed('draft-one', 'event', 'draft');
    await seed('gone', 'event', 'trash');
    expect(await uniquePostSlug(store, 'event', 'Draft one')).toBe('draft-one-2');
    expect(await uniquePostSlug(store, 'event', 'gone')).toBe('gone-2');
  });

  it('is unique per post type only', async () => {
    await seed('blue-note', 'venue');
    await seed('jazz-org', 'organizer');
    expect(await uniquePostSlug(store, 'event', 'Blue Note')).toBe('blue-note');
    expect(await uniquePostSlug(store, 'organizer', 'Blue Note')).toBe('blue-note');
    expect(await uniquePostSlug(store, 'venue', 'Blue Note')).toBe('blue-note-2');
    expect(await uniquePostSlug(store, 'venue', 'Jazz Org')).toBe('jazz-org');
  });

  it("does not count the post's own slug (exceptId)", async () => {
    const id = await seed('summer-party');
    expect(await uniquePostSlug(store, 'event', 'Summer Party', id)).toBe('summer-party');
    const other = await seed('summer-party-2');
    expect(await uniquePostSlug(store, 'event', 'Summer Party', other)).toBe('summer-party-2');
  });

  it('takes an already-made slug unchanged', async () => {
    expect(await uniquePostSlug(store, 'event', 'jam-session')).toBe('jam-session');
    expect(await uniquePostSlug(store, 'event', 'caf%c3%a9')).toBe('caf%c3%a9');
  });

  it('is "" when the text has no slug character, even when "" is taken', async () => {
    await seed('');
    expect(await uniquePostSlug(store, 'event', '')).toBe('');
    expect(await uniquePostSlug(store, 'event', '!!! ???')).toBe('');
    expect(await uniquePostSlug(store, 'event', '<b></b>')).toBe('');
  });

  it('keeps a slug of 200 characters whole, and cuts it only to fit a number (wp_unique_post_slug)', async () => {
    // Issue 29: the original keeps a given 200-character slug; this port once cut every slug to 190.
    const long = 'a'.repeat(300);
    expect(await uniquePostSlug(store, 'event', long)).toBe('a'.repeat(200));
    await seed('a'.repeat(200));
    expect(await uniquePostSlug(store, 'event', long)).toBe(`${'a'.repeat(198)}-2`);
    // Each number is fitted on its own: `-10` takes one more character than `-9`.
    for (let n = 2; n <= 9; n++) await seed(`${'a'.repeat(198)}-${n}`);
    expect(await uniquePostSlug(store, 'event', long)).toBe(`${'a'.repeat(197)}-10`);
    // A cut never ends in a dash or splits an encoded character.
    expect(await uniquePostSlug(store, 'event', `${'b'.repeat(199)} cd`)).toBe('b'.repeat(199));
    expect(await uniquePostSlug(store, 'event', `${'c'.repeat(195)}中`)).toBe('c'.repeat(195));
    expect(await uniquePostSlug(store, 'event', `${'c'.repeat(191)}中`)).toBe(`${'c'.repeat(191)}%e4%b8%ad`);
    await seed(`${'d'.repeat(197)}-e`);
    expect(await uniquePostSlug(store, 'event', `${'d'.repeat(197)}-e`)).toBe(`${'d'.repeat(197)}-2`);
  });
});

describe('trashedSlug', () => {
  it('adds `__trashed`', async () => {
    const id = await seed('party');
    expect(await trashedSlug(store, 'event', 'party', id)).toBe('party__trashed');
  });

  it('makes an empty (draft) slug `__trashed`', async () => {
    const id = await seed(null, 'event', 'draft');
    expect(await trashedSlug(store, 'event', null, id)).toBe('__trashed');
    expect(await trashedSlug(store, 'event', '', id)).toBe('__trashed');
  });

  it('numbers the suffix when another post of the type has it, from 2', async () => {
    await seed('party__trashed', 'event', 'trash');
    const id = await seed('party');
    expect(await trashedSlug(store, 'event', 'party', id)).toBe('party__trashed-2');
    await seed('party__trashed-2', 'event', 'trash');
    expect(await trashedSlug(store, 'event', 'party', id)).toBe('party__trashed-3');
  });

  it('numbers `__trashed` of empty slugs too', async () => {
    await seed('__trashed', 'event', 'trash');
    const id = await seed(null, 'event', 'draft');
    expect(await trashedSlug(store, 'event', null, id)).toBe('__trashed-2');
    await seed('__trashed-2', 'event', 'trash');
    expect(await trashedSlug(store, 'event', '', id)).toBe('__trashed-3');
  });

  it("ignores the post's own row and posts of other types", async () => {
    const id = await seed('party__trashed', 'event', 'trash');
    await seed('party__trashed', 'venue', 'trash');
    expect(await trashedSlug(store, 'event', 'party', id)).toBe('party__trashed');
    expect(await trashedSlug(store, 'organizer', 'party', id)).toBe('party__trashed');
  });

  it("keeps the first 191 characters before `__trashed`, and cuts the whole to fit a number (WordPress')", async () => {
    const slug = 'a'.repeat(200);
    const id = await seed(slug);
    const first = await trashedSlug(store, 'event', slug, id);
    expect(first).toBe(`${'a'.repeat(191)}__trashed`);
    await seed(first, 'event', 'trash');
    // wp_unique_post_slug cuts `…__trashed` itself: `_truncate_post_slug($slug, 198) . '-2'`.
    expect(await trashedSlug(store, 'event', slug, id)).toBe(`${'a'.repeat(191)}__trash-2`);
    // The cut does not end in a dash.
    expect(await trashedSlug(store, 'event', `${'b'.repeat(190)}-cd`, id)).toBe(`${'b'.repeat(190)}__trashed`);
  });

  it('keeps a slug that already ends in `__trashed`', async () => {
    const id = await seed('party__trashed');
    expect(await trashedSlug(store, 'event', 'party__trashed', id)).toBe('party__trashed');
  });
});

describe('restoredSlug', () => {
  it('removes `__trashed` (numbered or not)', async () => {
    const id = await seed('party__trashed', 'event', 'trash');
    expect(await restoredSlug(store, 'event', 'party__trashed', id)).toBe('party');
    expect(await restoredSlug(store, 'event', 'party__trashed-2', id)).toBe('party');
    expect(await restoredSlug(store, 'event', 'party__trashed-12', id)).toBe('party');
  });

  it('numbers the slug when another post of the type took it meanwhile', async () => {
    await seed('party');
    await seed('party', 'venue');
    const id = await seed('party__trashed', 'event', 'trash');
    expect(await restoredSlug(store, 'event', 'party__trashed', id)).toBe('party-2');
    await seed('party-2');
    expect(await restoredSlug(store, 'event', 'party__trashed-2', id)).toBe('party-3');
    expect(await restoredSlug(store, 'organizer', 'party__trashed', id)).toBe('party');
  });

  it('is null for a slug that was empty before the trash (`__trashed`)', async () => {
    const id = await seed('__trashed', 'event', 'trash');
    expect(await restoredSlug(store, 'event', '__trashed', id)).toBeNull();
    expect(await restoredSlug(store, 'event', '__trashed-3', id)).toBeNull();
  });

  it('keeps a slug without the suffix, and no slug, as they are', async () => {
    // (A post trashed before the suffix existed, or an untouched slug: it is already unique.)
    const id = await seed('party', 'event', 'trash');
    expect(await restoredSlug(store, 'event', 'party', id)).toBe('party');
    expect(await restoredSlug(store, 'event', 'party__trashed-x', id)).toBe('party__trashed-x');
    expect(await restoredSlug(store, 'event', 'party__trashedx', id)).toBe('party__trashedx');
    expect(await restoredSlug(store, 'event', null, id)).toBeNull();
    expect(await restoredSlug(store, 'event', '', id)).toBe('');
  });

  it('gives back the slug kept when the post was trashed, whole', async () => {
    const slug = 'a'.repeat(200);
    const id = await seed(`${'a'.repeat(191)}__trashed`, 'event', 'trash');
    expect(await restoredSlug(store, 'event', `${'a'.repeat(191)}__trashed`, id, slug)).toBe(slug);
    // Kept slugs win over the trashed one, whatever it became meanwhile.
    expect(await restoredSlug(store, 'event', 'renamed', id, 'party__trashed')).toBe('party__trashed');
  });

  it('numbers the kept slug when another post took it meanwhile, cut to fit', async () => {
    const slug = 'a'.repeat(200);
    await seed(slug);
    const id = await seed(`${'a'.repeat(191)}__trashed`, 'event', 'trash');
    expect(await restoredSlug(store, 'event', `${'a'.repeat(191)}__trashed`, id, slug)).toBe(`${'a'.repeat(198)}-2`);
  });

  it('undoes trashedSlug', async () => {
    const id = await seed('jam-session');
    const trashed = await trashedSlug(store, 'event', 'jam-session', id);
    await store.posts.update(id, { status: 'trash', slug: trashed });
    expect(await restoredSlug(store, 'event', trashed, id)).toBe('jam-session');
  });
});

describe('storedSlugForm', () => {
  it('percent-encodes non-ASCII characters in lower case', () => {
    expect(storedSlugForm('café')).toBe('caf%c3%a9');
    expect(storedSlugForm('中')).toBe('%e4%b8%ad');
    expect(storedSlugForm('plain-slug')).toBe('plain-slug');
  });
});
