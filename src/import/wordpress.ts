/**
 * What WordPress' own collections tell beside the API. The original registers its post types
 * there (`wp/v2/tribe_events`, `wp/v2/tribe_venue`, `wp/v2/tribe_organizer`), where two things
 * the v1 API never shows can be read: events hidden from listings (the v1 archive leaves them
 * out, even through `include`) and which items are password-protected, with their password for
 * an account that may edit them (`context=edit`).
 */
import type { ImportedPostKind } from './run.js';
import type { Source } from './source.js';

/** The WordPress collection of each kind. */
const COLLECTIONS: Record<ImportedPostKind, string> = { event: 'tribe_events', venue: 'tribe_venue', organizer: 'tribe_organizer' };

/** What a kind's collection told. */
export interface CollectionFacts {
  /** Every id listed (with the statuses asked for). */
  ids: number[];
  /** Protected items: their password, or `null` when it was not shown (read anonymously). */
  protection: Map<number, string | null>;
  /** Whether every password was shown, so that the v1 API may be asked to unlock items (`context=edit`). */
  passwords: boolean;
}

/**
 * Reads a kind's WordPress collection: signed in, with `statuses` and `context=edit` (ids and
 * passwords); anonymously, what the public sees (ids and which items are protected). A message
 * instead when the source has no such collection, refuses it, or fails on one of its pages.
 */
export async function readCollection(source: Source, kind: ImportedPostKind, statuses: string | undefined): Promise<CollectionFacts | string> {
  const query: Record<string, string> = source.signedIn ? { context: 'edit', _fields: 'id,password', ...(statuses ? { status: statuses } : {}) } : { _fields: 'id,content.protected' };
  const facts: CollectionFacts = { ids: [], protection: new Map(), passwords: source.signedIn };
  try {
    for await (const page of source.wordpressPages(COLLECTIONS[kind], query)) {
      if (page.failure) return page.failure.message;
      for (const item of page.items) {
        if (typeof item !== 'object' || item === null) continue;
        const { id, password, content } = item as { id?: unknown; password?: unknown; content?: { protected?: unknown } };
        if (!Number.isSafeInteger(id)) continue;
        facts.ids.push(id as number);
        if (source.signedIn) {
          if (typeof password !== 'string') return `wp/v2/${COLLECTIONS[kind]} shows no passwords to this account`;
          if (password !== '') facts.protection.set(id as number, password);
        } else if (content?.protected === true) {
          facts.protection.set(id as number, null);
        }
      }
    }
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
  return facts;
}
