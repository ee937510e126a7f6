import type { Kysely, Selectable } from 'kysely';
import { isStoredId, storedIds } from '../ids.js';
import type { AttachmentsTable, Database } from '../store/database.js';
import { PreparedQuery } from '../store/prepared.js';

/** A stored image attachment. */
export type AttachmentRow = Selectable<AttachmentsTable>;

/** Attachments by ids: the images of a page of items. */
const BY_IDS = new PreparedQuery((db, v: { ids: number[] }) => db.selectFrom('attachments').selectAll().where('post_id', 'in', v.ids));

/** Image attachments (featured images of events, venues and organizers). */
/** What image records need of a store (a transaction's, or the calendar's): its attachments. */
export interface AttachmentsAccess {
  attachments: AttachmentStore;
}

export class AttachmentStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** The attachment with this post id. */
  async get(id: number): Promise<AttachmentRow | undefined> {
    if (!isStoredId(id)) return undefined;
    return this.db
      .selectFrom('attachments')
      .innerJoin('posts', 'posts.id', 'attachments.post_id')
      .selectAll('attachments')
      .where('posts.type', '=', 'attachment')
      .where('attachments.post_id', '=', id)
      .executeTakeFirst();
  }

  /** Attachments by id, any order. */
  async getMany(ids: readonly number[]): Promise<AttachmentRow[]> {
    const valid = storedIds(ids);
    if (!valid.length) return [];
    return BY_IDS.rows(this.db, { ids: valid });
  }

  /** An attachment already made from this URL. */
  async byUrl(url: string): Promise<AttachmentRow | undefined> {
    return this.db.selectFrom('attachments').selectAll().where('url', '=', url).executeTakeFirst();
  }

  /** Records the details of a new attachment post. */
  async insert(row: AttachmentRow): Promise<void> {
    await this.db.insertInto('attachments').values(row).execute();
  }
}
