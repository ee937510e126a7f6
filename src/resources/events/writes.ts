/**
 * Event writes: create, update (a partial one), trash and permanent deletion, each in one
 * transaction with its links, terms and change-log entry. Recurring events go through
 * `recurring.ts`; times through `times.ts`; the venue and organizers through `links.ts`.
 */
import { has, type Principal } from '../../auth/capabilities.js';
import type { ChangeScope } from '../../changes/log.js';
import type { ImageChoice } from '../../images/service.js';
import { phpEmpty } from '../../php/empty.js';
import { assertAuthorAllowed, type AuthorWrite } from '../../posts/author.js';
import { assertPublicationDates } from '../../posts/dates.js';
import { EVENT } from '../../posts/kinds.js';
import { insertPostColumns, moveStatus, newPostColumns, newPostState, settleSlug, type NewPost, type PostChanges } from '../../posts/lifecycle.js';
import { uniquePostSlug } from '../../posts/slug.js';
import { filterContent, filterExcerpt, filterTitle } from '../../posts/text.js';
import { moveToTrash } from '../../posts/trash.js';
import { present, recheck, type WriteTarget } from '../../posts/write-target.js';
import type { SeriesService } from '../../recurrence/series.js';
import { withRetry } from '../../store/retry.js';
import { sanitizeUrl } from '../../text/url.js';
import { CATEGORIES, TAGS } from '../terms/args.js';
import { inNamedOrder, namedTerms, termRefs, unmatchedTexts } from '../terms/named.js';
import type { TermService } from '../terms/service.js';
import type { TermRow } from '../terms/store.js';
import type { Store } from '../store.js';
import { eventPermits } from './access.js';
import { eventNotCreated } from './errors.js';
import type { EventInput } from './args.js';
import { termList } from './term-lists.js';
import { storableCost, type StoredCost } from './cost.js';
import type { EntryParser } from '../linked/entries.js';
import type { HostFields } from '../../fields/values.js';
import { NO_HOOKS, type CalendarHooks } from '../../hooks/calendar-hooks.js';
import { keptBefore, rewrittenSent } from '../../hooks/rewrites.js';
import { link, linkedEntries, type EventLinks, type LinkDeps, type LinkedEntries } from './links.js';
import { followSeries, overridesOf, removeOverrides } from './overrides.js';
import { RecurringWrites, type ApplyUpdate } from './recurring.js';
import type { EventDetails, EventRow, NewEvent } from './store.js';
import { flag, sentTimes, seriesTimesOf, storedTimes, wallClock, type EventTimes } from './times.js';
import { merged } from '../../merged.js';

/** What event rules need of the calendar. */
export interface EventDeps extends LinkDeps {
  terms: TermService;
  /** Recurring events' rules and index. */
  series: SeriesService;
  /** Another user as `author` only with `edit_others` (`strictAuthor`). */
  strictAuthor?: boolean;
  /** The fields the host declared. */
  fields?: HostFields;
  /** The host's hooks (`beforeChange` runs inside each write's transaction). */
  hooks?: CalendarHooks;
}

/** What an event write reads of its parameters before its transaction, which a hook may not change. */
const RESOLVED_BEFORE = ['venue', 'organizer', 'image', 'recurrence'];

/** Public statuses: the ones that get a slug derived from the title. */
const SLUGGED = new Set(['publish', 'future', 'private']);

/** The detail columns of a new event. */
function newDetails(input: EventInput, times: EventTimes, cost: StoredCost | null, venue: number | null | undefined): EventDetails {
  return merged(times, {
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
  });
}

/** The detail columns an update changes: the times that move, the fields sent, the venue when sent. */
function changedDetails(input: EventInput, sent: (name: string) => boolean, times: EventTimes | undefined, venue: number | null | undefined) {
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
  return details;
}

/** The writes of events, for {@link EventService}. */
export class EventWrites {
  constructor(
    private readonly store: Store,
    private readonly deps: EventDeps,
  ) {}

  /**
   * Creates an event and everything it links, in one transaction; its links come back with it,
   * for rendering. `parse` reads its `venue` and `organizer` ({@link linkedEntries}).
   */
  async create(sent: EventInput, p: Principal | null, now: Date, parse?: EntryParser): Promise<{ row: EventRow; links: EventLinks }> {
    const site = this.deps.timezone;
    const prepared = this.prepare(sent, p, now);
    const entries = await linkedEntries(this.deps, sent, p, parse);
    const image = await this.deps.images.choose(sent.image, p);
    const created = await withRetry(() =>
      this.store.transaction(async (tx) => {
        // The host's hook first, before anything is written: what it changes is checked again.
        const input = await this.hooks.before('events', 'create', sent, p);
        if (input !== sent) keptBefore('events', sent, input, RESOLVED_BEFORE);
        const { times, recurrence, state, cost } = input === sent ? prepared : this.prepare(input, p, now);
        const { venue, organizers, venueRows, organizerRows } = await link(this.deps, tx, entries, p, now);
        // Where a WITH may write, one statement checks the slug, inserts both, links the organizers
        // and returns the event as this write leaves it, unless a later step changes its post or
        // details (a slug made of its id, a series).
        const inWith = tx.dialect.writesInWith && !recurrence;
        const post = await newPostColumns(tx, await this.newPost(tx, input, p, state, image), { checkSlug: !inWith });
        const details = newDetails(input, times, cost, venue);
        const stored = inWith && !post.slugFromId ? await tx.events.insertWithPost(post.columns, details, organizers ?? [], post.slugUnchecked) : undefined;
        const inserted = stored && { ...stored, slug: await settleSlug(tx, post, stored.id, stored.slug) };
        const id = inserted?.id ?? (await insertPostColumns(tx, post));
        if (!inserted) await tx.events.insertDetails(id, details);
        const fieldValues = await this.deps.fields?.save(tx.fields, 'events', id, input, { created: true });
        if (recurrence) await this.deps.series.create(tx, id, { ...seriesTimesOf(times, site), recurrence }, now);
        if (organizers?.length && !inserted) await tx.events.setOrganizers(id, organizers, { status: state.status });
        const terms = await this.assignTerms(tx, id, input, p, { status: state.status });
        tx.changes.record('event', id, 'created');
        const links: EventLinks = {
          organizers: organizers ?? [],
          terms: terms.map((t) => ({ taxonomy: t.taxonomy, id: t.id })),
          venueRows,
          organizerRows,
          termRows: terms,
          fieldValues,
        };
        return { row: inserted ?? (await tx.events.get(id)), links };
      }),
    );
    if (!created.row) throw eventNotCreated();
    return { row: created.row, links: created.links };
  }

  /** The host's hooks. */
  private get hooks(): CalendarHooks {
    return this.deps.hooks ?? NO_HOOKS;
  }

  /** What a new event's parameters give before anything is written (a bad one refused). */
  private prepare(input: EventInput, p: Principal | null, now: Date) {
    this.assertAuthor(input, p, 'create');
    const site = this.deps.timezone;
    const zone = input.timezone || site;
    const times = storedTimes(
      wallClock('start_date', input.start_date, zone, site, now),
      wallClock('end_date', input.end_date, zone, site, now),
      zone,
      input.all_day === true,
      site,
    );
    const recurrence = this.deps.series.check(input.recurrence, seriesTimesOf(times, site), now);
    // Publication dates are read (a bad one refused) before anything is fetched.
    const state = newPostState(input, p, site, now, zone);
    const cost = input.cost !== undefined ? storableCost(input.cost) : null;
    return { times, recurrence, state, cost };
  }

  /** The post of a new event, its image recorded in `tx`. */
  private async newPost(
    tx: Store,
    input: EventInput,
    p: Principal | null,
    state: Pick<NewPost, 'status' | 'date' | 'date_utc'>,
    image: ImageChoice,
  ): Promise<NewPost> {
    const title = filterTitle(input.title ?? '', p);
    return {
      type: 'event',
      author: typeof input.author === 'number' ? input.author : (p?.id ?? 0),
      ...state,
      title,
      content: typeof input.description === 'string' ? filterContent(input.description, p) : '',
      excerpt: typeof input.excerpt === 'string' ? filterExcerpt(input.excerpt, p) : '',
      // Drafts and pending events get no slug from their title.
      // A title left empty by the filters gives no slug, as upstream.
      slugSource: typeof input.slug === 'string' ? input.slug : SLUGGED.has(state.status) && title ? title : null,
      menu_order: input.sticky === true ? -1 : 0,
      image_id: (await this.deps.images.record(tx, image)) ?? null,
    };
  }

  /**
   * Updates the fields sent; every other field keeps its value (a partial update, where
   * upstream resets some omitted fields). A `status` of `trash` goes through the trash rule, and leaving the
   * trash restores the slug. A series (and an occurrence, by `scope`) follows the rules of
   * recurring events (README "Recurring events"). `parse` reads its `venue` and `organizer`.
   */
  async update(
    target: WriteTarget<EventRow>,
    input: EventInput,
    sent: (name: string) => boolean,
    p: Principal | null,
    now: Date,
    parse?: EntryParser,
  ): Promise<EventRow> {
    const site = this.deps.timezone;
    // Whatever the scope: an occurrence's edit names its author as an update of the series does.
    this.assertAuthor(input, p, 'update');
    // Bad dates are refused before anything is fetched; the transaction computes them again from the row it locks.
    sentTimes(target.row, input, sent, site, now);
    assertPublicationDates(input, site, now, input.timezone || target.row.timezone);
    const entries = await linkedEntries(this.deps, input, p, parse);
    const image = await this.deps.images.choose(input.image, p);
    const apply: ApplyUpdate = (tx, t, i, s, change) => this.applyUpdate(tx, t, i, s, p, now, entries, image, change);
    const recurring = this.recurring(p, now, apply);
    if (target.row.occurrence) return recurring.updateOccurrence(target, input, sent, input.scope ?? 'this');
    // A `recurrence` is checked before anything is written, against the times the event will have.
    const times = sentTimes(target.row, input, sent, site, now) ?? target.row;
    if (sent('recurrence')) this.deps.series.check(input.recurrence, seriesTimesOf(times, site), now);
    return withRetry(() =>
      this.store.transaction(async (tx) => {
        const before = await tx.events.get(target.row.id, { lock: true });
        const updated = await apply(tx, target, input, sent, { id: target.row.id, scope: before?.series_id === target.row.id ? 'all' : null });
        if (before)
          await recurring.afterUpdate(tx, before, updated, sent('recurrence') ? { value: input.recurrence } : undefined, input.reset_overrides === true);
        return present(await tx.events.get(updated.id), target);
      }),
    );
  }

  /** How recurring events are written by `p` at `now` (`recurring.ts`). */
  private recurring(p: Principal | null, now: Date, apply: ApplyUpdate): RecurringWrites {
    const site = this.deps.timezone;
    return new RecurringWrites(this.store, this.deps.series, {
      p,
      now,
      siteZone: site,
      apply,
      can: (action, row) => eventPermits(p, action, row),
      seriesTimesOf: (times) => seriesTimesOf(times, site),
      wallClock: (name, value, zone) => wallClock(name, value, zone, site, now),
      beforeCancel: (occurrence, scope) => this.hooks.before('events', 'delete', { force: false, scope }, p, occurrence),
    });
  }

  /**
   * The update of one event inside the write's transaction: the fields sent, its links, terms
   * and status. The change log names `change.id` (an occurrence's id, for the event overriding it).
   */
  private async applyUpdate(
    tx: Store,
    target: WriteTarget<EventRow>,
    given: EventInput,
    givenSent: (name: string) => boolean,
    p: Principal | null,
    now: Date,
    entries: LinkedEntries,
    image: ImageChoice,
    change: { id: number; scope: ChangeScope | null },
  ): Promise<EventRow> {
    const site = this.deps.timezone;
    const { venue, organizers } = await link(this.deps, tx, entries, p, now);
    const row = recheck(await tx.events.get(target.row.id, { lock: true }), target, p, (r) => eventPermits(p, 'edit', r));
    const input = await this.hooks.before('events', 'update', given, p, row);
    if (input !== given) keptBefore('events', given, input, RESOLVED_BEFORE);
    const sent = rewrittenSent(given, input, givenSent);
    const times = sentTimes(row, input, sent, site, now);
    const { post, trashing } = await this.changedPost(tx, row, input, p, image, now, times?.timezone || row.timezone || site);
    await tx.posts.update(row.id, post);
    await tx.events.updateDetails(row.id, changedDetails(input, sent, times, venue));
    await this.deps.fields?.save(tx.fields, 'events', row.id, input);
    if (organizers !== undefined) await tx.events.setOrganizers(row.id, organizers);
    await this.assignTerms(tx, row.id, input, p);
    if (trashing) await moveToTrash(tx, EVENT, present(await tx.events.get(row.id), target), site, now);
    tx.changes.record('event', change.id, 'updated', change.scope);
    return present(await tx.events.get(row.id), target);
  }

  /** The post columns an update changes (its image recorded in `tx`), and whether it moves to the trash. */
  private async changedPost(
    tx: Store,
    row: EventRow,
    input: EventInput,
    p: Principal | null,
    image: ImageChoice,
    now: Date,
    zone: string,
  ): Promise<{ post: PostChanges; trashing: boolean }> {
    const post: PostChanges = {};
    if (input.title !== undefined) post.title = filterTitle(input.title, p);
    if (input.description !== undefined) post.content = filterContent(input.description, p);
    if (input.excerpt !== undefined) post.excerpt = filterExcerpt(input.excerpt, p);
    if (input.author !== undefined) post.author = input.author;
    if (image !== undefined) post.image_id = (await this.deps.images.record(tx, image)) ?? null;
    if (input.sticky !== undefined) post.menu_order = input.sticky === true ? -1 : 0;
    const { status, trashing, changes } = await moveStatus(tx, EVENT, row, input, p, eventPermits(p, 'delete', row), this.deps.timezone, now, zone);
    Object.assign(post, changes);
    const slug = post.slug !== undefined ? post.slug : row.slug;
    // An event overriding an occurrence shows the series' slug: it never gets one of its own.
    const overrides = row.series_id !== null && row.series_id !== row.id;
    if (overrides) delete post.slug;
    else if (typeof input.slug === 'string') post.slug = (await uniquePostSlug(tx, 'event', input.slug, row.id)) || String(row.id);
    else if (!slug && SLUGGED.has(status)) {
      post.slug = (await uniquePostSlug(tx, 'event', post.title ?? row.title, row.id)) || String(row.id);
    }
    return { post, trashing };
  }

  /** Refuses an event write that names an `author` `p` may not name (`strictAuthor`: another user only with `edit_others`). */
  private assertAuthor(input: EventInput, p: Principal | null, write: AuthorWrite): void {
    assertAuthorAllowed(this.deps.strictAuthor === true, EVENT, input.author, p, write);
  }

  /**
   * Assigns the terms sent, when the caller may assign them (else silently not, as upstream):
   * those named by id or slug in one look-up with the linking, then those of texts no slug
   * matched, found by name or created. The terms linked, in the order the lists named them.
   */
  private async assignTerms(tx: Store, eventId: number, input: EventInput, p: Principal | null, created?: NewEvent): Promise<TermRow[]> {
    const assigned: TermRow[] = [];
    for (const [kind, key, cap] of [
      [CATEGORIES, 'categories', 'edit_tribe_events'],
      [TAGS, 'tags', 'edit_posts'],
    ] as const) {
      const value = input[key];
      if (value === undefined || !has(p, cap)) continue;
      const named = namedTerms(
        phpEmpty(value) ? [] : (termList(value) ?? []).filter((e): e is string | number => typeof e === 'string' || typeof e === 'number'),
      );
      const linked = await tx.events.setTerms(eventId, kind.taxonomy, termRefs(named), created);
      const texts = unmatchedTexts(named, linked);
      const byName = texts.length ? await this.deps.terms.idsForTexts(tx, kind, texts, p) : new Map<string, number>();
      const linkedIds = new Set(linked.map((t) => t.id));
      const more = [...new Set(byName.values())].filter((id) => !linkedIds.has(id));
      if (more.length) linked.push(...(await tx.events.setTerms(eventId, kind.taxonomy, { ids: more }, created, false)));
      assigned.push(...inNamedOrder(named, linked, byName));
    }
    return assigned;
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
        const row = recheck(await tx.events.get(target.row.id, { lock: true }), target, p, (r) => eventPermits(p, 'delete', r));
        await this.hooks.before('events', 'delete', { force: false }, p, row);
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
        const row = recheck(await tx.events.get(target.row.id, { lock: true }), target, p, (r) => eventPermits(p, 'delete', r));
        await this.hooks.before('events', 'delete', { force: true }, p, row);
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
