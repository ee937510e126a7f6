/**
 * The record of what a feed's entries became (`feed_items`): per feed, the event, occurrence,
 * venue or organizer each entry was written as, a digest of what was written and the item's
 * modification date after the write. A feed is keyed by its URL or file; an entry by a hash of
 * its UID and RECURRENCE-ID, which may be of any length.
 */
import { hash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, FeedItemsTable } from '../store/database.js';

/** The widest feed key stored as it is (the column's width). */
const FEED_KEY_MAX = 190;

/** SHA-256 of a text, in hex. */
export const sha256 = (text: string) => hash('sha256', text, 'hex');

/** The key of a feed in the record: its URL or absolute path, hashed when it is longer than the column. */
export function feedKey(source: string): string {
  return source.length <= FEED_KEY_MAX ? source : `sha256:${sha256(source)}`;
}

/** The kinds of items a feed's entries become. */
export type FeedItemKind = 'event' | 'occurrence' | 'venue' | 'organizer';

/** The key of an entry: its UID and RECURRENCE-ID (`''` for a whole event), or a linked item's kind and name. */
export function itemKey(kind: FeedItemKind, uid: string, recurrenceId = ''): string {
  return sha256(`${kind === 'occurrence' ? 'event' : kind}\n${uid}\n${recurrenceId}`);
}

/** One entry's record. */
export type FeedItem = Omit<FeedItemsTable, 'feed'>;

/** The records of one feed. */
export class FeedRecords {
  constructor(
    private readonly db: Kysely<Database>,
    readonly feed: string,
  ) {}

  /** Every record of the feed, by item key. */
  async all(): Promise<Map<string, FeedItem>> {
    const rows = await this.db.selectFrom('feed_items').selectAll().where('feed', '=', this.feed).execute();
    return new Map(rows.map(({ feed: _feed, ...row }) => [row.item_key, row]));
  }

  /** Records what an entry became, replacing an earlier record of it. */
  async save(item: FeedItem): Promise<void> {
    await this.remove(item.item_key);
    await this.db
      .insertInto('feed_items')
      .values({ feed: this.feed, ...item })
      .execute();
  }

  /** Forgets an entry. */
  async remove(key: string): Promise<void> {
    await this.db.deleteFrom('feed_items').where('feed', '=', this.feed).where('item_key', '=', key).execute();
  }
}
