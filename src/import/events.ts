/**
 * Imports a source's events: with their dates and zones, flags, cost, website, terms, venue
 * and organizers (through the maps of what those became), each into the event it became last
 * time (updated when the source modified it since) or a new one, in one transaction with its
 * record. Term counts follow, as for any write.
 */
import { copyFields } from './fields.js';
import type { EventsTable } from '../store/database.js';
import { CATEGORIES, TAGS, type TermKind } from '../resources/terms/args.js';
import { importLinkedItem, type KindImport } from './linked.js';
import { importPost, sourcePost } from './posts.js';
import { emptyReport, type KindReport } from './report.js';
import type { ImportRun } from './run.js';
import { SourceError } from './source.js';
import type { Store } from '../resources/store.js';
import { resolveZone, timezoneAbbr } from '../dates/index.js';
import { phpEmpty } from '../php/empty.js';
import { costFromInput, withStorableSymbol } from '../resources/events/cost.js';
import { isEventTimezone } from '../resources/events/args.js';
import { cleanText } from '../http/params.js';
import { importedCost } from './cost.js';
import { sanitizeUrl } from '../text/url.js';
import { ItemRules } from './write-rules.js';
import { ApiError } from '../http/errors.js';
import type { Recurrence } from '../recurrence/rules.js';
import { overridesOf, removeOverrides } from '../resources/events/overrides.js';

/** What the other kinds became (source id → id here); venues and organizers grow when an event pulls one in under `since`. */
export interface LinkedIds {
  categories: ReadonlyMap<number, number>;
  tags: ReadonlyMap<number, number>;
  venues: KindImport;
  organizers: KindImport;
}

/** The window that holds every event the original lists (its default is today to two years ahead). */
export const ALL_EVENTS = { start_date: '1900-01-01', end_date: '2999-12-31' };

const flag = (item: Record<string, unknown>, key: string) => (item[key] === true ? 1 : 0);
/** The source ids of a list of linked items (`[{ id }, …]`, or one). */
function linkedIds(list: unknown): number[] {
  const out: number[] = [];
  for (const entry of Array.isArray(list) ? list : [list]) {
    if (typeof entry === 'object' && entry !== null && 'id' in entry && typeof entry.id === 'number') out.push(entry.id);
  }
  return out;
}

/** The ids here of source ids; those not imported are reported, left out, and counted in `missed`. */
function mapped(
  sourceIds: readonly number[],
  ids: ReadonlyMap<number, number>,
  what: string,
  eventId: number,
  report: KindReport,
  missed: { count: number },
): number[] {
  const out: number[] = [];
  for (const id of sourceIds) {
    const here = ids.get(id);
    if (here !== undefined) out.push(here);
    else {
      report.warnings.push(`event ${eventId}: ${what} ${id} was not imported; left out`);
      missed.count++;
    }
  }
  return out;
}

/**
 * Venues and organizers an event links that were left out under `since` (modified before it,
 * never imported): imported now, so that the event keeps its links.
 */
async function pullDeferred(run: ImportRun, kind: 'venue' | 'organizer', sourceIds: readonly number[], into: KindImport): Promise<void> {
  const deferred = run.deferred.get(kind);
  for (const id of sourceIds) {
    const item = deferred?.get(id);
    if (item === undefined || into.ids.has(id)) continue;
    deferred?.delete(id);
    into.report.older--;
    await importLinkedItem(run, kind, item, into, { ignoreSince: true });
  }
}

/** An event's cost as the source shows it (`cost_details`). */
interface SourceCost {
  currency_symbol?: unknown;
  currency_position?: unknown;
  currency_code?: unknown;
  values?: unknown;
}

/**
 * The event details of a source event (without its venue) under the rules of an event write:
 * its dates days that exist, its zone one a write accepts (its abbreviation the zone's at the
 * start, as a write computes it), its website a URL a write accepts, stored as cleaned, its
 * cost the values a write keeps. Throws a {@link Refusal} naming the field that fails.
 */
function eventDetails(item: Record<string, unknown>, rules: ItemRules): Omit<EventsTable, 'post_id' | 'venue_id' | 'series_id'> {
  const [start, end, startUtc, endUtc] = (['start_date', 'end_date', 'utc_start_date', 'utc_end_date'] as const).map((k) => rules.date(k, item[k])) as [
    string,
    string,
    string,
    string,
  ];
  const timezone = rules.timezone('timezone', item.timezone);
  const shownAbbr = typeof item.timezone_abbr === 'string' ? item.timezone_abbr : '';
  // A zone that names none (empty: the site's; `UTCfoo`) keeps the source's abbreviation only when that names a zone itself.
  const abbr = resolveZone(timezone) ? (timezoneAbbr(timezone, new Date(`${startUtc.replace(' ', 'T')}Z`)) ?? '') : isEventTimezone(shownAbbr) ? shownAbbr : '';
  const details = (typeof item.cost_details === 'object' && item.cost_details !== null ? item.cost_details : {}) as SourceCost;
  rules.within('cost', item.cost);
  rules.within('cost_details.values', details.values);
  const symbol = typeof details.currency_symbol === 'string' ? rules.text('cost_details.currency_symbol', details.currency_symbol) : '';
  const shownValues = costFromInput(Array.isArray(details.values) ? details.values : [])?.values.map(cleanText) ?? [];
  const { currencySymbol, currencyPosition } = withStorableSymbol({
    values: shownValues,
    currencySymbol: symbol,
    currencyPosition: details.currency_position === 'prefix' || details.currency_position === 'postfix' ? details.currency_position : '',
  });
  const shownCost =
    typeof item.cost === 'number' && Number.isFinite(item.cost) ? String(item.cost) : rules.text('cost', typeof item.cost === 'string' ? item.cost : '');
  const cost = importedCost({ cost: shownCost, values: shownValues, currencySymbol, currencyPosition });
  // Where the source's cost cannot be rendered the same here (a cost the original's own locale rendered), the difference is reported.
  rules.note('cost', shownCost, cost.cost);
  rules.note('cost_details.values', JSON.stringify(shownValues), JSON.stringify(cost.values));
  // The source shows the event's own URL as its website when it has none.
  const shownWebsite = item.website;
  const website =
    phpEmpty(shownWebsite) || shownWebsite === item.url ? null : rules.note('website', shownWebsite, sanitizeUrl(rules.url('website', shownWebsite)));
  return {
    start_local: start,
    end_local: end < start ? start : end,
    start_utc: startUtc,
    end_utc: endUtc < startUtc ? startUtc : endUtc,
    timezone: rules.note('timezone', item.timezone, timezone),
    timezone_abbr: rules.note('timezone_abbr', item.timezone_abbr, abbr),
    all_day: flag(item, 'all_day'),
    hidden: flag(item, 'hide_from_listings'),
    featured: flag(item, 'featured'),
    show_map: flag(item, 'show_map'),
    show_map_link: flag(item, 'show_map_link'),
    website,
    cost: cost.stored ? JSON.stringify(cost.stored.values) : null,
    currency_symbol: rules.note('cost_details.currency_symbol', symbol, currencySymbol),
    currency_position: currencyPosition,
    currency_code: typeof details.currency_code === 'string' ? details.currency_code : '',
  };
}

/** A series of the source, as its occurrences in the archive show it (this library's API, `series`). */
interface SourceSeries {
  /** The original starts of the occurrences the source listed. */
  listed: Set<string>;
  /** How many of them the source shows edited (not carried over). */
  edited: number;
}

/** The series an archive item is an occurrence of (this library's own API shows it), if it is one. */
function seriesOf(item: unknown): { id: number; originalStart: string; overridden: boolean } | undefined {
  const series = typeof item === 'object' && item !== null ? (item as { series?: unknown }).series : undefined;
  if (typeof series !== 'object' || series === null) return undefined;
  const { id, original_start, overridden } = series as { id?: unknown; original_start?: unknown; overridden?: unknown };
  return Number.isSafeInteger(id) && typeof original_start === 'string'
    ? { id: id as number, originalStart: original_start, overridden: overridden === true }
    : undefined;
}

/** The original's add-on numbers the occurrences of its recurring events from here. */
const PROVISIONAL_BASE = 10_000_000;

/** Why a write of the recurring events' rules refused a recurrence, as a report says it. */
function refusal(e: unknown): Error {
  const params =
    e instanceof ApiError && e.data && typeof e.data.params === 'object' && e.data.params !== null ? (e.data.params as Record<string, unknown>) : {};
  return new Error(`its recurrence is refused here: ${String(params.recurrence ?? (e instanceof Error ? e.message : e))}`);
}

/**
 * Makes an imported event the series the source shows (`recurrence` lines, this library's API),
 * checked as a write here would check it: its occurrences are indexed, and those the source no
 * longer lists (cancelled there) cancelled. Edits of single occurrences are not carried over
 * (reported). An event that no longer recurs at the source stops recurring here (`source`
 * absent).
 */
async function asSeries(
  tx: Store,
  run: ImportRun,
  id: number,
  lines: unknown,
  details: { start_local: string; end_local: string; timezone: string },
  source: SourceSeries | undefined,
): Promise<void> {
  const isSeries = (await tx.events.get(id))?.series_id === id;
  if (!source) {
    if (!isSeries) return;
    await removeOverrides(tx, await overridesOf(tx, id));
    await tx.occurrences.deleteSeries(id);
    await tx.events.updateDetails(id, { series_id: null });
    return;
  }
  const zone = details.timezone && resolveZone(details.timezone) ? details.timezone : 'UTC';
  let recurrence: Recurrence | undefined;
  try {
    recurrence = run.series.check(lines, { start: details.start_local, end: details.end_local, zone }, run.now);
  } catch (e) {
    throw refusal(e);
  }
  if (!recurrence) return;
  const times = { start: details.start_local, end: details.end_local, zone, recurrence };
  if (!isSeries) await run.series.create(tx, id, times, run.now);
  else await removeOverrides(tx, await run.series.reindex(tx, id, times, run.now));
  const last = [...source.listed].sort().at(-1);
  for (const o of await tx.occurrences.of(id)) {
    if (!o.cancelled && last !== undefined && o.original_start <= last && !source.listed.has(o.original_start))
      await tx.occurrences.update(o.id, { cancelled: 1 });
  }
}

/** Imports one event of the source (`item`, as the source shows it); `series` when it is the series of occurrences the source listed. */
async function importEventItem(run: ImportRun, item: unknown, linked: LinkedIds, into: KindImport, series?: SourceSeries): Promise<void> {
  const { report } = into;
  const rules = new ItemRules(run.keepHtml, run.now);
  const post = sourcePost(item, 'event', 'title', rules);
  const fields = (typeof item === 'object' && item !== null ? item : {}) as Record<string, unknown>;
  if (typeof post === 'string') {
    report.skipped.push({ sourceId: typeof fields.id === 'number' ? fields.id : undefined, reason: post });
    return;
  }
  const [venueIds, organizerIds] = [linkedIds(fields.venue).slice(0, 1), linkedIds(fields.organizer)];
  if (run.since !== undefined && post.modified_utc >= run.since) {
    await pullDeferred(run, 'venue', venueIds, linked.venues);
    await pullDeferred(run, 'organizer', organizerIds, linked.organizers);
  }
  /** The event's details under the write rules, once it is to be written. */
  let details: ReturnType<typeof eventDetails> | undefined;
  /** The links here, once the event is to be written: links to items not imported are reported then. */
  let links: { venue: number | null; organizers: number[]; terms: (readonly [TermKind, number[]])[] } | undefined;
  const missed = { count: 0 };
  await importPost(
    run,
    fields,
    post,
    rules,
    {
      kind: 'event',
      titleKey: 'title',
      // An event the original did not unlock shows `all_day: null`.
      redacted: fields.all_day === null,
      menuOrder: fields.sticky === true ? -1 : 0,
      get: (tx, id, lock) => tx.events.get(id, { lock }),
      incomplete: () => missed.count > 0,
      check: (checking) => {
        checking.required('title', fields.title);
        for (const list of ['organizer', 'categories', 'tags'] as const) checking.within(list, linkedIds(fields[list]), true);
        details = eventDetails(fields, checking);
      },
      prepare: () => {
        if (details && String(fields.end_date) < details.start_local)
          report.warnings.push(`event ${post.id}: it ends before it starts; imported ending when it starts`);
        links = {
          venue: mapped(venueIds, linked.venues.ids, 'venue', post.id, report, missed)[0] ?? null,
          organizers: [...new Set(mapped(organizerIds, linked.organizers.ids, 'organizer', post.id, report, missed))],
          terms: [
            [CATEGORIES, mapped(linkedIds(fields.categories), linked.categories, 'category', post.id, report, missed)],
            [TAGS, mapped(linkedIds(fields.tags), linked.tags, 'tag', post.id, report, missed)],
          ],
        };
      },
      // Terms are unlinked under the old status and linked under the new one: counts follow.
      beforeUpdate: async (tx, id) => {
        for (const kind of [CATEGORIES, TAGS]) await tx.events.setTerms(id, kind.taxonomy, { ids: [] });
      },
      details: async (tx, id, isNew, status) => {
        if (!links || !details) throw new Error('event links were not prepared');
        const created = isNew ? { status } : undefined;
        if (isNew) await tx.events.insertDetails(id, { ...details, venue_id: links.venue });
        else await tx.events.updateDetails(id, { ...details, venue_id: links.venue });
        if (!isNew || links.organizers.length) await tx.events.setOrganizers(id, links.organizers, created);
        for (const [kind, termIds] of links.terms) await tx.events.setTerms(id, kind.taxonomy, { ids: termIds }, created);
        if (series || !isNew) await asSeries(tx, run, id, fields.recurrence, details, series);
        await copyFields(run, tx, 'events', id, fields, post.id, report);
      },
    },
    into.ids,
    report,
  );
}

/**
 * Imports the events of the source: its archive over every date, then, one by one, the events
 * of `alsoIds` the archive did not list (the original never lists events hidden from listings).
 */
export async function importEvents(run: ImportRun, linked: LinkedIds, alsoIds: readonly number[] = []): Promise<KindImport> {
  const into: KindImport = { ids: new Map(), report: emptyReport() };
  const seen = new Set<number>();
  const series = new Map<number, SourceSeries>();
  const provisional = new Map<string, number[]>();
  let done = 0;
  let total = 0;
  /** Imports an archive item, or notes it as an occurrence of a series. */
  const take = async (item: unknown) => {
    const occurrence = seriesOf(item);
    if (occurrence) {
      const s = series.get(occurrence.id) ?? { listed: new Set<string>(), edited: 0 };
      s.listed.add(occurrence.originalStart);
      if (occurrence.overridden) s.edited++;
      series.set(occurrence.id, s);
      return;
    }
    const { id, slug } = (typeof item === 'object' && item !== null ? item : {}) as { id?: unknown; slug?: unknown };
    if (typeof id === 'number' && id >= PROVISIONAL_BASE && typeof slug === 'string') provisional.set(slug, [...(provisional.get(slug) ?? []), id]);
    await importEventItem(run, item, linked, into);
  };
  for await (const page of run.source.pages('events', { ...ALL_EVENTS, ...run.query })) {
    if (page.failure) {
      // WordPress' collection listed the events of that page too: they are read one by one below.
      if (alsoIds.length)
        into.report.warnings.push(`page ${page.page} of ${page.totalPages} could not be read (${page.failure.message}): its events were read one by one`);
      else into.report.unreadPages.push(`page ${page.page} of ${page.totalPages} (${page.failure.message})`);
    }
    for (const item of page.items) {
      if (typeof item === 'object' && item !== null && 'id' in item && typeof item.id === 'number') seen.add(item.id);
      await take(item);
    }
    done += page.items.length;
    total = page.total;
    run.onProgress?.('event', done, total);
  }
  const unlisted = alsoIds.filter((id) => !seen.has(id));
  for (const id of unlisted) {
    try {
      const answer = await run.source.get(`/events/${id}`, run.query.context ? { context: run.query.context } : {});
      await take(answer.body);
    } catch (e) {
      // Gone since it was listed, or not readable by the account.
      if (!(e instanceof SourceError && e.status === 404)) into.report.skipped.push({ sourceId: id, reason: e instanceof Error ? e.message : String(e) });
    }
    run.onProgress?.('event', ++done, total + unlisted.length);
  }
  // Each series once, from its own read (its rules), with what its occurrences told.
  for (const [id, s] of series) {
    try {
      const answer = await run.source.get(`/events/${id}`, run.query.context ? { context: run.query.context } : {});
      await importEventItem(run, answer.body, linked, into, s);
      if (s.edited)
        into.report.warnings.push(
          `event ${id}: ${s.edited} edited occurrence${s.edited > 1 ? 's' : ''} of this recurring event imported as the series shows them (edits of single occurrences are not carried over)`,
        );
    } catch (e) {
      into.report.skipped.push({ sourceId: id, reason: `the recurring event could not be read (${e instanceof Error ? e.message : String(e)})` });
    }
  }
  for (const [slug, ids] of provisional) {
    into.report.warnings.push(
      `events ${ids.join(', ')}: occurrences of a recurring event of the original's add-on (ids above ${PROVISIONAL_BASE}, slug ${slug}) imported as single events: its API does not show their rules`,
    );
  }
  return into;
}
