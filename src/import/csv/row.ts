/**
 * One row of a CSV file as an event write (docs "Subscriptions and imports", CSV columns): its
 * name, texts, dates (all day when it says so or has no start time), zone, flags, venue and
 * organizer by name, cost with its currency symbol, categories, tags, website and image. A
 * row's key is its name and start, so that a file imported again updates the rows it had.
 */
import { isEventTimezone } from '../../resources/events/args.js';
import type { FeedEntry } from '../../feeds/map-event.js';
import { isUrlOrEmpty } from '../../text/url.js';
import type { CsvKey } from './columns.js';
import { readTime, type DateReader } from './dates.js';

/** A row's values by key. */
export type CsvRow = Partial<Record<CsvKey, string>>;

/** A yes of the original's CSV files (`yes`, `true`, `1`, `y`). */
const yes = (v: string | undefined) => /^(1|y|yes|true|on)$/i.test((v ?? '').trim());

/** The comma-separated names of a cell. */
const names = (v: string | undefined) =>
  (v ?? '')
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);

/** The event of a row, or why it is not one. */
export function rowEntry(row: CsvRow, readDate: DateReader): FeedEntry | string {
  const title = (row.event_name ?? '').trim();
  if (!title) return 'no event_name';
  const startDate = readDate(row.event_start_date ?? '');
  if (!startDate) return `event_start_date ${JSON.stringify(row.event_start_date ?? '')} is not a date in the file's format (--date-format)`;
  const endDate = row.event_end_date?.trim() ? readDate(row.event_end_date) : startDate;
  if (!endDate) return `event_end_date ${JSON.stringify(row.event_end_date)} is not a date in the file's format (--date-format)`;
  const warnings: string[] = [];
  const startTime = row.event_start_time?.trim() ? readTime(row.event_start_time) : undefined;
  const endTime = row.event_end_time?.trim() ? readTime(row.event_end_time) : undefined;
  if (row.event_start_time?.trim() && !startTime) return `event_start_time ${JSON.stringify(row.event_start_time)} is not a time`;
  if (row.event_end_time?.trim() && !endTime) return `event_end_time ${JSON.stringify(row.event_end_time)} is not a time`;
  const allDay = yes(row.event_all_day) || !startTime;
  const zone = (row.event_timezone ?? '').trim();
  if (zone && !isEventTimezone(zone)) warnings.push(`event_timezone ${JSON.stringify(zone.slice(0, 64))} is not a time zone: the site's is used`);
  const website = (row.event_website ?? '').trim();
  if (website && !isUrlOrEmpty(website)) warnings.push(`event_website ${JSON.stringify(website.slice(0, 100))} is not a URL: left out`);
  const image = (row.featured_image ?? '').trim();
  const symbol = (row.event_currency_symbol ?? '').trim();
  const cost = (row.event_cost ?? '').trim();
  const suffix = /^(suffix|postfix|after)$/i.test((row.event_currency_position ?? '').trim());
  if ((row.event_currency_code ?? '').trim()) warnings.push('event_currency_code is not copied (an event write has no currency code)');
  const start = allDay ? `${startDate} 00:00:00` : `${startDate} ${startTime ?? '00:00:00'}`;
  const end = allDay ? `${endDate} 23:59:59` : `${endDate} ${endTime ?? startTime ?? '00:00:00'}`;
  const venue = (row.event_venue_name ?? '').trim();
  return {
    uid: `${title}\n${start}`,
    cancelled: false,
    params: {
      title,
      description: (row.event_description ?? '').trim(),
      start_date: start,
      end_date: end < start ? start : end,
      timezone: zone && isEventTimezone(zone) ? zone : '',
      all_day: allDay,
      ...(website && isUrlOrEmpty(website) ? { website } : {}),
      ...((row.event_excerpt ?? '').trim() ? { excerpt: (row.event_excerpt ?? '').trim() } : {}),
      hide_from_listings: yes(row.event_hide),
      sticky: yes(row.event_sticky),
      featured: yes(row.feature_event),
      show_map: yes(row.event_show_map),
      show_map_link: yes(row.event_show_map_link),
      ...(cost ? { cost: symbol && !cost.includes(symbol) ? (suffix ? `${cost}${symbol}` : `${symbol}${cost}`) : cost } : {}),
      ...(image ? { image } : {}),
      tags: names(row.event_tags),
    },
    ...(venue ? { venue: { name: venue.slice(0, 200) } } : {}),
    organizers: names(row.event_organizer_name).map((name) => ({ name: name.slice(0, 200) })),
    categories: names(row.event_category),
    warnings,
  };
}
