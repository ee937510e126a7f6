/**
 * What WordPress' own collections tell beside the API. The original registers its post types
 * there (`wp/v2/tribe_events`, `wp/v2/tribe_venue`, `wp/v2/tribe_organizer`), where two things
 * the v1 API never shows can be read: events hidden from listings (the v1 archive leaves them
 * out, even through `include`) and which items are password-protected, with their password for
 * an account that may edit them (`context=edit`). Those collections may be missing (the
 * original registers some only with the block editor on) or refused to the account: the
 * import then goes without, and says so.
 */
import type { CollectionFacts, ImportedPostKind, ListedItem } from './types.js';
import { SourceError, type Source } from './source.js';

/** The WordPress collection of each kind. */
const COLLECTIONS: Record<ImportedPostKind, string> = { event: 'tribe_events', venue: 'tribe_venue', organizer: 'tribe_organizer' };

/** `2026-11-27T20:30:08` (WordPress' `modified_gmt`) as the v1 API writes it. */
const wallClock = (value: unknown) => (typeof value === 'string' ? value.replace('T', ' ').slice(0, 19) : undefined);

/** One item of a collection's answer, if it has the shape of one. */
function listed(item: unknown, withPasswords: boolean): [number, ListedItem] | undefined {
  if (typeof item !== 'object' || item === null) return undefined;
  const { id, password, content, modified_gmt } = item as { id?: unknown; password?: unknown; content?: { protected?: unknown }; modified_gmt?: unknown };
  if (!Number.isSafeInteger(id)) return undefined;
  if (withPasswords)
    return typeof password === 'string' ? [id as number, { password, protected: password !== '', modified: wallClock(modified_gmt) }] : undefined;
  return [id as number, { protected: content?.protected === true, modified: wallClock(modified_gmt) }];
}

/**
 * Reads a kind's WordPress collection, by id: signed in, with `statuses` and `context=edit`
 * (ids and passwords), else (or when that is refused) what the public sees (ids and which
 * items are protected). A message instead when the source has no such collection, refuses
 * it, or fails on one of its pages.
 */
export async function readCollection(source: Source, kind: ImportedPostKind, statuses: string | undefined): Promise<CollectionFacts | string> {
  const read = async (withPasswords: boolean): Promise<CollectionFacts | string> => {
    const query: Record<string, string> = withPasswords
      ? { context: 'edit', _fields: 'id,password,modified_gmt', orderby: 'id', order: 'asc', ...(statuses ? { status: statuses } : {}) }
      : { _fields: 'id,content.protected,modified_gmt', orderby: 'id', order: 'asc' };
    const facts: CollectionFacts = { kind, items: new Map(), passwords: withPasswords };
    try {
      for await (const page of source.wordpressPages(COLLECTIONS[kind], query)) {
        if (page.failure) return page.failure.message;
        for (const item of page.items) {
          const entry = listed(item, withPasswords);
          if (withPasswords && !entry && typeof item === 'object' && item !== null) return `wp/v2/${COLLECTIONS[kind]} shows no passwords to this account`;
          if (entry) facts.items.set(...entry);
        }
      }
    } catch (e) {
      return e instanceof Error ? e.message : String(e);
    }
    return facts;
  };
  if (!source.signedIn) return read(false);
  const full = await read(true);
  if (typeof full !== 'string') return full;
  // An account that may not edit the kind still learns which items are protected.
  const open = await read(false);
  return typeof open === 'string' ? full : open;
}

/**
 * The password an item the v1 API showed unlocked (`context=edit`) must keep here: `''` for
 * none. What the collection listed holds while the item is unchanged since; an item changed
 * since (a password set during the run) or not listed (pages shifted) is asked for by itself.
 * `undefined` when that fails: the item must not be written without knowing.
 */
export async function passwordOf(source: Source, facts: CollectionFacts, id: number, modifiedUtc: string): Promise<string | undefined> {
  const known = facts.items.get(id);
  if (known?.password !== undefined && known.modified === modifiedUtc) return known.password;
  try {
    const answer = await source.wordpressItem(COLLECTIONS[facts.kind], id, { context: 'edit', _fields: 'id,password,modified_gmt' });
    const entry = listed(answer, true);
    return entry?.[1].password;
  } catch (e) {
    if (e instanceof SourceError) return undefined;
    throw e;
  }
}
