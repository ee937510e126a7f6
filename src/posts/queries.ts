import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import { isStoredId, storedIds } from '../ids.js';
import type { Database, PostType, PostsTable } from '../store/database.js';
import type { StoreDialect } from '../store/dialects/dialect.js';
import { adjustTermCounts, termIdsOf } from '../store/term-counts.js';
import { PreparedInsert, PreparedQuery } from '../store/prepared.js';

/** A post's type by id: the check of every id an event write names. */
const TYPE_OF = new PreparedQuery((db, v: { id: number }) => db.selectFrom('posts').select('type').where('id', '=', v.id));
/** Several posts' types at once: the ids an event's venue and organizers name. */
const TYPES_OF = new PreparedQuery((db, v: { ids: readonly number[] }) => db.selectFrom('posts').select(['id', 'type']).where('id', 'in', v.ids));
/** A new post. */
const INSERT = new PreparedInsert((db, v: Insertable<PostsTable>) => db.insertInto('posts').values(v));
/** Which of some slugs are taken in a type but for one post (`except` 0: none): the free slug of a new or edited post. */
const SLUGS_TAKEN = new PreparedQuery((db, v: { type: PostType; slugs: readonly string[]; except: number }) =>
  db.selectFrom('posts').select('slug').where('type', '=', v.type).where('slug', 'in', v.slugs).where('id', '!=', v.except),
);

/** A stored post row. */
export type PostRow = Selectable<PostsTable>;

/** Writes and look-ups shared by every post type. */
/** What the post lifecycle needs of a store (a transaction's, or the calendar's): its posts. */
export interface PostsAccess {
  posts: PostStore;
}

export class PostStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: StoreDialect,
  ) {}

  /** The type of the post with this id, if there is one. */
  async typeOf(id: number): Promise<PostType | undefined> {
    if (!isStoredId(id)) return undefined;
    return (await TYPE_OF.first(this.db, { id }))?.type;
  }

  /** The type of each post with these ids (`undefined` where there is none), in one query. */
  async typesOf(ids: readonly number[]): Promise<Map<number, PostType | undefined>> {
    const stored = storedIds(ids);
    const found = stored.length ? await TYPES_OF.rows(this.db, { ids: stored }) : [];
    const types = new Map<number, PostType | undefined>(ids.map((id) => [id, undefined]));
    for (const row of found) types.set(row.id, row.type);
    return types;
  }

  /** The post with this id, whatever its type. */
  async get(id: number): Promise<PostRow | undefined> {
    if (!isStoredId(id)) return undefined;
    return this.db.selectFrom('posts').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Inserts a post and returns its id. */
  insert(values: Insertable<PostsTable>): Promise<number> {
    return INSERT.execute(this.db, this.dialect, values);
  }

  /** Changes columns of a post. */
  async update(id: number, changes: Updateable<PostsTable>): Promise<void> {
    if (!Object.keys(changes).length) return;
    // Counts are of published events: an event entering or leaving `publish` moves its terms'.
    // The row is read locked, so that two writes moving the same event count it once.
    const before =
      changes.status !== undefined
        ? await this.dialect.locking(this.db.selectFrom('posts').select(['type', 'status']).where('id', '=', id)).executeTakeFirst()
        : undefined;
    await this.db.updateTable('posts').set(changes).where('id', '=', id).execute();
    if (before?.type === 'event' && (before.status === 'publish') !== (changes.status === 'publish')) {
      await adjustTermCounts(this.db, await termIdsOf(this.db, id, this.dialect), changes.status === 'publish' ? 1 : -1);
    }
  }

  /** Whether a slug is used by another post of the type. */
  async slugTaken(type: PostType, slug: string, exceptId?: number): Promise<boolean> {
    return (await SLUGS_TAKEN.rows(this.db, { type, slugs: [slug], except: exceptId ?? 0 })).length > 0;
  }

  /**
   * Those of `slugs` used by another post of the type, in lower case: the database compares them
   * as `slugTaken` does (on MariaDB, without regard to case), and its answer is matched back so.
   */
  async slugsTaken(type: PostType, slugs: readonly string[], exceptId?: number): Promise<Set<string>> {
    const rows = await SLUGS_TAKEN.rows(this.db, { type, slugs, except: exceptId ?? 0 });
    return new Set(rows.map((r) => (r.slug ?? '').toLowerCase()));
  }
}

/**
 * Deletes a post row for good with what every post has beside it: its category and tag links and
 * the host's field values (a later item may be given its id: SQLite reuses the last). A kind's
 * own rows (details, links to events) go first, in the same transaction.
 */
export async function deletePostRows(db: Kysely<Database>, postId: number): Promise<void> {
  await db.deleteFrom('term_relationships').where('post_id', '=', postId).execute();
  await db.deleteFrom('field_values').where('family', '=', 'post').where('item_id', '=', postId).execute();
  await db.deleteFrom('posts').where('id', '=', postId).execute();
}
