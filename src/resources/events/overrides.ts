/**
 * Events that override one occurrence of a series: a copy of the series' post, details, venue,
 * organizers and terms at the occurrence's times, which the occurrence then shows and an edit
 * of "this occurrence" changes, through the same rules as any event. They are never listed nor
 * read by their own id: the occurrence is.
 */
import type { Store } from '../../store/index.js';
import type { OccurrenceRow } from '../../recurrence/queries.js';
import { CATEGORIES, TAGS } from '../terms/args.js';
import type { EventRow } from './queries.js';

/** Makes the event that overrides occurrence `o` of `series`, as a copy of the series at the occurrence's times; its id. */
export async function createOverride(tx: Store, series: EventRow, o: OccurrenceRow): Promise<number> {
  const { id: _id, occurrence: _occurrence, post_id: _post, series_id: _series, start_local: _s, end_local: _e, start_utc: _su, end_utc: _eu, ...row } = series as EventRow & { post_id?: number };
  const id = await tx.posts.insert({
    type: 'event',
    author: row.author,
    status: row.status,
    status_before_trash: row.status_before_trash,
    title: row.title,
    content: row.content,
    excerpt: row.excerpt,
    // The occurrence shows the series' slug: an override has none of its own.
    slug: null,
    password: row.password,
    date: row.date,
    date_utc: row.date_utc,
    modified: row.modified,
    modified_utc: row.modified_utc,
    menu_order: row.menu_order,
    parent: row.parent,
    image_id: row.image_id,
  });
  await tx.events.insertDetails(id, {
    start_local: o.start_local,
    end_local: o.end_local,
    start_utc: o.start_utc,
    end_utc: o.end_utc,
    timezone: row.timezone,
    timezone_abbr: row.timezone_abbr,
    all_day: row.all_day,
    hidden: row.hidden,
    featured: row.featured,
    show_map: row.show_map,
    show_map_link: row.show_map_link,
    website: row.website,
    cost: row.cost,
    currency_symbol: row.currency_symbol,
    currency_position: row.currency_position,
    currency_code: row.currency_code,
    venue_id: row.venue_id,
    series_id: series.id,
  });
  const created = { status: row.status };
  const organizers = (await tx.events.organizerIds([series.id])).get(series.id) ?? [];
  if (organizers.length) await tx.events.setOrganizers(id, organizers, created);
  const terms = (await tx.events.termIds([series.id])).get(series.id) ?? [];
  for (const kind of [CATEGORIES, TAGS]) {
    await tx.events.setTerms(id, kind.taxonomy, terms.filter((t) => t.taxonomy === kind.taxonomy).map((t) => t.id), created);
  }
  await tx.occurrences.update(o.id, { content_id: id });
  return id;
}

/** Removes override events for good (their occurrences left the index, or were reset). */
export async function removeOverrides(tx: Store, ids: readonly number[]): Promise<void> {
  for (const id of ids) await tx.events.deletePermanently(id);
}

/** The override events of a series. */
export async function overridesOf(tx: Store, seriesId: number): Promise<number[]> {
  return (await tx.occurrences.of(seriesId)).filter((o) => o.content_id !== seriesId).map((o) => o.content_id);
}

/**
 * Gives a series' overrides the series' status (a series made a draft, published or trashed
 * takes its occurrences along, overridden ones included); term counts follow.
 */
export async function followSeriesStatus(tx: Store, series: Pick<EventRow, 'id' | 'status' | 'status_before_trash'>): Promise<void> {
  for (const id of await overridesOf(tx, series.id)) await tx.posts.update(id, { status: series.status, status_before_trash: series.status_before_trash });
}
