import { hash } from 'node:crypto';
import {
  sql,
  type ExpressionBuilder,
  type Insertable,
  type InsertObject,
  type Kysely,
  type Selectable,
  type SelectQueryBuilder,
  type Updateable,
} from 'kysely';
import { isStoredId } from '../../ids.js';
import type { Database, EventsTable, PostsTable, Taxonomy } from '../../store/database.js';
import type { SearchablePasswords } from '../../posts/password.js';
import type { SearchWords } from '../../text/search-terms.js';
import { searchableByPassword } from '../../posts/password-filter.js';
import type { StoreDialect } from '../../store/dialects/dialect.js';
import { dialectOf } from '../../store/dialects/index.js';
import { containsIgnoringCase } from '../../store/like.js';
import type { ReadOptions } from '../../store/row-lock.js';
import { adjustTermCounts, termIdsOf } from '../../store/term-counts.js';
import { VersionedValues } from '../../store/version.js';
import { VersionedItems } from '../../cache/versioned-items.js';
import type { FieldFilter, FieldStore } from '../../fields/store.js';
import type { GeoFilter } from '../../geo/area.js';
import { geoCondition } from '../../store/geo-filter.js';
import { indexedParts, type SearchIndex } from '../../store/search-index.js';
import { countTooSlow, searchTooBroad } from './errors.js';
import { toTermRow, type TermRow } from '../terms/store.js';
import type { TermRefs } from '../terms/named.js';
import { PreparedQuery } from '../../store/prepared.js';
import { readAside, SideReadTimeout } from '../../store/side-reader.js';

/** Which occurrence of a series an event row shows (`occurrences`). */
export interface OccurrenceRef {
  seriesId: number;
  /** The event whose content it shows: the series, or the event overriding this occurrence. */
  contentId: number;
  /** Its key within the series (iCalendar's RECURRENCE-ID), a wall clock of the series' zone. */
  originalStart: string;
  cancelled: boolean;
}

/**
 * An event: its post row joined with its details. An occurrence of a series reads as one, with
 * its own id and times, the content of the series (or of its override) and the series' slug.
 */
export type EventRow = Selectable<PostsTable> & Omit<Selectable<EventsTable>, 'post_id'> & { occurrence?: OccurrenceRef };

/** An event this write has just inserted: it has no links yet, and its status is known. */
export interface NewEvent {
  status: string;
}

/**
 * What an archive page needs of an event besides its JSON: who may unlock it (see
 * `EventService.can`), and for an occurrence its series (`of_series`, 0 or absent for others).
 */
export type EventKey = Pick<EventRow, 'id' | 'author' | 'status' | 'status_before_trash' | 'password'> & { of_series?: number };

/** Event details without the key. */
export type EventDetails = Omit<Insertable<EventsTable>, 'post_id'>;

/** What an events archive asks for; bounds are local wall clocks. */
export interface EventListQuery {
  statuses: readonly string[];
  offset: number;
  limit: number;
  startsOnOrAfter?: string;
  endsOnOrBefore?: string;
  startsBefore?: string;
  startsAfter?: string;
  endsBefore?: string;
  endsAfter?: string;
  search?: SearchWords;
  /** Which password-protected events `search` may find. */
  searchPasswords?: SearchablePasswords;
  /** Most events `search` may test on SQLite (`limits.searchTests`); unbounded when absent. */
  searchTests?: number;
  /** Longest the total may take to count where the count can be stopped (`limits.countMs`); unbounded when absent. */
  countMs?: number;
  categoryIds?: readonly number[];
  tagIds?: readonly number[];
  venueIds?: readonly number[];
  organizerIds?: readonly number[];
  /**
   * `geoloc`: events whose venue shows coordinates (an occurrence's venue is its shown event's:
   * the series', or its override's), within the filter's area when it has one.
   */
  near?: GeoFilter;
  /**
   * What `near` keeps, read first by {@link EventStore.list} (`null`: more venues than it lists,
   * the filter then stays a subquery).
   */
  nearListed?: NearListed | null;
  /** Tests of the fields a host declared (`fields/`), all of which an event passes. */
  fields?: readonly FieldFilter[];
  featured?: boolean;
  include?: readonly number[];
  parent?: number;
  /** `include` lists order by publication date; others by start. */
  orderByPublication: boolean;
  /**
   * Trashed events instead, which had one of `statuses` before and were trashed at or after
   * `since` (a UTC wall clock; trashing sets the modification date): the cancellations of the
   * iCalendar feed. None with a `search`: see {@link EventStore.list}.
   */
  trashed?: { since: string };
}

const validIds = (ids: readonly number[]) => ids.filter(isStoredId);

/** The tables as a distance filter's venue query names them. */
type NearDatabase = Database & { gv: Database['venues']; gp: Database['posts'] };

/** The venues a distance filter keeps, and the recurring events held there (`null`: too many to list). */
interface NearListed {
  venues: readonly number[];
  contents: readonly number[] | null;
}

/** Most venues a distance filter lists by id; beyond, the events are filtered by a subquery. */
const NEAR_LISTED = 500;

/**
 * The ids of the venues near (`gv`, with their posts as `gp`) that show their coordinates to
 * event readers: a password-protected venue's are hidden (its embedded JSON shows 0), so it is never near.
 */
function openVenuesNear(query: SelectQueryBuilder<NearDatabase, 'gv' | 'gp', object>, near: GeoFilter) {
  return query
    .select('gv.post_id')
    .where(geoCondition('gv.geo_lat', 'gv.geo_lng', near))
    .where((w) => w.or([w('gp.password', 'is', null), w('gp.password', '=', '')]));
}

/** A search with at most this many matches reads its page from the search index's candidates. */
const FEW_MATCHES = 1_000;

/** Beside a venue or ids filter, a search whose index gives more candidates than this reads that filter's events instead (SQLite). */
const FEW_CANDIDATES = 256;

/** How a query uses the search index: the parts of its words it looks up, and whether it reads from the candidates (rather than walking the listing index in start order). */
interface SearchPlan {
  parts: readonly string[];
  fromCandidates: boolean;
}

/** Keys of archive pages kept per store version, all pages together. */
const PAGE_KEYS = 20_000;

/** Event posts with their details; `hideType`: with the type's index hidden from SQLite's planner (see `EventStore.hidesListing`). */
function eventPosts(db: Kysely<Database>, hideType = false) {
  const type = hideType ? sql<string>`+${sql.ref('posts.type')}` : sql.ref<string>('posts.type');
  return db.selectFrom('posts').innerJoin('events', 'events.post_id', 'posts.id').where(type, '=', 'event');
}

/** Event posts with every column of the post and of its details. */
const eventRows = (db: Kysely<Database>) => eventPosts(db).selectAll('posts').selectAll('events');

/** An event by id with its details: the query single reads and writes read an event with. */
const EVENT_BY_ID = new PreparedQuery((db, v: { id: number }) => eventRows(db).where('posts.id', '=', v.id));
/** An event by slug with its details (`/events/by-slug/…`). */
const EVENT_BY_SLUG = new PreparedQuery((db, v: { slug: string }) => eventRows(db).where('posts.slug', '=', v.slug));
/** Events by ids with their details: a page's, read once its keys are known. */
const EVENTS_BY_IDS = new PreparedQuery((db, v: { ids: number[] }) => eventRows(db).where('posts.id', 'in', v.ids));
/** A new event's details. */
const INSERT_DETAILS = new PreparedQuery((db, v: Insertable<EventsTable>) => db.insertInto('events').values(v));
/** An event's organizers, in link order. */
const INSERT_ORGANIZERS = new PreparedQuery((db, v: { event: number; organizers: number[] }) =>
  db.insertInto('event_organizers').values(v.organizers.map((organizer_id, position) => ({ event_id: v.event, organizer_id, position }))),
);
/** The terms of a taxonomy a write names, by id or by slug (the lists not both empty). */
interface NamedValues {
  taxonomy: Taxonomy;
  ids: readonly number[];
  slugs: readonly string[];
}
/** The condition on `terms` of the terms named by `v`. */
const named = (eb: ExpressionBuilder<Database, 'terms'>, v: NamedValues) =>
  eb.and([
    eb('terms.taxonomy', '=', v.taxonomy),
    eb.or([...(v.ids.length ? [eb('terms.id', 'in', v.ids)] : []), ...(v.slugs.length ? [eb('terms.slug', 'in', v.slugs)] : [])]),
  ]);
/** The ids of the terms of a taxonomy with these slugs, a plain read. */
const TERM_IDS_BY_SLUG = new PreparedQuery((db, v: { taxonomy: Taxonomy; slugs: readonly string[] }) =>
  db.selectFrom('terms').select('id').where('taxonomy', '=', v.taxonomy).where('slug', 'in', v.slugs),
);
/** Those of the named terms that exist, a locking read (the terms a write links an event with). */
const PRESENT_TERMS = new PreparedQuery((db, v: NamedValues) =>
  dialectOf(db).locking(
    db
      .selectFrom('terms')
      .selectAll('terms')
      .where((eb) => named(eb, v)),
  ),
);
/**
 * A new event linked with those of the named terms that exist (locked, as `PRESENT_TERMS`
 * locks them), in one statement where a `WITH` may write (the look-up of the terms by id and
 * slug and the counts' update take no round trip of their own on a server): the terms
 * linked, as the write leaves them. `published` also moves their counts.
 */
const linkingNew = (published: boolean) =>
  new PreparedQuery((db, v: NamedValues & { post: number }) => {
    const dialect = dialectOf(db);
    const linking = db
      .with('present', (qc) =>
        dialect.locking(
          qc
            .selectFrom('terms')
            .selectAll('terms')
            .where((eb) => named(eb, v)),
        ),
      )
      .with('linked', (qc) =>
        qc
          .insertInto('term_relationships')
          .columns(['post_id', 'term_id'])
          // A value in a select list has no column to take its type from.
          .expression((eb) => eb.selectFrom('present').select([eb.cast<number>(eb.val(v.post), 'integer').as('post_id'), 'present.id']))
          .returning('term_id'),
      );
    if (!published) return linking.selectFrom('present').innerJoin('linked', 'linked.term_id', 'present.id').selectAll('present');
    // The rows an update returns are as it leaves them: with their new counts.
    return linking
      .with('counted', (qc) =>
        qc
          .updateTable('terms')
          .set((eb) => ({ count: eb('count', '+', 1) }))
          .where('id', 'in', (eb) => eb.selectFrom('linked').select('linked.term_id'))
          .returningAll(),
      )
      .selectFrom('counted')
      .selectAll('counted');
  });
const LINK_NEW = { published: linkingNew(true), draft: linkingNew(false) };
/** Links of an event with terms. */
const INSERT_TERM_LINKS = new PreparedQuery((db, v: { post: number; terms: number[] }) =>
  db.insertInto('term_relationships').values(v.terms.map((term_id) => ({ post_id: v.post, term_id }))),
);
/** The organizers of a page's events, in link order. */
const ORGANIZER_LINKS = new PreparedQuery((db, v: { ids: number[] }) =>
  db.selectFrom('event_organizers').select(['event_id', 'organizer_id']).where('event_id', 'in', v.ids).orderBy('event_id').orderBy('position'),
);
/** The terms of a page's events. */
const TERM_LINKS = new PreparedQuery((db, v: { ids: number[] }) =>
  db
    .selectFrom('term_relationships as tr')
    .innerJoin('terms', 'terms.id', 'tr.term_id')
    .select(['tr.post_id', 'terms.id', 'terms.taxonomy'])
    .where('tr.post_id', 'in', v.ids),
);

/** Queries and writes of events and their links. */
export class EventStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: StoreDialect,
    private readonly fieldValues: FieldStore,
    private readonly searchIndex: SearchIndex,
    /** When a search reads from, and starts from, the search index's candidates (tests read every way with 0). */
    private readonly few: { matches: number; candidates: number } = { matches: FEW_MATCHES, candidates: FEW_CANDIDATES },
  ) {}

  /** Archive totals by filter: the same total is asked for page after page until the next write. */
  private readonly totals = new VersionedValues<number>();

  /**
   * Archive pages' keys by filter and page, as the totals: a feed that calendar apps poll, or a
   * page signed-in callers read again, is the same until the next write. Bounded by keys kept.
   */
  private readonly pages = new VersionedItems<EventKey[]>({ maxSize: PAGE_KEYS, sizeOf: (keys) => keys.length + 1 });

  /** Event posts with their details; `hideType`: with the type's index hidden from SQLite's planner (see `hidesListing`). */
  private base(hideType = false) {
    return eventPosts(this.db, hideType);
  }

  /**
   * Whether SQLite's planner is kept (a unary `+`) from the indexes by start and by type and
   * status: it would walk them over the whole window, testing each event against the search
   * index's candidates, and its statistics (`pragma optimize`'s) take a type for a few hundred
   * posts. It then starts from the candidates, or from a venue's or ids' index.
   */
  private hidesListing(search: SearchPlan): boolean {
    return search.fromCandidates && search.parts.length > 0 && this.dialect.name === 'sqlite';
  }

  private rows() {
    return eventRows(this.db);
  }

  /** The event with this id. */
  async get(id: number, { lock = false }: ReadOptions = {}): Promise<EventRow | undefined> {
    if (!isStoredId(id)) return undefined;
    if (!lock) return EVENT_BY_ID.first(this.db, { id });
    return await this.dialect.locking(this.rows().where('posts.id', '=', id)).executeTakeFirst();
  }

  /** The event with this slug. */
  async bySlug(slug: string): Promise<EventRow | undefined> {
    return EVENT_BY_SLUG.first(this.db, { slug });
  }

  /** Occurrences of series, each with the post and details of the event it shows, as `posts` and `events`. */
  private occurrenceBase() {
    return this.db
      .selectFrom('occurrences')
      .innerJoin('posts', 'posts.id', 'occurrences.content_id')
      .innerJoin('events', 'events.post_id', 'occurrences.content_id')
      .where('occurrences.cancelled', '=', 0);
  }

  /**
   * What the archive lists: events that do not recur (`from: 'events'`), or occurrences of
   * series (`'occurrences'`), selected by the same filters: dates are the event's or the
   * occurrence's own, everything else the shown event's.
   */
  private filtered(q: EventListQuery, from: 'events' | 'occurrences', search: SearchPlan) {
    const statuses = q.statuses.length ? [...q.statuses] : ['__none__'];
    // The filters name `posts` and `events` only, and the occurrence's columns through `sql.ref`:
    // the occurrences' query is typed as the events' one to share them.
    const base: SelectQueryBuilder<Database, 'posts' | 'events', object> =
      from === 'events' ? this.base(this.hidesListing(search)).where('events.series_id', 'is', null) : this.occurrenceBase();
    return this.filters(base, q, statuses, from, search);
  }

  private filters(
    base: SelectQueryBuilder<Database, 'posts' | 'events', object>,
    q: EventListQuery,
    statuses: string[],
    from: 'events' | 'occurrences',
    search: SearchPlan,
  ) {
    // See `hidesListing`.
    const hide = this.hidesListing(search);
    const column = <T>(name: string) => (hide ? sql<T>`+${sql.ref(name)}` : sql.ref<T>(name));
    const start = column<string>(`${from}.start_local`);
    const end = column<string>(`${from}.end_local`);
    let s = base.where(column<number>('events.hidden'), '=', 0);
    s = q.trashed
      ? s.where('posts.status', '=', 'trash').where('posts.status_before_trash', 'in', statuses).where('posts.modified_utc', '>=', q.trashed.since)
      : s.where(column<string>('posts.status'), 'in', statuses);
    if (q.startsOnOrAfter !== undefined) s = s.where(start, '>=', q.startsOnOrAfter);
    // An event never ends before it starts (the store's writes keep `end_local >= start_local`):
    // a bound on its end bounds its start too, which the listing index (by start) can use, so a
    // window reads the events that start in it rather than every later one.
    if (q.endsOnOrBefore !== undefined) s = s.where(end, '<=', q.endsOnOrBefore).where(start, '<=', q.endsOnOrBefore);
    if (q.startsBefore !== undefined) s = s.where(start, '<', q.startsBefore);
    if (q.startsAfter !== undefined) s = s.where(start, '>', q.startsAfter);
    if (q.endsBefore !== undefined) s = s.where(end, '<', q.endsBefore).where(start, '<', q.endsBefore);
    if (q.endsAfter !== undefined) s = s.where(end, '>', q.endsAfter);
    if (q.search) {
      const scope = q.searchPasswords ?? 'none';
      if (scope !== 'all') s = s.where(searchableByPassword(scope));
      // The index's candidates first (words of three plain characters or more), which the
      // exact tests below narrow: the same events as a scan, without reading every post.
      const { parts } = search;
      if (parts.length) s = s.where((eb) => this.searchIndex.candidates(eb, parts));
    }
    const withTerm = (ids: readonly number[]) => (eb: ExpressionBuilder<Database, 'posts' | 'events'>) =>
      eb.exists(
        eb
          .selectFrom('term_relationships as tr')
          .select('tr.post_id')
          .whereRef('tr.post_id', '=', 'posts.id')
          .where('tr.term_id', 'in', ids.length ? [...ids] : [0]),
      );
    if (q.categoryIds) s = s.where(withTerm(q.categoryIds));
    if (q.tagIds) s = s.where(withTerm(q.tagIds));
    if (q.venueIds) s = s.where('events.venue_id', 'in', q.venueIds.length ? [...q.venueIds] : [0]);
    if (q.near) {
      const near = q.near;
      const listed = q.nearListed;
      // The venues near, listed: the planners then read the events by venue (a subquery's size
      // is unknown to SQLite's, which walked the whole window instead: 200 ms at 100k events).
      s = listed
        ? s.where('events.venue_id', 'in', listed.venues.length ? [...listed.venues] : [0])
        : s.where('events.venue_id', 'in', (eb) => openVenuesNear(eb.selectFrom('venues as gv').innerJoin('posts as gp', 'gp.id', 'gv.post_id'), near));
      // Occurrences by the series (and edits) held there, rather than by a walk of the window.
      const contents = listed?.contents;
      if (from === 'occurrences' && contents) s = s.where(sql.ref('occurrences.content_id'), 'in', contents.length ? [...contents] : [0]);
    }
    if (q.organizerIds) {
      const ids = q.organizerIds.length ? [...q.organizerIds] : [0];
      s = s.where((eb) =>
        eb.exists(eb.selectFrom('event_organizers as eo').select('eo.event_id').whereRef('eo.event_id', '=', 'posts.id').where('eo.organizer_id', 'in', ids)),
      );
    }
    if (q.featured !== undefined) s = s.where('events.featured', '=', q.featured ? 1 : 0);
    for (const filter of q.fields ?? []) s = s.where(this.fieldValues.matches('posts.id', filter));
    if (q.include) {
      const ids = validIds(q.include).length ? validIds(q.include) : [0];
      // An occurrence is included by its own id, or by its series'.
      s =
        from === 'events'
          ? s.where('posts.id', 'in', ids)
          : s.where((eb) => eb.or([eb(sql.ref('occurrences.id'), 'in', ids), eb(sql.ref('occurrences.series_id'), 'in', ids)]));
    }
    if (q.parent !== undefined) s = s.where('posts.parent', '=', q.parent);
    if (q.search) {
      // The texts are tested last, once the cheaper filters have passed (SQLite tests a row's
      // conditions in the order written).
      const columns = ['posts.title', 'posts.excerpt', 'posts.content'];
      const contains = (c: string, word: string) => containsIgnoringCase(sql.ref(c), word);
      for (const word of q.search.include) s = s.where((eb) => eb.or(columns.map((c) => contains(c, word))));
      for (const word of q.search.exclude) s = s.where((eb) => eb.and(columns.map((c) => eb.not(contains(c, word)))));
    }
    return s;
  }

  /** What distance filters keep, per store version and area. */
  private readonly nearby = new VersionedValues<NearListed | null>();

  /**
   * The venues a distance filter keeps, up to {@link NEAR_LISTED} (`null` beyond), and the series
   * and edited occurrences held there (up to as many, else `null`), per store version.
   */
  private venuesNear(near: GeoFilter, version: string | undefined): Promise<NearListed | null> {
    return this.nearby.get(JSON.stringify(near), version, async () => {
      const base = this.db.selectFrom('venues as gv').innerJoin('posts as gp', 'gp.id', 'gv.post_id');
      const rows = await openVenuesNear(base, near)
        .limit(NEAR_LISTED + 1)
        .execute();
      if (rows.length > NEAR_LISTED) return null;
      const venues = rows.map((r) => Number(r.post_id));
      if (!venues.length) return { venues, contents: [] };
      const recurring = await this.db
        .selectFrom('events')
        .select('post_id')
        .where('venue_id', 'in', venues)
        .where('series_id', 'is not', null)
        .limit(NEAR_LISTED + 1)
        .execute();
      return { venues, contents: recurring.length > NEAR_LISTED ? null : recurring.map((r) => Number(r.post_id)) };
    });
  }

  /**
   * The parts of a search's words the index is asked for, or none where it would cost more than
   * it saves. SQLite's planner takes the candidates for a few rows whatever their number: beside
   * a venue or ids filter, whose index reads a bounded set of events, they are counted in the
   * index alone (cheap, kept per store version) and when many, the index is left out (1M events,
   * `jazz` at one venue: 34 ms with the candidates tested after the venue's events, 20 ms
   * without). The other databases' planners know the index's statistics and choose by themselves.
   */
  private async searchParts(q: EventListQuery, key: string, version: string | undefined): Promise<readonly string[]> {
    const parts = q.search !== undefined && (await this.searchIndex.available(this.db)) ? indexedParts(q.search.include) : [];
    if (!parts.length || this.dialect.name !== 'sqlite' || (!q.venueIds && !q.include)) return parts;
    const candidates = await this.totals.get(`${key}\ncandidates`, version, () => this.searchIndex.count(this.db, parts));
    return candidates <= this.few.candidates ? parts : [];
  }

  /**
   * The parts a search looks up, within `q.searchTests` (docs/security.md, "Limits"): on SQLite,
   * whose queries run on the server's own thread, a search tests each candidate the index gives
   * (about 6 µs each at 1M events: 111 ms for a common word) or, without one, every event of the
   * window, which it counts first (each then read twice: up to 3 µs each time at 1M events). So a
   * search takes the candidates up to the bound, else the window's events up to half of it, and
   * is refused beyond both. The window is counted only as far as that, once per store version.
   */
  private async boundedSearch(
    q: EventListQuery,
    key: string,
    version: string | undefined,
    series: boolean,
    parts: readonly string[],
  ): Promise<readonly string[]> {
    const most = q.searchTests;
    if (!q.search || most === undefined || this.dialect.name !== 'sqlite') return parts;
    if (parts.length && (await this.totals.get(`${key}\ncandidates`, version, () => this.searchIndex.count(this.db, parts))) <= most) return parts;
    const windowMost = Math.floor(most / 2);
    const open: EventListQuery = { ...q, search: undefined, searchPasswords: undefined };
    const upTo = async (from: 'events' | 'occurrences') => {
      const rows = this.filtered(open, from, { parts: [], fromCandidates: false })
        .select(sql.lit(1).as('one'))
        .limit(windowMost + 1);
      return Number(
        (
          await this.db
            .selectFrom(rows.as('w'))
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    };
    const window = await this.totals.get(`${key}\nwindow`, version, async () => (await upTo('events')) + (series ? await upTo('occurrences') : 0));
    if (window <= windowMost) return [];
    throw searchTooBroad(most);
  }

  /** Whether the store holds any series, per store version: without one, the archive reads events only. */
  private async hasSeries(version: string | undefined): Promise<boolean> {
    return (
      (await this.totals.get('\u0000series', version, async () => ((await this.db.selectFrom('series').select('id').limit(1).executeTakeFirst()) ? 1 : 0))) ===
      1
    );
  }

  /**
   * One page's keys and the total; `version` is the store's, read before (totals are kept under
   * it). Events that do not recur and occurrences of series are listed together, ordered alike;
   * a store without series reads events only, through one indexed query and a count.
   */
  async list(q: EventListQuery, version: string | undefined): Promise<{ keys: EventKey[]; total: number }> {
    // A search matches text, and a trashed event's text is nobody's to read: it may have been
    // written after the trash, and would answer a probe. So no trashed event is found by one;
    // a searched feed's subscribers drop it when it leaves the feed, as for a deleted event.
    if (q.trashed && q.search) return { keys: [], total: 0 };
    if (q.near && q.nearListed === undefined) return this.list({ ...q, nearListed: await this.venuesNear(q.near, version) }, version);
    if (q.nearListed?.venues.length === 0) return { keys: [], total: 0 };
    const { offset: _offset, limit: _limit, countMs: _countMs, ...shape } = q;
    // Hashed: a filter may carry a search of 100,000 characters, and 500 totals are kept.
    const key = hash('sha256', JSON.stringify(shape), 'base64');
    const series = !q.trashed && (await this.hasSeries(version));
    const parts = await this.boundedSearch(q, key, version, series, await this.searchParts(q, key, version));
    // Counts read every match (from the search index's candidates): at a million events, seconds
    // of SQLite's work, done beside the event loop where the store can (docs/security.md,
    // "Bounded work").
    const countOf = (from: 'events' | 'occurrences') => async () => {
      const query = this.filtered(q, from, { parts, fromCandidates: true });
      try {
        const [row] = await readAside(
          this.db,
          query.select((eb) => eb.fn.countAll<number>().as('n')),
          q.countMs,
        );
        return Number(row?.n ?? 0);
      } catch (error) {
        if (error instanceof SideReadTimeout) throw countTooSlow(error.timeoutMs);
        throw error;
      }
    };
    const n = await this.totals.get(key, version, countOf('events'));
    const m = series ? await this.totals.get(`${key}\noccurrences`, version, countOf('occurrences')) : 0;
    const pageKey = `${key}\n${q.offset}\n${q.limit}`;
    const kept = version === undefined ? undefined : this.pages.get(version, pageKey);
    if (kept) return { keys: kept, total: n + m };
    // A page of a search with many matches is found soonest in start order (the listing index),
    // one with few from the candidates.
    const page: SearchPlan = { parts, fromCandidates: parts.length > 0 && n + m <= this.few.matches };
    const plain = this.filtered(q, 'events', page);
    const occurrences = series ? this.filtered(q, 'occurrences', page) : undefined;
    let keys: EventKey[];
    if (q.offset >= n + m) keys = [];
    else if (!occurrences || m === 0) {
      // The page's keys only: whole rows are read for the events whose JSON is not kept.
      let page = plain.select(['posts.id', 'posts.author', 'posts.status', 'posts.status_before_trash', 'posts.password']);
      page = q.orderByPublication
        ? page.orderBy('posts.date', 'asc').orderBy('posts.id', 'asc')
        : // `events.post_id` is `posts.id` (the join), and the tie-breaker the listing index holds: no sort.
          page.orderBy('events.start_local', 'asc').orderBy('events.post_id', 'asc');
      keys = await page.limit(q.limit).offset(q.offset).execute();
    } else {
      // Each part walks its own index in order and stops at the page's end; the two are merged
      // here (a UNION ordered as a whole would read and sort every row of the window first).
      const take = q.offset + q.limit;
      const columns = ['posts.author', 'posts.status', 'posts.status_before_trash', 'posts.password', 'posts.date'] as const;
      let events = plain.select(['posts.id', 'events.start_local', ...columns]);
      let shown = occurrences.select([
        sql.ref<number>('occurrences.id').as('id'),
        sql.ref<string>('occurrences.start_local').as('start_local'),
        sql.ref<number>('occurrences.series_id').as('of_series'),
        ...columns,
      ]);
      if (q.orderByPublication) {
        events = events.orderBy('posts.date', 'asc').orderBy('posts.id', 'asc');
        shown = shown.orderBy('posts.date', 'asc').orderBy(sql.ref('occurrences.id'), 'asc');
      } else {
        events = events.orderBy('events.start_local', 'asc').orderBy('events.post_id', 'asc');
        shown = shown.orderBy(sql.ref('occurrences.start_local'), 'asc').orderBy(sql.ref('occurrences.id'), 'asc');
      }
      const [a, b] = [await events.limit(take).execute(), await shown.limit(take).execute()];
      const sortKey = (r: { start_local: string; date: string }) => (q.orderByPublication ? r.date : r.start_local);
      // Occurrence ids are above every post id: at the same start, events come first.
      const merged = [...a.map((r) => ({ ...r, of_series: 0 })), ...b.map((r) => ({ ...r, id: Number(r.id), of_series: Number(r.of_series) }))].sort((x, y) =>
        sortKey(x) < sortKey(y) ? -1 : sortKey(x) > sortKey(y) ? 1 : x.id - y.id,
      );
      keys = merged
        .slice(q.offset, take)
        .map(({ id, author, status, status_before_trash, password, of_series }) => ({ id, author, status, status_before_trash, password, of_series }));
    }
    if (version !== undefined) this.pages.set(version, pageKey, keys);
    return { keys, total: n + m };
  }

  /**
   * The events with these ids, in that order (ids no longer stored are left out): events, and
   * occurrences of series by their own ids.
   */
  async getMany(ids: readonly number[]): Promise<EventRow[]> {
    const wanted = validIds(ids);
    if (!wanted.length) return [];
    const rows: EventRow[] = await EVENTS_BY_IDS.rows(this.db, { ids: wanted });
    const byId = new Map(rows.map((row) => [row.id, row]));
    const others = wanted.filter((id) => !byId.has(id));
    if (others.length) for (const row of await this.occurrences(others)) byId.set(row.id, row);
    return wanted.flatMap((id) => byId.get(id) ?? []);
  }

  /** An occurrence of a series as an event row (cancelled ones too: `occurrence.cancelled`). */
  async occurrence(id: number): Promise<EventRow | undefined> {
    return isStoredId(id) ? (await this.occurrences([id], true))[0] : undefined;
  }

  /**
   * Occurrences as event rows: the shown event's post and details, with the occurrence's id and
   * times and the series' slug (an override has none of its own).
   */
  private async occurrences(ids: readonly number[], withCancelled = false): Promise<EventRow[]> {
    let query = this.db
      .selectFrom('occurrences as o')
      .innerJoin('posts', 'posts.id', 'o.content_id')
      .innerJoin('events', 'events.post_id', 'o.content_id')
      .innerJoin('posts as sp', 'sp.id', 'o.series_id')
      .selectAll('posts')
      .selectAll('events')
      .select([
        'o.id as o_id',
        'o.series_id as o_series',
        'o.original_start as o_original',
        'o.start_local as o_start_local',
        'o.end_local as o_end_local',
        'o.start_utc as o_start_utc',
        'o.end_utc as o_end_utc',
        'o.cancelled as o_cancelled',
        'sp.slug as series_slug',
      ])
      .where('o.id', 'in', [...ids]);
    if (!withCancelled) query = query.where('o.cancelled', '=', 0);
    return (await query.execute()).map((r) => {
      const { o_id, o_series, o_original, o_start_local, o_end_local, o_start_utc, o_end_utc, o_cancelled, series_slug, post_id: _post, ...row } = r;
      return {
        ...row,
        id: Number(o_id),
        slug: series_slug,
        start_local: o_start_local,
        end_local: o_end_local,
        start_utc: o_start_utc,
        end_utc: o_end_utc,
        occurrence: { seriesId: Number(o_series), contentId: row.id, originalStart: o_original, cancelled: Number(o_cancelled) === 1 },
      };
    });
  }

  /**
   * Inserts an event's post and details, and links its organizers in their order, in one
   * statement, where a `WITH` may write (`writesInWith`): the row as stored, without the read
   * that would fetch it (two round trips fewer than the inserts and that read, three with
   * organizers). `slugIfFree`: the post's slug is stored only if no other event has it, else
   * none, and the caller picks another (`settleSlug`): its check costs no query of its own.
   */
  async insertWithPost(post: Insertable<PostsTable>, details: EventDetails, organizers: readonly number[] = [], slugIfFree = false): Promise<EventRow> {
    if (!this.dialect.writesInWith) throw new Error('calendar: insertWithPost needs a dialect whose WITH may write');
    const { slug } = post;
    const columns: InsertObject<Database, 'posts'> =
      slugIfFree && slug
        ? {
            ...post,
            slug: (eb) =>
              eb
                .case()
                .when(eb.exists(eb.selectFrom('posts').select('id').where('type', '=', post.type).where('slug', '=', slug)))
                .then(null)
                .else(slug)
                .end(),
          }
        : post;
    const inserted = this.db
      .with('p', (qc) => qc.insertInto('posts').values(columns).returningAll())
      .with('e', (qc) =>
        qc
          .insertInto('events')
          .values({ ...details, post_id: (eb) => eb.selectFrom('p').select('p.id') })
          .returningAll(),
      );
    if (!organizers.length) return inserted.selectFrom('p').innerJoin('e', 'e.post_id', 'p.id').selectAll('p').selectAll('e').executeTakeFirstOrThrow();
    // A WITH that writes runs whether or not the query reads it.
    return inserted
      .with('o', (qc) =>
        qc
          .insertInto('event_organizers')
          .values(organizers.map((organizer_id, position) => ({ event_id: (eb) => eb.selectFrom('p').select('p.id'), organizer_id, position }))),
      )
      .selectFrom('p')
      .innerJoin('e', 'e.post_id', 'p.id')
      .selectAll('p')
      .selectAll('e')
      .executeTakeFirstOrThrow();
  }

  /** Inserts the details of a new event post. */
  async insertDetails(postId: number, details: EventDetails): Promise<void> {
    await INSERT_DETAILS.execute(this.db, { post_id: postId, ...details });
  }

  /** Changes detail columns. */
  async updateDetails(postId: number, details: Updateable<EventsTable>): Promise<void> {
    if (Object.keys(details).length) await this.db.updateTable('events').set(details).where('post_id', '=', postId).execute();
  }

  /** Organizer ids of each event, in link order. */
  async organizerIds(eventIds: readonly number[]): Promise<Map<number, number[]>> {
    const out = new Map<number, number[]>();
    const ids = validIds(eventIds);
    if (!ids.length) return out;
    const rows = await ORGANIZER_LINKS.rows(this.db, { ids });
    for (const r of rows) out.set(r.event_id, [...(out.get(r.event_id) ?? []), r.organizer_id]);
    return out;
  }

  /** Replaces an event's organizers (order kept); `created` for an event inserted by this write, which has none. */
  async setOrganizers(eventId: number, organizerIds: readonly number[], created?: NewEvent): Promise<void> {
    if (!created) await this.db.deleteFrom('event_organizers').where('event_id', '=', eventId).execute();
    if (organizerIds.length) {
      await INSERT_ORGANIZERS.execute(this.db, { event: eventId, organizers: [...organizerIds] });
    }
  }

  /** Term ids of each event, by taxonomy. */
  async termIds(eventIds: readonly number[]): Promise<Map<number, { taxonomy: Taxonomy; id: number }[]>> {
    const out = new Map<number, { taxonomy: Taxonomy; id: number }[]>();
    const ids = validIds(eventIds);
    if (!ids.length) return out;
    const rows = await TERM_LINKS.rows(this.db, { ids });
    for (const r of rows) out.set(r.post_id, [...(out.get(r.post_id) ?? []), { taxonomy: r.taxonomy, id: r.id }]);
    return out;
  }

  /**
   * Replaces an event's terms of one taxonomy with those `refs` names that exist (by id or by
   * slug; terms deleted meanwhile are left out), moving the counts of the terms it gains and
   * loses while published; `replace` false links them beside those it has (terms a write names
   * by name, after a first call). `created` for an event inserted by this write, which has none.
   * The terms linked, by id then by slug, each once, as the write leaves them: what its answer shows.
   */
  async setTerms(eventId: number, taxonomy: Taxonomy, refs: TermRefs, created?: NewEvent, replace = true): Promise<TermRow[]> {
    const before = created || !replace ? [] : await this.termsOf(eventId, taxonomy);
    let wanted: NamedValues = { taxonomy, ids: validIds([...new Set(refs.ids)]), slugs: [...new Set(refs.slugs ?? [])] };
    const inOrder = (rows: readonly TermRow[]) => {
      const byId = new Map(rows.map((r) => [r.id, r]));
      const bySlug = new Map(rows.map((r) => [r.slug, r]));
      return [...new Set([...wanted.ids.map((id) => byId.get(id)), ...wanted.slugs.map((slug) => bySlug.get(slug))])].filter((r) => r !== undefined);
    };
    const naming = () => wanted.ids.length > 0 || wanted.slugs.length > 0;
    if (created && naming() && this.dialect.writesInWith) {
      const link = created.status === 'publish' ? LINK_NEW.published : LINK_NEW.draft;
      return inOrder((await link.rows(this.db, { ...wanted, post: eventId })).map(toTermRow));
    }
    if (wanted.slugs.length && this.dialect.locksScannedRows) {
      // Slugs and ids together are no single key's range: InnoDB would lock every term of the
      // taxonomy it scanned. The slugs' ids are read plainly first, and only those rows locked.
      const bySlug = await TERM_IDS_BY_SLUG.rows(this.db, wanted);
      wanted = { taxonomy, ids: [...new Set([...wanted.ids, ...bySlug.map((r) => r.id)])], slugs: [] };
    }
    const present = naming() ? (await PRESENT_TERMS.rows(this.db, wanted)).map(toTermRow) : [];
    if (!created && replace) {
      await this.db
        .deleteFrom('term_relationships')
        .where('post_id', '=', eventId)
        .where('term_id', 'in', (eb) => eb.selectFrom('terms').select('id').where('taxonomy', '=', taxonomy))
        .execute();
    }
    const kept = inOrder(present);
    if (kept.length) await INSERT_TERM_LINKS.execute(this.db, { post: eventId, terms: kept.map((t) => t.id) });
    if (created ? created.status === 'publish' : await this.isPublished(eventId)) {
      const keptIds = kept.map((t) => t.id);
      await adjustTermCounts(
        this.db,
        before.filter((id) => !keptIds.includes(id)),
        -1,
      );
      const added = kept.filter((t) => !before.includes(t.id));
      await adjustTermCounts(
        this.db,
        added.map((t) => t.id),
        1,
      );
      // The rows are locked: their counts are what they were read with, moved by this write.
      for (const t of added) t.count += 1;
    }
    return kept;
  }

  // The counts move by what these two read: they are locking (current) reads, since MariaDB's
  // plain reads answer from the transaction's first snapshot, which a write that waited for
  // the event's lock took before another write changed its terms or status.

  /** The ids of an event's terms of one taxonomy. */
  private async termsOf(eventId: number, taxonomy: Taxonomy): Promise<number[]> {
    const query = this.db
      .selectFrom('term_relationships as tr')
      .innerJoin('terms', 'terms.id', 'tr.term_id')
      .select('tr.term_id')
      .where('tr.post_id', '=', eventId)
      .where('terms.taxonomy', '=', taxonomy);
    return (await this.dialect.locking(query).execute()).map((r) => r.term_id);
  }

  /** Whether the event counts in its terms' counts (published). */
  private async isPublished(eventId: number): Promise<boolean> {
    return (await this.dialect.locking(this.db.selectFrom('posts').select('status').where('id', '=', eventId)).executeTakeFirst())?.status === 'publish';
  }

  /** Deletes an event for good, with its links. */
  async deletePermanently(eventId: number): Promise<void> {
    const terms = (await this.isPublished(eventId)) ? await termIdsOf(this.db, eventId, this.dialect) : [];
    await this.db.deleteFrom('event_organizers').where('event_id', '=', eventId).execute();
    await this.db.deleteFrom('term_relationships').where('post_id', '=', eventId).execute();
    await this.db.deleteFrom('events').where('post_id', '=', eventId).execute();
    // The host's field values go with it: a later item may be given its id (SQLite reuses the last).
    await this.db.deleteFrom('field_values').where('family', '=', 'post').where('item_id', '=', eventId).execute();
    await this.db.deleteFrom('posts').where('id', '=', eventId).execute();
    await adjustTermCounts(this.db, terms, -1);
  }
}
