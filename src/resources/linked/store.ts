import { sql, type ExpressionBuilder, type Kysely, type Selectable, type SqlBool } from 'kysely';
import { isStoredId } from '../../ids.js';
import type { Database, OrganizersTable, PostsTable, VenuesTable } from '../../store/database.js';
import type { SearchablePasswords } from '../../posts/password.js';
import type { StoreDialect } from '../../store/dialects/dialect.js';
import { dialectOf } from '../../store/dialects/index.js';
import { containsIgnoringCase, foldCase } from '../../store/like.js';
import type { ReadOptions } from '../../store/row-lock.js';
import { searchableByPassword } from '../../posts/password-filter.js';
import type { GeoFilter } from '../../geo/area.js';
import { geoCondition } from '../../store/geo-filter.js';
import { PreparedQuery } from '../../store/prepared.js';
import { deletePostRows } from '../../posts/queries.js';
import type { FieldFilter, FieldStore } from '../../fields/store.js';

/** The detail tables of the two linked-post kinds. */
export type LinkedTable = 'venues' | 'organizers';

/** Where a post kind of the shared rules keeps its details: a linked kind's table, or none (a host's kind: its fields are its details). */
export type ItemTable = LinkedTable | 'none';

/** Detail columns by table (without the key). */
export type DetailsOf<T extends ItemTable> = Omit<
  Selectable<T extends 'venues' ? VenuesTable : T extends 'organizers' ? OrganizersTable : NoDetails>,
  'post_id'
>;

/** The details of a kind with no detail table: only the key every detail row has. */
interface NoDetails {
  post_id: number;
}

/** A post joined with its details. */
export type LinkedRow<T extends ItemTable> = Selectable<PostsTable> & DetailsOf<T>;

/** The queries the shared rules of post kinds run (`linked/service.ts`), whichever table holds the details. */
export interface LinkedRows<T extends ItemTable> {
  get(id: number, options?: ReadOptions): Promise<LinkedRow<T> | undefined>;
  getMany(ids: readonly number[]): Promise<LinkedRow<T>[]>;
  bySlug(slug: string): Promise<LinkedRow<T> | undefined>;
  findDuplicates(title: string, content: string | undefined, limit: number): Promise<LinkedRow<T>[]>;
  list(query: LinkedListQuery): Promise<{ rows: LinkedRow<T>[]; total: number }>;
  insertDetails(postId: number, details: DetailsOf<T>): Promise<void>;
  updateDetails(postId: number, details: Partial<DetailsOf<T>>): Promise<void>;
  unlinkFromEvents(postId: number): Promise<number[]>;
  deletePermanently(postId: number): Promise<number[]>;
}

/** What a venue or organizer archive asks for. */
export interface LinkedListQuery {
  statuses: readonly string[];
  offset: number;
  limit: number;
  /** Fragments of `search`: an item matches when one of its fields contains them all. */
  searchFragments?: string[];
  /** Which password-protected items `search` may find. */
  searchPasswords?: SearchablePasswords;
  eventId?: number;
  /** `true`: linked to a non-draft event; `false`: not linked to one. */
  hasEvents?: boolean;
  /** Only items linked to a listed event in one of `statuses` starting at or after `afterUtc`. */
  upcoming?: { afterUtc: string; statuses: readonly string[] };
  /**
   * `geoloc` (venues): items with coordinates, within the filter's area when it has one; the
   * password-protected ones only where `nearPasswords` lets the caller see their coordinates.
   */
  near?: GeoFilter;
  nearPasswords?: SearchablePasswords;
  /** Tests of the fields a host declared (`fields/`), all of which an item passes. */
  fields?: readonly FieldFilter[];
}

type Eb = ExpressionBuilder<Database, 'posts'>;

/** The posts of a linked kind joined with their details. */
function linkedPosts(db: Kysely<Database>, table: LinkedTable, type: 'venue' | 'organizer') {
  // One typed detail table stands for both: they share the `post_id` key.
  return db
    .selectFrom('posts')
    .innerJoin(`${table as 'venues'} as d`, 'd.post_id', 'posts.id')
    .where('posts.type', '=', type);
}

/** The posts of a linked kind with every column of the post and of its details. */
const linkedRows = (db: Kysely<Database>, table: LinkedTable, type: 'venue' | 'organizer') => linkedPosts(db, table, type).selectAll('posts').selectAll('d');

/** A prepared query of each linked kind's rows, narrowed alike. */
function perKind<V extends object>(narrow: (rows: ReturnType<typeof linkedRows>, v: V, dialect: StoreDialect) => ReturnType<typeof linkedRows>) {
  return {
    venues: new PreparedQuery((db, v: V) => narrow(linkedRows(db, 'venues', 'venue'), v, dialectOf(db))),
    organizers: new PreparedQuery((db, v: V) => narrow(linkedRows(db, 'organizers', 'organizer'), v, dialectOf(db))),
  };
}

/** An item by id with its details, per kind. */
const BY_ID = perKind((rows, v: { id: number }) => rows.where('posts.id', '=', v.id));
/** The same, a locking read: the query a write of the item re-reads it with. */
const LOCKED_BY_ID = perKind((rows, v: { id: number }, dialect) => dialect.locking(rows.where('posts.id', '=', v.id)));
/** The same, locked in shared mode: the query an event write reads the items it links with. */
const SHARED_BY_ID = perKind((rows, v: { id: number }, dialect) => dialect.sharing(rows.where('posts.id', '=', v.id)));
/** An item by slug with its details, per kind. */
const BY_SLUG = perKind((rows, v: { slug: string }) => rows.where('posts.slug', '=', v.slug));
/** Items by ids with their details, per kind: those a page of events shows. */
const BY_IDS = perKind((rows, v: { ids: number[] }) => rows.where('posts.id', 'in', v.ids));
/**
 * The same, locked in shared mode and in the order of their ids: the organizers an event write
 * links, locked in one statement in one order (see `SHARED_BY_ID`).
 */
const SHARED_BY_IDS = perKind((rows, v: { ids: number[] }, dialect) => dialect.sharing(rows.where('posts.id', 'in', v.ids).orderBy('posts.id')));

/** Queries over venues or organizers: the post row plus its detail row. */
export class LinkedPostStore<T extends LinkedTable> implements LinkedRows<T> {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly table: T,
    private readonly type: 'venue' | 'organizer',
    /** Columns searched by `search`, as `posts.x` or `d.x`. */
    private readonly searchColumns: readonly string[],
    /** The host's field values, for the archive's field filters. */
    private readonly fieldValues: FieldStore,
  ) {}

  private base() {
    return linkedPosts(this.db, this.table, this.type);
  }

  private rows() {
    return linkedRows(this.db, this.table, this.type);
  }

  /** The item with this id. */
  async get(id: number, { lock = false }: ReadOptions = {}): Promise<LinkedRow<T> | undefined> {
    if (!isStoredId(id)) return undefined;
    return (await (lock === 'share' ? SHARED_BY_ID : lock ? LOCKED_BY_ID : BY_ID)[this.table].first(this.db, { id })) as LinkedRow<T> | undefined;
  }

  /** Items by id, any order; locked in shared mode (`lock: 'share'`), in the order of their ids. */
  async getMany(ids: readonly number[], { lock = false }: { lock?: false | 'share' } = {}): Promise<LinkedRow<T>[]> {
    const valid = ids.filter(isStoredId);
    if (!valid.length) return [];
    return (await (lock === 'share' ? SHARED_BY_IDS : BY_IDS)[this.table].rows(this.db, { ids: valid })) as LinkedRow<T>[];
  }

  /** The item with this slug. */
  async bySlug(slug: string): Promise<LinkedRow<T> | undefined> {
    return (await BY_SLUG[this.table].first(this.db, { slug })) as LinkedRow<T> | undefined;
  }

  /**
   * Non-trashed items with this title and, when given, this content, both in any case (as
   * MySQL's default collation compares them upstream): the first `limit` by id.
   */
  async findDuplicates(title: string, content: string | undefined, limit: number): Promise<LinkedRow<T>[]> {
    // The same text always matches, even where `foldCase` gives up on too many letters.
    const sameText = (column: 'posts.title' | 'posts.content', text: string) => {
      const wanted = text.toLowerCase();
      return sql<SqlBool>`(${sql.ref(column)} = ${text} or lower(${foldCase(sql.ref(column), wanted)}) = ${wanted})`;
    };
    let q = this.rows().where('posts.status', 'not in', ['trash', 'auto-draft']).where(sameText('posts.title', title));
    if (content !== undefined) q = q.where(sameText('posts.content', content));
    return (await q.orderBy('posts.id').limit(limit).execute()) as LinkedRow<T>[];
  }

  /** Whether the slug is used by another item of this kind. */
  async slugTaken(slug: string, exceptId?: number): Promise<boolean> {
    let q = this.db.selectFrom('posts').select('id').where('type', '=', this.type).where('slug', '=', slug);
    if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
    return (await q.executeTakeFirst()) !== undefined;
  }

  /** Ids of the events linked to the item of the outer query. */
  private linkedEvents(eb: Eb) {
    const item = sql.ref<number>('posts.id');
    return this.table === 'venues'
      ? eb.selectFrom('events as le').select('le.post_id as event_id').where('le.venue_id', '=', item)
      : eb.selectFrom('event_organizers as lo').select('lo.event_id as event_id').where('lo.organizer_id', '=', item);
  }

  /** Ids of the items linked to one event. */
  private linkedTo(eb: Eb, eventId: number) {
    return this.table === 'venues'
      ? eb.selectFrom('events as te').select('te.venue_id as item_id').where('te.post_id', '=', eventId)
      : eb.selectFrom('event_organizers as to').select('to.organizer_id as item_id').where('to.event_id', '=', eventId);
  }

  private filters(query: LinkedListQuery) {
    let q = this.base().where('posts.status', 'in', query.statuses.length ? [...query.statuses] : ['__none__']);
    if (query.searchFragments) {
      const fragments = query.searchFragments;
      if (!fragments.length) return q.where(sql<SqlBool>`1 = 0`);
      const scope = query.searchPasswords ?? 'none';
      if (scope !== 'all') q = q.where(searchableByPassword(scope));
      q = q
        .where('posts.status', 'not in', ['trash', 'auto-draft'])
        .where((eb) => eb.or(this.searchColumns.map((col) => eb.and(fragments.map((f) => containsIgnoringCase(sql.ref(col), f))))));
    }
    for (const filter of query.fields ?? []) q = q.where(this.fieldValues.matches('posts.id', filter));
    if (query.near) {
      q = q.where(geoCondition('d.geo_lat', 'd.geo_lng', query.near));
      const scope = query.nearPasswords ?? 'none';
      if (scope !== 'all') q = q.where(searchableByPassword(scope));
    }
    if (query.eventId !== undefined) {
      const eventId = query.eventId;
      q = q.where('posts.id', 'in', (eb) => this.linkedTo(eb, eventId));
    }
    if (query.hasEvents !== undefined) {
      const withEvents = (eb: Eb) =>
        eb.exists(
          eb
            .selectFrom('posts as ep')
            .select('ep.id')
            .where('ep.id', 'in', this.linkedEvents(eb))
            .where('ep.status', 'not in', ['draft', 'pending', 'auto-draft']),
        );
      q = q.where((eb) => (query.hasEvents ? withEvents(eb) : eb.not(withEvents(eb))));
    }
    if (query.upcoming !== undefined) {
      const { afterUtc: after, statuses } = query.upcoming;
      q = q.where((eb) =>
        eb.exists(
          eb
            .selectFrom('posts as up')
            .innerJoin('events as ue', 'ue.post_id', 'up.id')
            .select('up.id')
            .where('up.id', 'in', this.linkedEvents(eb))
            .where('up.status', 'in', statuses)
            .where('ue.hidden', '=', 0)
            .where('ue.start_utc', '>=', after),
        ),
      );
    }
    return q;
  }

  /** One archive page (publication date descending, then id descending) and the total. */
  async list(query: LinkedListQuery): Promise<{ rows: LinkedRow<T>[]; total: number }> {
    const filtered = this.filters(query);
    const { n } = await filtered.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const rows = await filtered
      .selectAll('posts')
      .selectAll('d')
      .orderBy('posts.date', 'desc')
      .orderBy('posts.id', 'desc')
      .limit(query.limit)
      .offset(query.offset)
      .execute();
    return { rows: rows as LinkedRow<T>[], total: Number(n) };
  }

  /** Inserts the detail row of a new post. */
  async insertDetails(postId: number, details: DetailsOf<T>): Promise<void> {
    await this.db
      .insertInto(this.table as 'venues')
      .values({ post_id: postId, ...(details as DetailsOf<'venues'>) })
      .execute();
  }

  /** Changes detail columns. */
  async updateDetails(postId: number, details: Partial<DetailsOf<T>>): Promise<void> {
    if (!Object.keys(details).length) return;
    await this.db
      .updateTable(this.table as 'venues')
      .set(details as Partial<DetailsOf<'venues'>>)
      .where('post_id', '=', postId)
      .execute();
  }

  /** Removes the item's links to events (when it is trashed or deleted); the events it leaves. */
  async unlinkFromEvents(postId: number): Promise<number[]> {
    if (this.table === 'venues') {
      const events = await this.db.selectFrom('events').select('post_id').where('venue_id', '=', postId).execute();
      if (events.length) await this.db.updateTable('events').set({ venue_id: null }).where('venue_id', '=', postId).execute();
      return events.map((e) => Number(e.post_id));
    }
    const events = await this.db.selectFrom('event_organizers').select('event_id').where('organizer_id', '=', postId).execute();
    if (events.length) await this.db.deleteFrom('event_organizers').where('organizer_id', '=', postId).execute();
    return [...new Set(events.map((e) => Number(e.event_id)))];
  }

  /** Deletes the item for good; the events it leaves. */
  async deletePermanently(postId: number): Promise<number[]> {
    const events = await this.unlinkFromEvents(postId);
    await this.db
      .deleteFrom(this.table as 'venues')
      .where('post_id', '=', postId)
      .execute();
    await deletePostRows(this.db, postId);
    return events;
  }
}
