/**
 * The rules of events as a request reaches them (`ctx.services.events`): reads by id, slug and
 * archive page, who may see what, and events as the API shows them, rendered in batches and kept
 * per store version. Writes are `writes.ts`'s (this service hands them on).
 */
import { viewerKey, type Principal } from '../../auth/capabilities.js';
import type { BoundedCacheOptions } from '../../cache/bounded-cache.js';
import { VersionedItems } from '../../cache/versioned-items.js';
import type { ChangeScope } from '../../changes/log.js';
import { RawJson } from '../../http/raw-json.js';
import type { Urls } from '../../http/urls.js';
import type { Image } from '../../schemas/types.js';
import type { PostRow } from '../../posts/queries.js';
import { redact } from '../../posts/redact.js';
import { storedSlugForm } from '../../posts/slug.js';
import type { WriteTarget } from '../../posts/write-target.js';
import type { SeriesTimes } from '../../recurrence/expand.js';
import type { OccurrenceRow, SeriesRow } from '../../recurrence/queries.js';
import type { CalendarEvent, EventTerm, Organizer, Venue } from '../../schemas/types.js';
import type { EntryParser } from '../linked/entries.js';
import { CATEGORIES, TAGS } from '../terms/args.js';
import { embeddedTermJson } from '../terms/json.js';
import type { TermRow } from '../terms/store.js';
import type { Store } from '../store.js';
import { eventPermits, type EventAction } from './access.js';
import type { EventInput } from './args.js';
import { eventJson } from './json.js';
import type { EventLinks } from './links.js';
import type { EventKey, EventListQuery, EventRow } from './store.js';
import { EventWrites, type EventDeps } from './writes.js';

export type { EventLinks } from './links.js';

/** Term order of an event: by name, ignoring case (one collator: building one per call is slow). */
const BY_NAME = new Intl.Collator('en', { sensitivity: 'base' });

/**
 * Events rendered and kept per store version: room for a few pages of every caller, and at
 * most 32 MB of their JSON. A count alone would not bound memory: a description may be as long
 * as a request body (`limits.bodyBytes`, 1 MB by default), so 2,000 such events would have kept
 * gigabytes.
 */
export const RENDERED_EVENTS: BoundedCacheOptions<string, RawJson> = {
  maxEntries: 2000,
  maxSize: 32 * 1024 * 1024,
  sizeOf: (json, key) => json.size + key.length,
};

/** Event rows single reads found (or not) by id or slug, kept per store version: 2,000 at most, within 16 MB of their texts. */
export const SINGLE_ROWS: BoundedCacheOptions<string, { row: EventRow | undefined }> = {
  maxEntries: 2000,
  maxSize: 16 * 1024 * 1024,
  sizeOf: ({ row }, key) => rowSize(row) + key.length,
};

/** About what a row takes in memory: its texts in full (UTF-16 code units), a word for every other column. */
export function rowSize(row: EventRow | undefined): number {
  let size = 64;
  if (row) for (const value of Object.values(row)) size += typeof value === 'string' ? 2 * value.length : 8;
  return size;
}

/**
 * Rendered linked items by id. Password-protected ones are redacted and lose their
 * `json_ld`: an event request never unlocks what it embeds.
 */
function byId<T extends Venue | Organizer>(rows: readonly { id: number; password: string | null }[], rendered: T[]): Map<number, T> {
  return new Map(
    rows.flatMap((row, i): [number, T][] => {
      const json = rendered[i];
      if (!json) return [];
      if (!row.password) return [[row.id, json]];
      const hidden = redact(json);
      delete hidden.json_ld;
      return [[row.id, hidden]];
    }),
  );
}

/** `rows` of the wanted ids, plus those `read` returns for the rest. */
async function withKnown<R extends { id: number }>(wanted: readonly number[], rows: readonly R[], read: (ids: number[]) => Promise<R[]>): Promise<R[]> {
  const known = rows.filter((r) => wanted.includes(r.id));
  const missing = wanted.filter((id) => !known.some((r) => r.id === id));
  return missing.length ? [...known, ...(await read(missing))] : known;
}

/** The host field values a write has just stored for the events it created (none read again). */
function knownValues(links: ReadonlyMap<number, EventLinks> | undefined): Map<number, ReadonlyMap<string, unknown>> | undefined {
  if (!links) return undefined;
  const known = new Map<number, ReadonlyMap<string, unknown>>();
  for (const [id, { fieldValues }] of links) if (fieldValues) known.set(id, fieldValues);
  return known;
}

/** The event whose links an event row shows: an occurrence shows those of the series, or of its override. */
const linkId = (row: EventRow) => row.occurrence?.contentId ?? row.id;

/** How {@link EventService.render} shows events. */
export interface EventRenderView {
  urls: Urls;
  principal: Principal | null;
  /** A single read (with `json_ld`), not an archive item. */
  single: boolean;
  /**
   * The store version read before the rows were: {@link EventService.renderJson} keeps and
   * reuses rendered events under it. Without it (a store without versions) every event is rendered.
   */
  version?: string;
}

/** What an iCalendar file needs of a series (`EventService.seriesParts`). */
export interface SeriesParts {
  row: EventRow;
  times: SeriesTimes;
  apart: OccurrenceRow[];
  inWindow: OccurrenceRow[];
  years: number[];
}

/** What a page of events links to, read in one batch per kind. */
interface PageLinks {
  images: (id: number | null) => false | Image;
  organizerIds: Map<number, number[]>;
  termIds: Map<number, { taxonomy: string; id: number }[]>;
  series: Map<number, SeriesRow>;
  venues: Map<number, Venue>;
  organizers: Map<number, Organizer>;
  terms: Map<number, EventTerm>;
}

/** The rules of events: reads, visibility and rendering here; writes in `writes.ts`. */
export class EventService {
  /** Rendered events of the current store version ({@link renderJson}). */
  private readonly rendered = new VersionedItems<RawJson>(RENDERED_EVENTS);
  /** Rows of single reads at the current store version ({@link readAt}), frozen: requests share them. */
  private readonly singleRows = new VersionedItems<{ row: EventRow | undefined }>(SINGLE_ROWS);
  private readonly writes: EventWrites;

  constructor(
    private readonly store: Store,
    private readonly deps: EventDeps,
  ) {
    this.writes = new EventWrites(store, deps);
  }

  /**
   * The event with this id: an event, a series (as its first occurrence), or an occurrence of a
   * series by its own id (a cancelled one too: `occurrence.cancelled`). An event overriding an
   * occurrence is read through the occurrence, not by its own id.
   */
  async get(id: number): Promise<EventRow | undefined> {
    // One query: occurrence ids are above every post id.
    if (this.deps.series.isOccurrenceId(id)) return (await this.store.events.occurrence(id)) ?? this.post(id);
    return (await this.post(id)) ?? this.store.events.occurrence(id);
  }

  /**
   * The event a single read addresses by id (`get`) or slug (`bySlug`), kept under `version`
   * (the store's, read before) for the next read of it: a read without the response cache
   * (signed in, `no-cache`) then runs no query when nothing was written since.
   */
  async readAt(by: { id: number } | { slug: string }, version: string | undefined): Promise<EventRow | undefined> {
    const read = () => ('id' in by ? this.get(by.id) : this.bySlug(by.slug));
    if (version === undefined) return read();
    const key = 'id' in by ? `i${by.id}` : `s${by.slug}`;
    const kept = this.singleRows.get(version, key);
    if (kept) return kept.row;
    const row = await read();
    if (row?.occurrence) Object.freeze(row.occurrence);
    this.singleRows.set(version, key, Object.freeze({ row: row && Object.freeze(row) }));
    return row;
  }

  /** The event post with this id, unless it overrides an occurrence (read through the occurrence). */
  private async post(id: number): Promise<EventRow | undefined> {
    const row = await this.store.events.get(id);
    return row && (row.series_id === null || row.series_id === row.id) ? row : undefined;
  }

  /** The events with these ids, in that order (occurrences by their ids too); those gone are left out. */
  getMany(ids: readonly number[]): Promise<EventRow[]> {
    return this.store.events.getMany(ids);
  }

  /**
   * What an iCalendar file needs of a series: its row, its times and rules, the occurrences it
   * writes apart (cancelled, edited, moved), those in `window` (original starts; all without
   * one) and the years its index spans; `undefined` when it is no series.
   */
  async seriesParts(seriesId: number, window?: { from?: string; to?: string }): Promise<SeriesParts | undefined> {
    const [row, rules] = [await this.store.events.get(seriesId), await this.store.occurrences.series(seriesId)];
    if (!row || !rules || row.series_id !== seriesId) return undefined;
    // The years the occurrences fall in, not the span between them: a series from the year 1001
    // with one date in 9998 needs the observances of two years, not of 9,000.
    const years = await this.store.occurrences.years(seriesId);
    return {
      row,
      times: this.deps.series.seriesTimes(rules, row, this.deps.timezone),
      apart: await this.store.occurrences.apart(seriesId),
      inWindow: await this.store.occurrences.of(seriesId, { ...window, cancelled: false }),
      years,
    };
  }

  /** The event with this slug, given as stored or with its non-ASCII characters decoded. */
  async bySlug(slug: string): Promise<EventRow | undefined> {
    const found = await this.store.events.bySlug(slug);
    const stored = storedSlugForm(slug);
    return found ?? (stored !== slug ? this.store.events.bySlug(stored) : undefined);
  }

  /** Whether `p` may read, edit or delete the event. */
  can(p: Principal | null, action: EventAction, row: Pick<PostRow, 'author' | 'status' | 'status_before_trash'>): boolean {
    return eventPermits(p, action, row);
  }

  /**
   * Whether an archive filtered by this event (`/venues?event=`, `/tags?post=`) may reveal what
   * is linked to it: the caller may read the event, and see its links (a password-protected
   * event's are redacted from those who may not edit it).
   */
  async revealsLinks(id: number, p: Principal | null): Promise<boolean> {
    const row = await this.store.posts.get(id);
    if (row?.type !== 'event' || !this.can(p, 'read', row)) return false;
    return !row.password || this.can(p, 'edit', row);
  }

  /** One archive page's keys and its total; `version` is the store's, read before (see {@link renderJson}). */
  list(query: EventListQuery, version: string | undefined): Promise<{ keys: EventKey[]; total: number }> {
    return this.store.events.list(query, version);
  }

  /** Creates an event and everything it links (`writes.ts`). */
  create(input: EventInput, p: Principal | null, now: Date, parse?: EntryParser): Promise<{ row: EventRow; links: EventLinks }> {
    return this.writes.create(input, p, now, parse);
  }

  /** Updates the fields sent (`writes.ts`). */
  update(
    target: WriteTarget<EventRow>,
    input: EventInput,
    sent: (name: string) => boolean,
    p: Principal | null,
    now: Date,
    parse?: EntryParser,
  ): Promise<EventRow> {
    return this.writes.update(target, input, sent, p, now, parse);
  }

  /** Deletes an event, or an occurrence by `scope` (`writes.ts`): the row to show in the answer. */
  remove(target: WriteTarget<EventRow>, options: { force: boolean; scope?: ChangeScope }, p: Principal | null, now: Date): Promise<EventRow | undefined> {
    return this.writes.remove(target, options, p, now);
  }

  /** Moves the event to the trash (`writes.ts`). */
  trash(target: WriteTarget<EventRow>, p: Principal | null, now: Date): Promise<EventRow> {
    return this.writes.trash(target, p, now);
  }

  /** Removes the event for good (`writes.ts`). */
  deletePermanently(target: WriteTarget<EventRow>, p: Principal | null): Promise<void> {
    return this.writes.deletePermanently(target, p);
  }

  /**
   * Events as JSON text, for reads: kept per store version (`view.version`, read before the
   * keys) and reused by every request that shows them alike; rows are read (`rowsOf`) only for
   * the events not kept, and an event whose row is gone or changed its key meanwhile is `undefined`. An event's JSON depends on its rows
   * at the version, the mount's URLs, the caller's view (private items, `json_ld`) and whether
   * it is a single read: equal keys, equal JSON.
   */
  async renderJson(
    keys: readonly EventKey[],
    view: EventRenderView,
    rowsOf: (missing: readonly EventKey[]) => Promise<readonly EventRow[]> = (missing) => this.store.events.getMany(missing.map((k) => k.id)),
  ): Promise<(RawJson | undefined)[]> {
    // What a host's `afterRead` told of the viewer depends on: without a key of it, not kept.
    const shown = this.deps.hooks ? this.deps.hooks.renderKey(view.principal) : '';
    const version = shown === undefined ? undefined : view.version;
    const prefix = `${view.single ? 1 : 0}\n${view.urls.root}\n${view.urls.home}\n${viewerKey(view.principal)}\n${shown ?? ''}\n`;
    const out = keys.map((key) => (version === undefined ? undefined : this.rendered.get(version, prefix + key.id)));
    const missing = keys.filter((_, i) => out[i] === undefined);
    if (!missing.length) return out;
    // Rows read now are at least as new as the version: a write in between changed the
    // version too, so what is kept under it is never served again.
    // A row whose status, author or password changed since its key was read (a write in
    // between) is left out: who may see it, and whether it is redacted, was judged on the key.
    const rows = (await rowsOf(missing)).filter((row) => {
      const key = missing.find((k) => k.id === row.id);
      return (
        key !== undefined &&
        key.status === row.status &&
        key.author === row.author &&
        key.password === row.password &&
        key.status_before_trash === row.status_before_trash
      );
    });
    const rendered = await this.render(rows, view);
    const fresh = new Map(rows.flatMap((row, i) => (rendered[i] ? [[row.id, RawJson.of(rendered[i])] as const] : [])));
    return keys.map((key, i) => {
      const kept = out[i];
      if (kept !== undefined) return kept;
      const json = fresh.get(key.id);
      if (json !== undefined && version !== undefined) this.rendered.set(version, prefix + key.id, json);
      return json;
    });
  }

  /**
   * Events as the API shows them. Linked venues, organizers, terms and images are read in
   * one batch per kind for the whole page, never per event.
   */
  async render(rows: readonly EventRow[], view: EventRenderView, links?: ReadonlyMap<number, EventLinks>): Promise<CalendarEvent[]> {
    if (!rows.length) return [];
    const page = await this.pageLinks(rows, view, links);
    const termsOf = (eventId: number, taxonomy: string) =>
      (page.termIds.get(eventId) ?? [])
        .filter((t) => t.taxonomy === taxonomy)
        .map((t) => page.terms.get(t.id))
        .filter((t) => t !== undefined)
        .sort((a, b) => BY_NAME.compare(a.name, b.name) || a.id - b.id);
    const events = rows.map((row) => {
      const venue = row.venue_id !== null ? page.venues.get(row.venue_id) : undefined;
      const organizers = (page.organizerIds.get(linkId(row)) ?? []).map((id) => page.organizers.get(id)).filter((o) => o !== undefined);
      const canRead = this.can(view.principal, 'read', row);
      const seriesId = row.occurrence?.seriesId ?? row.id;
      const rules = page.series.get(seriesId);
      return eventJson(row, {
        urls: view.urls,
        siteZone: this.deps.timezone,
        canRead,
        series: rules ? { id: seriesId, recurrence: JSON.parse(rules.rules) as string[] } : undefined,
        image: page.images(row.image_id),
        categories: termsOf(linkId(row), CATEGORIES.taxonomy),
        tags: termsOf(linkId(row), TAGS.taxonomy),
        venue,
        organizers,
        jsonLd:
          view.single && canRead && !row.password
            ? { location: venue ? (venue.json_ld ?? false) : undefined, organizer: organizers[0] ? (organizers[0].json_ld ?? false) : undefined }
            : undefined,
      });
    });
    const decorated = this.deps.fields ? await this.deps.fields.decorate(this.store.fields, 'events', events, rows.map(linkId), knownValues(links)) : events;
    return this.deps.hooks ? this.deps.hooks.read('events', decorated, view.principal) : decorated;
  }

  /** What a page of events links to, one batch per kind; links a write has just made (`links`) are not read again. */
  private async pageLinks(rows: readonly EventRow[], view: EventRenderView, links?: ReadonlyMap<number, EventLinks>): Promise<PageLinks> {
    const ids = [...new Set(rows.map(linkId))];
    const known = links && ids.every((id) => links.has(id)) ? links : undefined;
    const seriesIds = rows.flatMap((r) => (r.occurrence ? [r.occurrence.seriesId] : r.series_id === r.id ? [r.id] : []));
    const [images, organizerIds, termIds, series] = await Promise.all([
      this.deps.images.byIds(rows.map((r) => r.image_id)),
      known ? new Map(ids.map((id) => [id, [...(known.get(id)?.organizers ?? [])]])) : this.store.events.organizerIds(ids),
      known ? new Map(ids.map((id) => [id, [...(known.get(id)?.terms ?? [])]])) : this.store.events.termIds(ids),
      seriesIds.length ? this.store.occurrences.seriesMany(seriesIds) : new Map<number, SeriesRow>(),
    ]);
    const linkedView = { urls: view.urls, principal: view.principal, jsonLd: view.single };
    const given = known ? [...known.values()] : [];
    const venueIds = [...new Set(rows.map((r) => r.venue_id).filter((v): v is number => v !== null))];
    const venueRows = await withKnown(
      venueIds,
      given.flatMap((l) => l.venueRows ?? []),
      (ids) => this.deps.venues.getMany(ids),
    );
    const venues = byId(venueRows, await this.deps.venues.render(venueRows, linkedView));
    const wantedOrganizers = [...new Set([...organizerIds.values()].flat())];
    const organizerRows = await withKnown(
      wantedOrganizers,
      given.flatMap((l) => l.organizerRows ?? []),
      (ids) => this.deps.organizers.getMany(ids),
    );
    const organizers = byId(organizerRows, await this.deps.organizers.render(organizerRows, linkedView));
    const terms = await this.termsById(
      [...termIds.values()].flat(),
      given.flatMap((l) => l.termRows ?? []),
      view,
    );
    return { images, organizerIds, termIds, series, venues, organizers, terms };
  }

  /**
   * The terms of a page as events embed them, by id: with the host's fields on their kind and
   * as its `afterRead` hook shows them to the viewer, as embedded venues and organizers are.
   * Rows a write has just left (`known`) are not read again.
   */
  private async termsById(
    links: readonly { taxonomy: string; id: number }[],
    known: readonly TermRow[],
    view: Pick<EventRenderView, 'urls' | 'principal'>,
  ): Promise<Map<number, EventTerm>> {
    const terms = new Map<number, EventTerm>();
    for (const kind of [CATEGORIES, TAGS]) {
      const wanted = links.filter((t) => t.taxonomy === kind.taxonomy).map((t) => t.id);
      const rows = await withKnown(
        wanted,
        known.filter((t) => t.taxonomy === kind.taxonomy),
        (ids) => this.store.terms.getMany(kind.taxonomy, ids),
      );
      let items = rows.map((row) => embeddedTermJson(kind, row, view.urls));
      if (this.deps.fields) items = await this.deps.fields.decorate(this.store.fields, kind.collection, items);
      if (this.deps.hooks) items = await this.deps.hooks.read(kind.collection, items, view.principal);
      items.forEach((item, i) => terms.set(rows[i]?.id ?? item.id, item));
    }
    return terms;
  }
}
