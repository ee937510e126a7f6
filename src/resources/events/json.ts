import { dateDetails, isoWithOffset } from '../../dates/index.js';
import { costDetails, formattedCost, jsonLdPrice, type StoredCost } from './cost.js';
import type { Urls } from '../../http/urls.js';
import { EVENT } from '../../posts/kinds.js';
import { globalIds, permalink } from '../../posts/urls.js';
import { postStamp } from '../../posts/json.js';
import type { EventRow } from './store.js';
import { jsonLdDescription, jsonLdName } from '../../text/json-ld.js';
import { renderContent, renderExcerpt, renderTitle } from '../../text/render.js';
import { escapeWebsite } from '../../text/url.js';
import type { CalendarEvent, DateDetails, EventTerm, Image, Organizer, Venue } from '../../schemas/types.js';

/** What an event representation needs beyond its row: linked items already rendered. */
export interface EventView {
  urls: Urls;
  siteZone: string;
  canRead: boolean;
  image: false | Image;
  categories: EventTerm[];
  tags: EventTerm[];
  /** The rendered venue, if one is linked and still exists. */
  venue?: Venue;
  organizers: Organizer[];
  /** For `json_ld`: the JSON-LD of the venue and first organizer, `false` when not visible. */
  jsonLd?: { location?: Record<string, unknown> | false; organizer?: Record<string, unknown> | false };
  /** The series of a recurring event (the series itself, or one of its occurrences): its id and rules. */
  series?: { id: number; recurrence: string[] };
}

/**
 * The public page of an occurrence: the series' page with the occurrence's day (as the
 * original's add-on writes them, `/event/<slug>/<YYYY-MM-DD>/`), where the page is the
 * default pretty one.
 */
function occurrencePage(url: string, row: EventRow): string {
  const day = row.start_local.slice(0, 10);
  return row.slug && url.endsWith(`/${row.slug}/`) ? `${url}${day}/` : url;
}

/** The stored cost of an event row, or `null`. */
export function storedCost(row: EventRow): StoredCost | null {
  if (!row.cost) return null;
  try {
    const values = JSON.parse(row.cost) as unknown;
    if (!Array.isArray(values) || !values.length) return null;
    return { values: values.map(String), currencySymbol: row.currency_symbol, currencyPosition: row.currency_position as StoredCost['currencyPosition'] };
  } catch {
    return null;
  }
}

/** The details of a date that does not parse: those of WordPress' zero date. */
const ZERO_DETAILS: DateDetails = { year: '0000', month: '00', day: '00', hour: '00', minutes: '00', seconds: '00' };

/** An event as the API shows it, with `json_ld` when `view.jsonLd` is set. */
export function eventJson(row: EventRow, view: EventView): CalendarEvent {
  const page = permalink(EVENT, row, view.urls, view.canRead);
  const url = row.occurrence ? occurrencePage(page, row) : page;
  const cost = storedCost(row);
  const details = (d: string): DateDetails => dateDetails(d) ?? ZERO_DETAILS;
  const out: CalendarEvent = {
    id: row.id,
    ...globalIds(row.id, view.urls),
    ...postStamp(row),
    url,
    rest_url: `${view.urls.base}/events/${row.id}`,
    title: renderTitle(row.title),
    description: renderContent(row.content),
    excerpt: renderExcerpt(row.excerpt),
    slug: row.slug ?? '',
    image: view.image,
    all_day: row.all_day === 1,
    start_date: row.start_local,
    start_date_details: details(row.start_local),
    end_date: row.end_local,
    end_date_details: details(row.end_local),
    utc_start_date: row.start_utc,
    utc_start_date_details: details(row.start_utc),
    utc_end_date: row.end_utc,
    utc_end_date_details: details(row.end_utc),
    timezone: row.timezone,
    timezone_abbr: row.timezone_abbr,
    cost: formattedCost(cost),
    cost_details: costDetails(cost, row.currency_code),
    website: row.website === null ? url : escapeWebsite(row.website),
    show_map: row.show_map === 1,
    show_map_link: row.show_map_link === 1,
    hide_from_listings: row.hidden === 1,
    sticky: row.menu_order === -1,
    featured: row.featured === 1,
    categories: view.categories,
    tags: view.tags,
    venue: view.venue ?? [],
    organizer: view.organizers,
    custom_fields: [],
  };
  if (view.jsonLd) out.json_ld = eventJsonLd(row, url, cost, view);
  // Recurring events only: events that do not recur keep the original's shape, byte for byte.
  if (view.series) {
    const base = `${view.urls.base}/events/${view.series.id}`;
    out.recurrence = view.series.recurrence;
    out.series = { id: view.series.id, rest_url: base, occurrences_url: `${base}/occurrences` };
    if (row.occurrence) {
      out.series.original_start = row.occurrence.originalStart;
      out.series.overridden = row.occurrence.contentId !== row.occurrence.seriesId;
    }
  }
  return out;
}

/** The schema.org `Event` of a single event. */
function eventJsonLd(row: EventRow, url: string, cost: StoredCost | null, view: EventView): Record<string, unknown> {
  const ld: Record<string, unknown> = {
    '@context': 'http://schema.org',
    '@type': 'Event',
    name: jsonLdName(row.title),
    description: jsonLdDescription(row.excerpt, row.content),
  };
  if (view.image) ld.image = view.image.url;
  ld.url = url;
  ld.eventAttendanceMode = 'https://schema.org/OfflineEventAttendanceMode';
  ld.eventStatus = 'https://schema.org/EventScheduled';
  ld.startDate = isoWithOffset(row.start_local, row.timezone || view.siteZone);
  ld.endDate = isoWithOffset(row.end_local, row.timezone || view.siteZone);
  if (view.jsonLd?.location !== undefined) ld.location = view.jsonLd.location;
  if (view.jsonLd?.organizer !== undefined) ld.organizer = view.jsonLd.organizer;
  const price = jsonLdPrice(cost);
  if (price !== undefined) {
    ld.offers = {
      '@type': 'Offer',
      price,
      priceCurrency: row.currency_code || 'USD',
      url,
      category: 'primary',
      availability: 'inStock',
      // The publication day at midnight, in the site's offset (verified upstream).
      validFrom: isoWithOffset(`${row.date.slice(0, 10)} 00:00:00`, view.siteZone),
    };
  }
  ld.performer = 'Organization';
  return ld;
}
