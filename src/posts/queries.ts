import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import { isStoredId } from '../ids.js';
import type { Database, PostType, PostsTable } from '../store/database.js';
import type { StoreDialect } from '../store/dialects/dialect.js';
import { recountTerms, termIdsOf } from '../store/term-counts.js';

/** A stored post row. */
export type PostRow = Selectable<PostsTable>;

/** Writes and look-ups shared by every post type. */
export class PostStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: StoreDialect,
  ) {}

  /** The type of the post with this id, if there is one. */
  async typeOf(id: number): Promise<PostType | undefined> {
    if (!isStoredId(id)) return undefined;
    const row = await this.db.selectFrom('posts').select('type').where('id', '=', id).executeTakeFirst();
    return row?.type;
  }

  /** The post with this id, whatever its type. */
  async get(id: number): Promise<PostRow | undefined> {
    if (!isStoredId(id)) return undefined;
    return this.db.selectFrom('posts').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Inserts a post and returns its id. */
  insert(values: Insertable<PostsTable>): Promise<number> {
    return this.dialect.insertReturningId(this.db.insertInto('posts').values(values));
  }

  /** Changes columns of a post. */
  async update(id: number, changes: Updateable<PostsTable>): Promise<void> {
    if (!Object.keys(changes).length) return;
    await this.db.updateTable('posts').set(changes).where('id', '=', id).execute();
    // Counts are of published events: a status change moves the event's terms.
    if (changes.status !== undefined) await recountTerms(this.db, await termIdsOf(this.db, id));
  }

  /** Whether a slug is used by another post of the type. */
  async slugTaken(type: PostType, slug: string, exceptId?: number): Promise<boolean> {
    let q = this.db.selectFrom('posts').select('id').where('type', '=', type).where('slug', '=', slug);
    if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
    return (await q.executeTakeFirst()) !== undefined;
  }
}
