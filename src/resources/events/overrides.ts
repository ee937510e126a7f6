/**
 * Events that override one occurrence of a series: a copy of the series' post, details, venue,
 * organizers and terms at the occurrence's times, which the occurrence then shows and an edit
 * of "this occurrence" changes, through the same rules as any event. They are never listed nor
 * read by their own id: the occurrence is.
 */
import type { Store } from '../store.js';
import type { OccurrenceRow } from '../../recurrence/queries.js';
import { CATEGORIES, TAGS } from '../terms/args.js';
import type { EventRow } from './store.js';

/** Times of a copy: an occurrence's, or the first of a new series. */
type CopyTimes = Pick<EventRow, 'start_local' | 'end_local' | 'start_utc' | 'end_utc'>;

/**
 * A new event copied from `series` (post, details, venue, organizers, terms) at `times`, with
 * `slug` and `seriesOf` (its id → its `series_id`); its id. Term counts follow, as for any write.
 */
export async function copyEvent(tx: Store, series: EventRow, times: CopyTimes, slug: string | null, seriesOf: (id: number) => number): Promise<number> {
  const id = await tx.posts.insert({
    type: 'event',
    author: series.author,
    status: series.status,
    status_before_trash: series.status_before_trash,
    title: series.title,
    content: series.content,
    excerpt: series.excerpt,
    slug,
    password: series.password,
    date: series.date,
    date_utc: series.date_utc,
    modified: series.modified,
    modified_utc: series.modified_utc,
    menu_order: series.menu_order,
    parent: series.parent,
    image_id: series.image_id,
  });
  await tx.events.insertDetails(id, {
    start_local: times.start_local,
    end_local: times.end_local,
    start_utc: times.start_utc,
    end_utc: times.end_utc,
    timezone: series.timezone,
    timezone_abbr: series.timezone_abbr,
    all_day: series.all_day,
    hidden: series.hidden,
    featured: series.featured,
    show_map: series.show_map,
    show_map_link: series.show_map_link,
    website: series.website,
    cost: series.cost,
    currency_symbol: series.currency_symbol,
    currency_position: series.currency_position,
    currency_code: series.currency_code,
    venue_id: series.venue_id,
    series_id: seriesOf(id),
  });
  const created = { status: series.status };
  const organizers = (await tx.events.organizerIds([series.id])).get(series.id) ?? [];
  if (organizers.length) await tx.events.setOrganizers(id, organizers, created);
  const terms = (await tx.events.termIds([series.id])).get(series.id) ?? [];
  for (const kind of [CATEGORIES, TAGS]) {
    await tx.events.setTerms(id, kind.taxonomy, { ids: terms.filter((t) => t.taxonomy === kind.taxonomy).map((t) => t.id) }, created);
  }
  return id;
}

/** Makes the event that overrides occurrence `o` of `series`, as a copy of the series at the occurrence's times; its id. */
export async function createOverride(tx: Store, series: EventRow, o: OccurrenceRow): Promise<number> {
  // The occurrence shows the series' slug: an override has none of its own.
  const id = await copyEvent(tx, series, o, null, () => series.id);
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
 * Gives a series' overrides what decides who sees them: its status (a series made a draft,
 * published or trashed takes its occurrences along, edited ones included; term counts follow),
 * password and hidden flag, and its author when it changed from `formerAuthor`: an occurrence
 * given an author of its own (`scope=this`) keeps it, as an event keeps the author it was given.
 */
export async function followSeries(
  tx: Store,
  series: Pick<EventRow, 'id' | 'status' | 'status_before_trash' | 'author' | 'password' | 'hidden'>,
  formerAuthor = series.author,
): Promise<void> {
  for (const id of await overridesOf(tx, series.id)) {
    const follows: Parameters<Store['posts']['update']>[1] = {
      status: series.status,
      status_before_trash: series.status_before_trash,
      password: series.password,
    };
    if (formerAuthor !== series.author && (await tx.posts.get(id))?.author === formerAuthor) follows.author = series.author;
    await tx.posts.update(id, follows);
    await tx.events.updateDetails(id, { hidden: series.hidden });
  }
}
