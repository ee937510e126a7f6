/**
 * Imports a source's events: with their dates and zones, flags, cost, website, terms, venue
 * and organizers (through the maps of what those became), each into the event it became last
 * time (updated when the source modified it since) or a new one, in one transaction with its
 * record. Term counts follow, as for any write.
 */
import type { EventsTable } from '../store/database.js';
import type { Store } from '../store/index.js';
import { CATEGORIES, TAGS } from '../resources/terms/args.js';
import type { ImportMap } from './map.js';
import { freeSlug, importPost, postColumns, sourcePost } from './posts.js';
import type { PostImportOptions } from './linked.js';
import { emptyReport, type KindReport } from './report.js';
import type { Source } from './source.js';

/** What the other kinds became: source id → id here. */
export interface LinkedIds {
  categories: ReadonlyMap<number, number>;
  tags: ReadonlyMap<number, number>;
  venues: ReadonlyMap<number, number>;
  organizers: ReadonlyMap<number, number>;
}

/** The window that holds every event the original lists (its default is today to two years ahead). */
export const ALL_EVENTS = { start_date: '1900-01-01', end_date: '2999-12-31' };

const WALL_CLOCK = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const text = (item: Record<string, unknown>, key: string) => (typeof item[key] === 'string' ? (item[key] as string) : '');
const flag = (item: Record<string, unknown>, key: string) => (item[key] === true ? 1 : 0);

/** The ids of a list of linked items (`[{ id }, …]`), mapped; those not imported are reported. */
function mapped(list: unknown, ids: ReadonlyMap<number, number>, what: string, eventId: number, report: KindReport): number[] {
  const out: number[] = [];
  for (const entry of Array.isArray(list) ? list : [list]) {
    const id = typeof entry === 'object' && entry !== null && 'id' in entry && typeof entry.id === 'number' ? entry.id : undefined;
    if (id === undefined) continue;
    const here = ids.get(id);
    if (here === undefined) report.warnings.push(`event ${eventId}: ${what} ${id} was not imported; left out`);
    else out.push(here);
  }
  return out;
}

/** The event details of a source event (without its venue), or why they cannot be stored. */
function eventDetails(item: Record<string, unknown>): Omit<EventsTable, 'post_id' | 'venue_id'> | string {
  const times = ['start_date', 'end_date', 'utc_start_date', 'utc_end_date'].map((k) => text(item, k));
  if (!times.every((t) => WALL_CLOCK.test(t))) return 'its dates are not dates';
  const [start, end, startUtc, endUtc] = times as [string, string, string, string];
  const cost = typeof item.cost_details === 'object' && item.cost_details !== null ? (item.cost_details as Record<string, unknown>) : {};
  const values = Array.isArray(cost.values) ? cost.values.map(String).filter((v) => v !== '') : [];
  // The source shows the event's own URL as its website when it has none.
  const website = text(item, 'website');
  return {
    start_local: start,
    end_local: end < start ? start : end,
    start_utc: startUtc,
    end_utc: endUtc < startUtc ? startUtc : endUtc,
    timezone: text(item, 'timezone'),
    timezone_abbr: text(item, 'timezone_abbr'),
    all_day: flag(item, 'all_day'),
    hidden: flag(item, 'hide_from_listings'),
    featured: flag(item, 'featured'),
    show_map: flag(item, 'show_map'),
    show_map_link: flag(item, 'show_map_link'),
    website: website === '' || website === text(item, 'url') ? null : website,
    cost: values.length ? JSON.stringify(values) : null,
    currency_symbol: typeof cost.currency_symbol === 'string' ? cost.currency_symbol : '',
    currency_position: cost.currency_position === 'prefix' || cost.currency_position === 'postfix' ? cost.currency_position : '',
    currency_code: typeof cost.currency_code === 'string' ? cost.currency_code : '',
  };
}

/** Imports the events of the source; the source ids and the events they became. */
export async function importEvents(source: Source, store: Store, map: ImportMap, linked: LinkedIds, options: PostImportOptions): Promise<{ ids: Map<number, number>; report: KindReport }> {
  const report = emptyReport();
  const ids = new Map<number, number>();
  const now = options.now ?? new Date();
  let done = 0;
  for await (const page of source.pages('events', { ...ALL_EVENTS, ...options.query })) {
    for (const item of page.items) {
      const post = sourcePost(item, 'title');
      const fields = (typeof item === 'object' && item !== null ? item : {}) as Record<string, unknown>;
      const details = post ? eventDetails(fields) : 'no id or dates';
      if (!post || typeof details === 'string') {
        report.skipped.push({ sourceId: typeof fields.id === 'number' ? fields.id : undefined, reason: `not an event: ${details as string}` });
        continue;
      }
      if (details.end_local === details.start_local && text(fields, 'end_date') < text(fields, 'start_date')) report.warnings.push(`event ${post.id}: it ends before it starts; imported ending when it starts`);
      const venue = mapped(fields.venue, linked.venues, 'venue', post.id, report)[0] ?? null;
      const organizers = [...new Set(mapped(fields.organizer, linked.organizers, 'organizer', post.id, report))];
      const categories = mapped(fields.categories, linked.categories, 'category', post.id, report);
      const tags = mapped(fields.tags, linked.tags, 'tag', post.id, report);
      await importPost(
        store,
        map,
        post,
        {
          kind: 'event',
          get: (tx, id) => tx.events.get(id, { lock: true }),
          write: async (tx, existing) => {
            const columns = { ...postColumns('event', post, options.authors, options.fallbackAuthor, report), menu_order: fields.sticky === true ? -1 : 0 };
            const slug = await freeSlug(tx, 'event', post.slug, existing, report, post.id);
            if (existing !== undefined) {
              // Terms are unlinked under the old status and linked under the new one: counts follow.
              for (const kind of [CATEGORIES, TAGS]) await tx.events.setTerms(existing, kind.taxonomy, []);
              await tx.posts.update(existing, { ...columns, slug });
              await tx.events.updateDetails(existing, { ...details, venue_id: venue });
              await tx.events.setOrganizers(existing, organizers);
              for (const [kind, termIds] of [[CATEGORIES, categories], [TAGS, tags]] as const) await tx.events.setTerms(existing, kind.taxonomy, termIds);
              return existing;
            }
            const id = await tx.posts.insert({ ...columns, slug, status_before_trash: null, password: null, parent: 0, image_id: null });
            const created = { status: columns.status };
            await tx.events.insertDetails(id, { ...details, venue_id: venue });
            if (organizers.length) await tx.events.setOrganizers(id, organizers, created);
            for (const [kind, termIds] of [[CATEGORIES, categories], [TAGS, tags]] as const) await tx.events.setTerms(id, kind.taxonomy, termIds, created);
            return id;
          },
        },
        now,
        ids,
        report,
      );
    }
    done += page.items.length;
    options.onProgress?.(done, page.total);
  }
  return { ids, report };
}
