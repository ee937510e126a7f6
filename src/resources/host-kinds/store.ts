import { sql, type Kysely, type SqlBool } from 'kysely';
import { isStoredId } from '../../ids.js';
import type { Database } from '../../store/database.js';
import type { StoreDialect } from '../../store/dialects/dialect.js';
import { containsIgnoringCase } from '../../store/like.js';
import type { ReadOptions } from '../../store/row-lock.js';
import { searchableByPassword } from '../../posts/password-filter.js';
import type { LinkedListQuery, LinkedRow, LinkedRows } from '../linked/store.js';
import type { FieldStore } from '../../fields/store.js';
import { deletePostRows } from '../../posts/queries.js';

/** Fields `search` looks in. */
const SEARCHED = ['posts.title', 'posts.content', 'posts.excerpt'] as const;

/**
 * Queries over the items of a host's kind (`kinds` option): posts of its type, with no detail
 * table (its values are the host's fields, stored by `fields/`) and no links to events.
 */
export class HostItemStore implements LinkedRows<'none'> {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: StoreDialect,
    /** The posts' type: the kind's noun. */
    private readonly type: string,
    /** The host's field values, for the archive's field filters. */
    private readonly fieldValues: FieldStore,
  ) {}

  private rows() {
    return this.db.selectFrom('posts').selectAll('posts').where('posts.type', '=', this.type);
  }

  /** The item with this id. */
  async get(id: number, { lock = false }: ReadOptions = {}): Promise<LinkedRow<'none'> | undefined> {
    if (!isStoredId(id)) return undefined;
    const q = this.rows().where('posts.id', '=', id);
    return lock ? this.dialect.locking(q).executeTakeFirst() : q.executeTakeFirst();
  }

  /** Items by id, any order. */
  async getMany(ids: readonly number[]): Promise<LinkedRow<'none'>[]> {
    const valid = ids.filter(isStoredId);
    return valid.length ? this.rows().where('posts.id', 'in', valid).execute() : [];
  }

  /** The item with this slug. */
  bySlug(slug: string): Promise<LinkedRow<'none'> | undefined> {
    return this.rows().where('posts.slug', '=', slug).executeTakeFirst();
  }

  /** None: a host's kind does not reuse an item of the same name on create, as venues and organizers do (an upstream rule of theirs). */
  async findDuplicates(): Promise<LinkedRow<'none'>[]> {
    return [];
  }

  /** One archive page (publication date descending, then id descending) and the total. */
  async list(query: LinkedListQuery): Promise<{ rows: LinkedRow<'none'>[]; total: number }> {
    let q = this.db
      .selectFrom('posts')
      .where('posts.type', '=', this.type)
      .where('posts.status', 'in', query.statuses.length ? [...query.statuses] : ['__none__']);
    if (query.searchFragments) {
      const fragments = query.searchFragments;
      if (!fragments.length) q = q.where(sql<SqlBool>`1 = 0`);
      const scope = query.searchPasswords ?? 'none';
      if (scope !== 'all') q = q.where(searchableByPassword(scope));
      q = q
        .where('posts.status', 'not in', ['trash', 'auto-draft'])
        .where((eb) => eb.or(SEARCHED.map((col) => eb.and(fragments.map((f) => containsIgnoringCase(sql.ref(col), f))))));
    }
    for (const filter of query.fields ?? []) q = q.where(this.fieldValues.matches('posts.id', filter));
    const { n } = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const rows = await q.selectAll('posts').orderBy('posts.date', 'desc').orderBy('posts.id', 'desc').limit(query.limit).offset(query.offset).execute();
    return { rows, total: Number(n) };
  }

  /** Nothing to insert: the kind has no detail table. */
  async insertDetails(): Promise<void> {}

  /** Nothing to change: the kind has no detail table. */
  async updateDetails(): Promise<void> {}

  /** None: a host's kind is not linked to events. */
  async unlinkFromEvents(): Promise<number[]> {
    return [];
  }

  /** Deletes the item for good, with its categories and tags and its field values; no event leaves it. */
  async deletePermanently(postId: number): Promise<number[]> {
    await deletePostRows(this.db, postId);
    return [];
  }
}
