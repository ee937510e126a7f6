import { insertPost, moveStatus, newPostState } from '../../posts/lifecycle.js';
import { phpEmpty } from '../../php/empty.js';
import { can, has, viewerKey, type Principal } from '../../auth/capabilities.js';
import { VersionedItems } from '../../cache/versioned-items.js';
import { RawJson } from '../../http/raw-json.js';
import { localToUtc, parseTime, resolveZone, snapToDayEnd, snapToDayStart, timezoneAbbr, wallClockToInstant } from '../../dates/index.js';
import { storableCost } from './cost.js';
import { ApiError, apiError, invalidParam, invalidParams } from '../../http/errors.js';
import { moveToTrash } from '../../posts/trash.js';
import { assertPublicationDates } from '../../posts/dates.js';
import { present, recheck, type WriteTarget } from '../../posts/write-target.js';
import { EVENT } from '../../posts/kinds.js';
import { storedSlugForm, uniquePostSlug } from '../../posts/slug.js';
import { assertAuthorAllowed, type AuthorWrite } from '../../posts/author.js';
import { filterContent, filterExcerpt, filterTitle } from '../../posts/text.js';
import { parseLinkedEntries, type LinkedEntry } from '../linked/entries.js';
import { termList } from './args.js';

import { CATEGORIES, TAGS } from '../terms/args.js';
import type { EventDetails, EventKey, EventListQuery, EventRow, NewEvent } from './store.js';
import type { Store } from '../store.js';
import type { Taxonomy } from '../../store/database.js';
import type { PostRow } from '../../posts/queries.js';
import { withRetry } from '../../store/retry.js';
import { sanitizeUrl } from '../../text/url.js';
import type { ImageChoice, ImageService } from '../../images/service.js';
import type { LinkedPostService } from '../linked/service.js';
import type { LinkedRow } from '../linked/store.js';
import type { TermService } from '../terms/service.js';
import type { Urls } from '../../http/urls.js';
import { eventJson } from './json.js';
import type { SeriesService } from '../../recurrence/series.js';
import type { SeriesTimes } from '../../recurrence/expand.js';
import type { ChangeScope } from '../../changes/log.js';
import { followSeries, overridesOf, removeOverrides } from './overrides.js';
import { RecurringWrites, type ApplyUpdate } from './recurring.js';
import type { OccurrenceRow, SeriesRow } from '../../recurrence/queries.js';
import { redact } from '../../posts/redact.js';
import { embeddedTermJson } from '../terms/json.js';
import type { CalendarEvent, EventTerm, Organizer, Venue } from '../../schemas/types.js';

import type { EventInput } from './args.js';

/** Term order of an event: by name, ignoring case (one collator: building one per call is slow). */
const BY_NAME = new Intl.Collator('en', { sensitivity: 'base' });

/** Public statuses: the ones that get a slug derived from the title. */
const SLUGGED = new Set(['publish', 'future', 'private']);

const flag = (v: unknown) => (v ? 1 : 0);

/** 400 for a write that would side-load more images than `limits.imagesPerRequest`, named by the parameter that went over. */
function tooManyImages(param: string, most: number): ApiError {
  const message = `${param} has more than ${most} images to download.`;
  return invalidParams(new Map([[param, { message, detail: { code: 'rest_param_too_large', message, data: { param } } }]]));
}

/** A linked entry ready to store: data entries carry their side-loaded image. */
type ResolvedEntry = LinkedEntry & { image?: ImageChoice };

/** The venue (`null`: none) and organizers a write sends; absent keys were not sent. */
interface LinkedEntries {
  venue?: ResolvedEntry | null;
  organizers?: ResolvedEntry[];
}

/** Start/end of an event as stored. */
interface EventTimes {
  start_local: string;
  end_local: string;
  start_utc: string;
  end_utc: string;
  timezone: string;
  timezone_abbr: string;
  all_day: number;
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

/** Events rendered and kept per store version: room for a few pages of every caller. */
const RENDERED_EVENTS = 2000;

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

/** What an event links to: its organizers in order, and its terms; rows of linked items a write has read, when it has. */
export interface EventLinks {
  organizers: readonly number[];
  terms: readonly { taxonomy: Taxonomy; id: number }[];
  venueRows?: readonly LinkedRow<'venues'>[];
  organizerRows?: readonly LinkedRow<'organizers'>[];
}

/** `rows` of the wanted ids, plus those `read` returns for the rest. */
async function withKnown<R extends { id: number }>(wanted: readonly number[], rows: readonly R[], read: (ids: number[]) => Promise<R[]>): Promise<R[]> {
  const known = rows.filter((r) => wanted.includes(r.id));
  const missing = wanted.filter((id) => !known.some((r) => r.id === id));
  return missing.length ? [...known, ...(await read(missing))] : known;
}

/** What an iCalendar file needs of a series (`EventService.seriesParts`). */
export interface SeriesParts {
  row: EventRow;
  times: SeriesTimes;
  apart: OccurrenceRow[];
  inWindow: OccurrenceRow[];
  years: number[];
}

/** The rules of events: dates and zones, linked items, terms, status, slugs and trash. */
export class EventService {
  /** Rendered events of the current store version ({@link renderJson}). */
  private readonly rendered = new VersionedItems<RawJson>(RENDERED_EVENTS);

  constructor(
    private readonly store: Store,
    private readonly deps: {
      images: ImageService;
      terms: TermService;
      venues: LinkedPostService<'venues'>;
      organizers: LinkedPostService<'organizers'>;
      timezone: string;
      /** Most images one write may side-load (`limits.imagesPerRequest`). */
      imagesPerRequest: number;
      /** Recurring events' rules and index. */
      series: SeriesService;
      /** Another user as `author` only with `edit_others` (`strictAuthor`). */
      strictAuthor?: boolean;
    },
  ) {}

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

  /** Refuses an event write that names an `author` `p` may not name (`strictAuthor`: another user only with `edit_others`). */
  private assertAuthor(input: EventInput, p: Principal | null, write: AuthorWrite): void {
    assertAuthorAllowed(this.deps.strictAuthor === true, EVENT, input.author, p, write);
  }

  /** Whether `p` may read, edit or delete the event. */
  can(p: Principal | null, action: 'read' | 'edit' | 'delete', row: Pick<PostRow, 'author' | 'status' | 'status_before_trash'>): boolean {
    return can(p, action, { kind: 'events', authorId: row.author, status: row.status, statusBeforeTrash: row.status_before_trash });
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

  /**
   * Reads one date parameter in `zone`; impossible dates are a 400. A zone
   * that is stored but names no real zone (`UTCfoo` passes validation) reads as the site's.
   */
  private wallClock(name: string, value: unknown, zone: string, now: Date): string {
    const parsed = parseTime(value, this.realZone(zone), now, { strictCalendar: true });
    if (!parsed) throw invalidParam(name);
    // A string with its own offset keeps its digits (verified upstream); timestamps are converted.
    return parsed.zoneSource === 'string' ? parsed.ownWallClock : parsed.wallClock;
  }

  /** `zone` when it names a real zone, else the site's. */
  private realZone(zone: string): string {
    return resolveZone(zone) ? zone : this.deps.timezone;
  }

  /** The stored zone of an event and its abbreviation at the event's start. */
  private zoneFields(zone: string, startLocal: string, startUtc: string): Pick<EventTimes, 'timezone' | 'timezone_abbr'> {
    const real = this.realZone(zone);
    const instant = wallClockToInstant(startLocal, real) ?? new Date(`${startUtc.replace(' ', 'T')}Z`);
    return { timezone: zone, timezone_abbr: timezoneAbbr(real, instant) ?? timezoneAbbr(this.deps.timezone, instant) ?? '' };
  }

  /** Computes the stored times from wall clocks, zone and all-day flag. */
  private times(start: string, end: string, zone: string, allDay: boolean): EventTimes {
    let s = start;
    let e = end;
    if (allDay) {
      s = snapToDayStart(s) ?? s;
      e = snapToDayEnd(e) ?? e;
    }
    if (e < s) e = s;
    const real = this.realZone(zone);
    const startUtc = localToUtc(s, real) ?? s;
    return { start_local: s, end_local: e, start_utc: startUtc, end_utc: localToUtc(e, real) ?? e, ...this.zoneFields(zone, s, startUtc), all_day: flag(allDay) };
  }

  /**
   * The linked entries of a write, checked before anything is fetched or stored: one venue
   * at most (upstream 400 `could-not-create-venue`), organizers as a list. Images of
   * entries given as data are side-loaded here too, so that a bad one stops the write early.
   */
  private async linkedEntries(input: EventInput, p: Principal | null): Promise<LinkedEntries> {
    let venue: LinkedEntry[] | undefined;
    let organizers: LinkedEntry[] | undefined;
    if (input.venue !== undefined) {
      venue = parseLinkedEntries('venue', input.venue);
      if (!venue || venue.length > 1) throw apiError('could-not-create-venue', 'The venue could not be created from the provided data', 400);
    }
    if (input.organizer !== undefined) {
      organizers = parseLinkedEntries('organizer', input.organizer);
      if (!organizers) throw apiError('could-not-create-organizer', 'The organizer could not be created from the provided data', 400);
    }
    // Items given as data are created: their authors follow the rule of a create of their kind.
    for (const [service, entries] of [
      [this.deps.venues, venue],
      [this.deps.organizers, organizers],
    ] as const) {
      for (const e of entries ?? []) if ('data' in e) service.assertAuthor(e.data, p, 'create');
    }
    // Each image URL is a download of up to `imageBytes` for up to 8 s: a request may ask for a bounded number.
    let downloads = this.deps.images.downloads(input.image) ? 1 : 0;
    for (const [name, entries] of [
      ['venue', venue],
      ['organizer', organizers],
    ] as const) {
      downloads += (entries ?? []).filter((e) => 'data' in e && this.deps.images.downloads(e.data.image)).length;
      if (downloads > this.deps.imagesPerRequest) throw tooManyImages(name, this.deps.imagesPerRequest);
    }
    const out: LinkedEntries = {};
    if (venue) out.venue = venue[0] ? await this.withImage('venue', venue[0], p) : null;
    if (organizers) {
      out.organizers = [];
      for (const entry of organizers) out.organizers.push(await this.withImage('organizer', entry, p));
    }
    return out;
  }

  /** A linked entry with the attachment id of its `image`, if it is data with one. */
  private async withImage(type: 'venue' | 'organizer', entry: LinkedEntry, p: Principal | null): Promise<ResolvedEntry> {
    if ('id' in entry || entry.data.image === undefined) return entry;
    try {
      return { ...entry, image: await this.deps.images.choose(entry.data.image, p) };
    } catch (e) {
      // The image is part of the venue (organizer) value: report that parameter.
      if (e instanceof ApiError && e.code === 'rest_invalid_param') throw invalidParam(type);
      throw e;
    }
  }

  /**
   * Venue and organizer ids for the write, creating the items given as data (inside `tx`).
   * Items given by id are locked and must still exist: a link never points at nothing. They
   * are locked in one order (the venue, then organizers by id) and before the event itself,
   * as deleting a venue or organizer locks it before the events it leaves: two writes then
   * never wait on each other in a circle.
   */
  private async link(tx: Store, entries: LinkedEntries, p: Principal | null, now: Date) {
    const byId = (list: (ResolvedEntry | null | undefined)[]) => list.flatMap((e) => (e && 'id' in e ? [e.id] : []));
    // The rows read here are the rows the answer shows: a write that renders the event reuses them.
    const venueRows: LinkedRow<'venues'>[] = [];
    const organizerRows: LinkedRow<'organizers'>[] = [];
    for (const id of byId([entries.venue])) {
      const row = await tx.venues.get(id, { lock: true });
      if (!row) throw invalidParam('venue');
      venueRows.push(row);
    }
    for (const id of [...new Set(byId(entries.organizers ?? []))].sort((a, b) => a - b)) {
      const row = await tx.organizers.get(id, { lock: true });
      if (!row) throw invalidParam('organizer');
      organizerRows.push(row);
    }
    const linked = (service: LinkedPostService<'venues'> | LinkedPostService<'organizers'>, entry: ResolvedEntry) =>
      'id' in entry ? entry.id : service.insertIn(tx, entry.data, p, this.deps.timezone, now, entry.image);
    const venue = entries.venue === undefined ? undefined : entries.venue && (await linked(this.deps.venues, entries.venue));
    let organizers: number[] | undefined;
    if (entries.organizers) {
      organizers = [];
      for (const entry of entries.organizers) organizers.push(await linked(this.deps.organizers, entry));
      organizers = [...new Set(organizers)];
    }
    return { venue, organizers, venueRows, organizerRows };
  }

  /** Assigns the terms sent, when the caller may assign them (else silently not, as upstream). */
  private async assignTerms(tx: Store, eventId: number, input: EventInput, p: Principal | null, created?: NewEvent): Promise<EventLinks['terms']> {
    const assigned: { taxonomy: Taxonomy; id: number }[] = [];
    for (const [kind, key, cap] of [
      [CATEGORIES, 'categories', 'edit_tribe_events'],
      [TAGS, 'tags', 'edit_posts'],
    ] as const) {
      const value = input[key];
      if (value === undefined || !has(p, cap)) continue;
      const elements = phpEmpty(value) ? [] : ((termList(value) ?? []).filter((e) => typeof e === 'string' || typeof e === 'number') as (string | number)[]);
      const ids = await tx.events.setTerms(eventId, kind.taxonomy, await this.deps.terms.idsForEvent(tx, kind, elements), created);
      assigned.push(...ids.map((id) => ({ taxonomy: kind.taxonomy, id })));
    }
    return assigned;
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
    const { version } = view;
    const prefix = `${view.single ? 1 : 0}\n${view.urls.root}\n${view.urls.home}\n${viewerKey(view.principal)}\n`;
    const out = keys.map((key) => (version === undefined ? undefined : this.rendered.get(version, prefix + key.id)));
    const missing = keys.filter((_, i) => out[i] === undefined);
    if (!missing.length) return out;
    // Rows read now are at least as new as the version: a write in between changed the
    // version too, so what is kept under it is never served again.
    // A row whose status, author or password changed since its key was read (a write in
    // between) is left out: who may see it, and whether it is redacted, was judged on the key.
    const rows = (await rowsOf(missing)).filter((row) => {
      const key = missing.find((k) => k.id === row.id);
      return key !== undefined && key.status === row.status && key.author === row.author && key.password === row.password && key.status_before_trash === row.status_before_trash;
    });
    const fresh = new Map((await this.render(rows, view)).map((json, i) => [rows[i]!.id, RawJson.of(json)]));
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
    // An occurrence shows the links of the event it shows (the series, or its override).
    const linkId = (row: EventRow) => row.occurrence?.contentId ?? row.id;
    const ids = [...new Set(rows.map(linkId))];
    // Links a write has just made are known: they are not read again.
    const known = links && ids.every((id) => links.has(id)) ? links : undefined;
    const seriesIds = rows.flatMap((r) => (r.occurrence ? [r.occurrence.seriesId] : r.series_id === r.id ? [r.id] : []));
    const [images, organizerIds, termIds, series] = await Promise.all([
      this.deps.images.byIds(rows.map((r) => r.image_id)),
      known ? new Map(ids.map((id) => [id, [...known.get(id)!.organizers]])) : this.store.events.organizerIds(ids),
      known ? new Map(ids.map((id) => [id, [...known.get(id)!.terms]])) : this.store.events.termIds(ids),
      seriesIds.length ? this.store.occurrences.seriesMany(seriesIds) : new Map<number, SeriesRow>(),
    ]);
    const linkedView = { urls: view.urls, principal: view.principal, jsonLd: view.single };
    const given = known ? [...known.values()] : [];
    const venueIds = [...new Set(rows.map((r) => r.venue_id).filter((v): v is number => v !== null))];
    const venueRows = await withKnown(venueIds, given.flatMap((l) => l.venueRows ?? []), (ids) => this.deps.venues.getMany(ids));
    const venues = byId(venueRows, await this.deps.venues.render(venueRows, linkedView));
    const organizerRows = await withKnown(
      [...new Set([...organizerIds.values()].flat())],
      given.flatMap((l) => l.organizerRows ?? []),
      (ids) => this.deps.organizers.getMany(ids),
    );
    const organizers = byId(organizerRows, await this.deps.organizers.render(organizerRows, linkedView));
    const allTerms = [...termIds.values()].flat();
    const terms = new Map<number, EventTerm>();
    for (const kind of [CATEGORIES, TAGS]) {
      const wanted = allTerms.filter((t) => t.taxonomy === kind.taxonomy).map((t) => t.id);
      for (const row of await this.store.terms.getMany(kind.taxonomy, wanted)) terms.set(row.id, embeddedTermJson(kind, row, view.urls));
    }
    const termsOf = (eventId: number, taxonomy: string) =>
      (termIds.get(eventId) ?? [])
        .filter((t) => t.taxonomy === taxonomy)
        .map((t) => terms.get(t.id))
        .filter((t) => t !== undefined)
        .sort((a, b) => BY_NAME.compare(a.name, b.name) || a.id - b.id);
    return rows.map((row) => {
      const venue = row.venue_id !== null ? venues.get(row.venue_id) : undefined;
      const eventOrganizers = (organizerIds.get(linkId(row)) ?? []).map((id) => organizers.get(id)).filter((o) => o !== undefined);
      const canRead = this.can(view.principal, 'read', row);
      const seriesId = row.occurrence?.seriesId ?? row.id;
      const rules = series.get(seriesId);
      return eventJson(row, {
        urls: view.urls,
        siteZone: this.deps.timezone,
        canRead,
        series: rules ? { id: seriesId, recurrence: JSON.parse(rules.rules) as string[] } : undefined,
        image: images(row.image_id),
        categories: termsOf(linkId(row), CATEGORIES.taxonomy),
        tags: termsOf(linkId(row), TAGS.taxonomy),
        venue,
        organizers: eventOrganizers,
        jsonLd:
          view.single && canRead && !row.password
            ? {
                location: venue ? (venue.json_ld ?? false) : undefined,
                organizer: eventOrganizers[0] ? (eventOrganizers[0].json_ld ?? false) : undefined,
              }
            : undefined,
      });
    });
  }

  /** Creates an event and everything it links, in one transaction; its links come back with it, for rendering. */
  async create(input: EventInput, p: Principal | null, now: Date): Promise<{ row: EventRow; links: EventLinks }> {
    this.assertAuthor(input, p, 'create');
    const site = this.deps.timezone;
    const zone = input.timezone || site;
    const allDay = input.all_day === true;
    const times = this.times(this.wallClock('start_date', input.start_date, zone, now), this.wallClock('end_date', input.end_date, zone, now), zone, allDay);
    const recurrence = this.deps.series.check(input.recurrence, this.seriesTimesOf(times), now);
    // Publication dates are read (a bad one refused) before anything is fetched.
    const { status, date, date_utc } = newPostState(input, p, site, now, zone);
    const entries = await this.linkedEntries(input, p);
    const image = await this.deps.images.choose(input.image, p);
    const cost = input.cost !== undefined ? storableCost(input.cost) : null;
    const created = await withRetry(() =>
      this.store.transaction(async (tx) => {
        const { venue, organizers, venueRows, organizerRows } = await this.link(tx, entries, p, now);
        const title = filterTitle(input.title ?? '', p);
        const id = await insertPost(tx, {
          type: 'event',
          author: typeof input.author === 'number' ? input.author : (p?.id ?? 0),
          status,
          title,
          content: typeof input.description === 'string' ? filterContent(input.description, p) : '',
          excerpt: typeof input.excerpt === 'string' ? filterExcerpt(input.excerpt, p) : '',
          // Drafts and pending events get no slug from their title.
          // A title left empty by the filters gives no slug, as upstream.
          slugSource: typeof input.slug === 'string' ? input.slug : SLUGGED.has(status) && title ? title : null,
          date,
          date_utc,
          menu_order: input.sticky === true ? -1 : 0,
          image_id: (await this.deps.images.record(tx, image)) ?? null,
        });
        const details: EventDetails = {
          ...times,
          hidden: flag(input.hide_from_listings === true),
          featured: flag(input.featured === true),
          show_map: flag(input.show_map === true),
          show_map_link: flag(input.show_map_link === true),
          // Nothing stored when no website is given: the response then shows the event URL.
          website: phpEmpty(input.website) ? null : sanitizeUrl(String(input.website)),
          cost: cost ? JSON.stringify(cost.values) : null,
          currency_symbol: cost?.currencySymbol ?? '',
          currency_position: cost?.currencyPosition ?? '',
          currency_code: '',
          venue_id: venue ?? null,
        };
        await tx.events.insertDetails(id, details);
        if (recurrence) await this.deps.series.create(tx, id, { ...this.seriesTimesOf(times), recurrence }, now);
        if (organizers?.length) await tx.events.setOrganizers(id, organizers, { status });
        const terms = await this.assignTerms(tx, id, input, p, { status });
        tx.changes.record('event', id, 'created');
        return { row: await tx.events.get(id), links: { organizers: organizers ?? [], terms, venueRows, organizerRows } };
      }),
    );
    if (!created.row) throw apiError('could-not-create-event', 'The event could not be created from the provided data', 400);
    return { row: created.row, links: created.links };
  }

  /** The times a series is expanded from: its first occurrence's, in its zone. */
  private seriesTimesOf(times: Pick<EventTimes, 'start_local' | 'end_local' | 'timezone'>): Omit<SeriesTimes, 'recurrence'> {
    return { start: times.start_local, end: times.end_local, zone: this.realZone(times.timezone || this.deps.timezone) };
  }

  /**
   * The stored times after an update; `undefined` when none
   * changes. The dates move only when both are sent, or when `all_day` is turned on (the stored
   * dates stand in for one not sent); a lone date is ignored, as upstream. A `timezone`
   * or `all_day: false` without both dates changes the zone (and its abbreviation) or the flag
   * and leaves local and UTC times as they are.
   */
  private sentTimes(row: EventRow, input: EventInput, sent: (name: string) => boolean, now: Date): EventTimes | undefined {
    const site = this.deps.timezone;
    const zone = sent('timezone') && input.timezone !== undefined ? input.timezone || site : row.timezone || site;
    const allDay = sent('all_day') ? input.all_day === true : row.all_day === 1;
    const bothDates = input.start_date !== undefined && input.end_date !== undefined;
    if (bothDates || (sent('all_day') && allDay)) {
      const read = (name: 'start_date' | 'end_date', stored: string) => (input[name] !== undefined ? this.wallClock(name, input[name], zone, now) : stored);
      return this.times(read('start_date', row.start_local), read('end_date', row.end_local), zone, allDay);
    }
    if (!sent('all_day') && !sent('timezone')) return undefined;
    const { start_local, end_local, start_utc, end_utc } = row;
    return { start_local, end_local, start_utc, end_utc, ...this.zoneFields(zone, start_local, start_utc), all_day: flag(allDay) };
  }

  /**
   * Updates the fields sent; every other field keeps its value (a partial update, where
   * upstream resets some omitted fields). A `status` of `trash` goes through the trash rule, and leaving the
   * trash restores the slug. A series (and an occurrence, by `scope`) follows the rules of
   * recurring events (README "Recurring events").
   */
  async update(target: WriteTarget<EventRow>, input: EventInput, sent: (name: string) => boolean, p: Principal | null, now: Date): Promise<EventRow> {
    // Whatever the scope: an occurrence's edit names its author as an update of the series does.
    this.assertAuthor(input, p, 'update');
    // Bad dates are refused before anything is fetched; the transaction computes them again from the row it locks.
    this.sentTimes(target.row, input, sent, now);
    assertPublicationDates(input, this.deps.timezone, now, input.timezone || target.row.timezone);
    const entries = await this.linkedEntries(input, p);
    const image = await this.deps.images.choose(input.image, p);
    const apply: ApplyUpdate = (tx, t, i, s, change) => this.applyUpdate(tx, t, i, s, p, now, entries, image, change);
    const recurring = this.recurring(p, now, apply);
    if (target.row.occurrence) return recurring.updateOccurrence(target, input, sent, input.scope ?? 'this');
    // A `recurrence` is checked before anything is written, against the times the event will have.
    const times = this.sentTimes(target.row, input, sent, now) ?? target.row;
    if (sent('recurrence')) this.deps.series.check(input.recurrence, this.seriesTimesOf(times), now);
    return withRetry(() =>
      this.store.transaction(async (tx) => {
        const before = await tx.events.get(target.row.id, { lock: true });
        const updated = await apply(tx, target, input, sent, { id: target.row.id, scope: before?.series_id === target.row.id ? 'all' : null });
        if (before) await recurring.afterUpdate(tx, before, updated, sent('recurrence') ? { value: input.recurrence } : undefined, input.reset_overrides === true);
        return present(await tx.events.get(updated.id), target);
      }),
    );
  }

  /** How recurring events are written by `p` at `now` (`recurring.ts`). */
  private recurring(p: Principal | null, now: Date, apply: ApplyUpdate): RecurringWrites {
    return new RecurringWrites(this.store, this.deps.series, {
      p,
      now,
      siteZone: this.deps.timezone,
      apply,
      can: (action, row) => this.can(p, action, row),
      seriesTimesOf: (times) => this.seriesTimesOf(times),
      wallClock: (name, value, zone) => this.wallClock(name, value, zone, now),
    });
  }

  /**
   * The update of one event inside the write's transaction: the fields sent, its links, terms
   * and status. The change log names `change.id` (an occurrence's id, for the event overriding it).
   */
  private async applyUpdate(
    tx: Store,
    target: WriteTarget<EventRow>,
    input: EventInput,
    sent: (name: string) => boolean,
    p: Principal | null,
    now: Date,
    entries: LinkedEntries,
    image: ImageChoice,
    change: { id: number; scope: ChangeScope | null },
  ): Promise<EventRow> {
    const site = this.deps.timezone;
    const { venue, organizers } = await this.link(tx, entries, p, now);
    const row = recheck(await tx.events.get(target.row.id, { lock: true }), target, p, (r) => this.can(p, 'edit', r));
    const times = this.sentTimes(row, input, sent, now);
    const zone = times?.timezone || row.timezone || site;
    const post: Parameters<Store['posts']['update']>[1] = {};
    if (input.title !== undefined) post.title = filterTitle(input.title, p);
    if (input.description !== undefined) post.content = filterContent(input.description, p);
    if (input.excerpt !== undefined) post.excerpt = filterExcerpt(input.excerpt, p);
    if (input.author !== undefined) post.author = input.author;
    if (image !== undefined) post.image_id = (await this.deps.images.record(tx, image)) ?? null;
    if (input.sticky !== undefined) post.menu_order = input.sticky === true ? -1 : 0;
    const { status, trashing, changes } = await moveStatus(tx, EVENT, row, input, p, this.can(p, 'delete', row), site, now, zone);
    Object.assign(post, changes);
    const slug = post.slug !== undefined ? post.slug : row.slug;
    // An event overriding an occurrence shows the series' slug: it never gets one of its own.
    const overrides = row.series_id !== null && row.series_id !== row.id;
    if (overrides) delete post.slug;
    else if (typeof input.slug === 'string') post.slug = (await uniquePostSlug(tx, 'event', input.slug, row.id)) || String(row.id);
    else if (!slug && SLUGGED.has(status)) {
      post.slug = (await uniquePostSlug(tx, 'event', post.title ?? row.title, row.id)) || String(row.id);
    }
    await tx.posts.update(row.id, post);

    const details: Parameters<Store['events']['updateDetails']>[1] = { ...times };
    if (input.hide_from_listings !== undefined) details.hidden = flag(input.hide_from_listings === true);
    if (input.featured !== undefined) details.featured = flag(input.featured === true);
    if (input.show_map !== undefined) details.show_map = flag(input.show_map === true);
    if (input.show_map_link !== undefined) details.show_map_link = flag(input.show_map_link === true);
    if (sent('website')) details.website = phpEmpty(input.website) ? '' : sanitizeUrl(String(input.website));
    if (sent('cost')) {
      const cost = storableCost(input.cost);
      details.cost = cost ? JSON.stringify(cost.values) : null;
      details.currency_symbol = cost?.currencySymbol ?? '';
      details.currency_position = cost?.currencyPosition ?? '';
    }
    if (venue !== undefined) details.venue_id = venue;
    await tx.events.updateDetails(row.id, details);
    if (organizers !== undefined) await tx.events.setOrganizers(row.id, organizers);
    await this.assignTerms(tx, row.id, input, p);
    if (trashing) await moveToTrash(tx, EVENT, present(await tx.events.get(row.id), target), site, now);
    tx.changes.record('event', change.id, 'updated', change.scope);
    return present(await tx.events.get(row.id), target);
  }

  /**
   * Deletes an event (`force`: for good; else to the trash, a second time 410). An occurrence of
   * a series is cancelled (`scope` `this`), the series ended before it (`following`), or the
   * whole series deleted (`all`). The row to show in the answer.
   */
  async remove(target: WriteTarget<EventRow>, options: { force: boolean; scope?: ChangeScope }, p: Principal | null, now: Date): Promise<EventRow | undefined> {
    const recurring = this.recurring(p, now, () => Promise.reject(new Error('calendar: no update here')));
    if (target.row.occurrence) {
      const scope = options.scope ?? 'this';
      if (scope !== 'all') return recurring.cancel(target, scope);
      const series = await this.store.events.get(target.row.occurrence.seriesId);
      if (!series) throw target.gone();
      return this.remove({ row: series, gone: target.gone }, { force: options.force }, p, now);
    }
    if (options.force) {
      await this.deletePermanently(target, p);
      return undefined;
    }
    return this.trash(target, p, now);
  }

  /** Moves the event to the trash (a series with its occurrences); a second time is 410. */
  async trash(target: WriteTarget<EventRow>, p: Principal | null, now: Date): Promise<EventRow> {
    return withRetry(() =>
      this.store.transaction(async (tx) => {
        const row = recheck(await tx.events.get(target.row.id, { lock: true }), target, p, (r) => this.can(p, 'delete', r));
        await moveToTrash(tx, EVENT, row, this.deps.timezone, now);
        const trashed = present(await tx.events.get(row.id), target);
        if (row.series_id === row.id) await followSeries(tx, trashed);
        tx.changes.record('event', row.id, 'updated', row.series_id === row.id ? 'all' : null);
        return trashed;
      }),
    );
  }

  /** Removes the event for good (`force=true`), with its links (a series with its occurrences); venues and organizers stay. */
  async deletePermanently(target: WriteTarget<EventRow>, p: Principal | null): Promise<void> {
    await withRetry(() =>
      this.store.transaction(async (tx) => {
        const row = recheck(await tx.events.get(target.row.id, { lock: true }), target, p, (r) => this.can(p, 'delete', r));
        if (row.series_id === row.id) {
          await removeOverrides(tx, await overridesOf(tx, row.id));
          await tx.occurrences.deleteSeries(row.id);
        }
        await tx.events.deletePermanently(row.id);
        tx.changes.record('event', row.id, 'deleted', row.series_id === row.id ? 'all' : null);
      }),
    );
  }
}
