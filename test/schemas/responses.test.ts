import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import type {
  ApiErrorJson,
  CalendarEvent,
  CategoryList,
  EventList,
  EventTerm,
  Image,
  Organizer,
  OrganizerList,
  TagList,
  Term,
  Venue,
  VenueList,
} from '../../src/index.js';
import type { eventJson } from '../../src/resources/events/json.js';
import type { embeddedTermJson, termJson } from '../../src/resources/terms/json.js';
import type { venueKind } from '../../src/resources/venues/kind.js';
import type { organizerKind } from '../../src/resources/organizers/kind.js';
import type { imageJson } from '../../src/images/json.js';
import type { Archive } from '../../src/trpc/types.js';
import { mismatches } from '../helpers/json-schema.js';
import { storeCalendar, type StoreCalendar } from '../helpers/store.js';

/** The keys a type requires (the others are optional). */
type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];

// Every key of each type, written out: the type checks below tie them to the types, the
// requests below to the real JSON, so a key added to one and not the other fails.
const EVENT = [
  'id',
  'global_id',
  'global_id_lineage',
  'author',
  'status',
  'date',
  'date_utc',
  'modified',
  'modified_utc',
  'url',
  'rest_url',
  'title',
  'description',
  'excerpt',
  'slug',
  'image',
  'all_day',
  'start_date',
  'start_date_details',
  'end_date',
  'end_date_details',
  'utc_start_date',
  'utc_start_date_details',
  'utc_end_date',
  'utc_end_date_details',
  'timezone',
  'timezone_abbr',
  'cost',
  'cost_details',
  'website',
  'show_map',
  'show_map_link',
  'hide_from_listings',
  'sticky',
  'featured',
  'categories',
  'tags',
  'venue',
  'organizer',
  'custom_fields',
  'json_ld',
  'recurrence',
  'series',
] as const;
const POST_REQUIRED = ['id', 'global_id', 'global_id_lineage', 'status', 'date', 'date_utc', 'modified', 'modified_utc', 'url'] as const;
const VENUE_REQUIRED = [...POST_REQUIRED, 'show_map', 'show_map_link'] as const;
const VENUE_TEXT = ['address', 'city', 'country', 'province', 'state', 'zip', 'phone', 'website', 'stateprovince'] as const;
const VENUE = [...VENUE_REQUIRED, 'author', 'venue', 'description', 'excerpt', 'slug', 'image', ...VENUE_TEXT, 'geo_lat', 'geo_lng', 'json_ld'] as const;
const ORGANIZER = [...POST_REQUIRED, 'author', 'organizer', 'description', 'excerpt', 'slug', 'image', 'phone', 'website', 'email', 'json_ld'] as const;
const TERM_REQUIRED = ['id', 'count', 'description', 'name', 'slug', 'taxonomy', 'meta', 'url', 'urls'] as const;
const TERM = [...TERM_REQUIRED, 'parent', '_links'] as const;
const EVENT_TERM = ['name', 'slug', 'term_group', 'term_taxonomy_id', 'taxonomy', 'description', 'parent', 'count', 'filter', 'id', 'urls'] as const;
const PAGING_REQUIRED = ['rest_url', 'total', 'total_pages'] as const;

type Item<T extends readonly string[]> = T[number];
const sorted = (keys: readonly string[]) => [...keys].sort();

describe('response types: keys', () => {
  it('name exactly the keys listed above', () => {
    expectTypeOf<Item<typeof EVENT>>().toEqualTypeOf<keyof CalendarEvent>();
    expectTypeOf<RequiredKeys<CalendarEvent>>().toEqualTypeOf<Exclude<Item<typeof EVENT>, 'json_ld' | 'recurrence' | 'series'>>();
    expectTypeOf<Item<typeof VENUE>>().toEqualTypeOf<keyof Venue>();
    expectTypeOf<RequiredKeys<Venue>>().toEqualTypeOf<Item<typeof VENUE_REQUIRED>>();
    expectTypeOf<Item<typeof ORGANIZER>>().toEqualTypeOf<keyof Organizer>();
    expectTypeOf<RequiredKeys<Organizer>>().toEqualTypeOf<Item<typeof POST_REQUIRED>>();
    expectTypeOf<Item<typeof TERM>>().toEqualTypeOf<keyof Term>();
    expectTypeOf<RequiredKeys<Term>>().toEqualTypeOf<Item<typeof TERM_REQUIRED>>();
    expectTypeOf<Item<typeof EVENT_TERM>>().toEqualTypeOf<keyof EventTerm>();
    expectTypeOf<RequiredKeys<EventList>>().toEqualTypeOf<'events' | Item<typeof PAGING_REQUIRED>>();
    expectTypeOf<keyof TagList>().toEqualTypeOf<'tags' | Item<typeof PAGING_REQUIRED> | 'next_rest_url' | 'previous_rest_url'>();
    expectTypeOf<keyof ApiErrorJson>().toEqualTypeOf<'code' | 'message' | 'data' | 'additional_data'>();
  });

  it('give the JSON the real types where upstream’s document says otherwise', () => {
    expectTypeOf<CalendarEvent['author']>().toEqualTypeOf<string>();
    expectTypeOf<CalendarEvent['start_date_details']['month']>().toEqualTypeOf<string>();
    expectTypeOf<CalendarEvent['image']>().toEqualTypeOf<false | Image>();
    expectTypeOf<CalendarEvent['venue']>().toEqualTypeOf<Venue | Venue[]>();
    expectTypeOf<CalendarEvent['categories']>().toEqualTypeOf<EventTerm[]>();
    expectTypeOf<CalendarEvent['featured']>().toEqualTypeOf<boolean | null>();
    expectTypeOf<CalendarEvent['cost_details']['values']>().toEqualTypeOf<string[]>();
    expectTypeOf<CalendarEvent['cost_details']['currency_position']>().toEqualTypeOf<'prefix' | 'postfix' | ''>();
    expectTypeOf<Venue['venue']>().toEqualTypeOf<string | [] | undefined>();
    expectTypeOf<Term['urls']>().toEqualTypeOf<{ self: string; collection: string; up?: string }>();
    expectTypeOf<Image['sizes']>().toEqualTypeOf<
      Record<string, { width: number; height: number; 'mime-type': string; url: string; filesize?: number }> | undefined
    >();
    expectTypeOf<ApiErrorJson['data']>().extract<null>().toEqualTypeOf<null>();
  });

  it('are what the functions building the JSON return', () => {
    expectTypeOf<ReturnType<typeof eventJson>>().toEqualTypeOf<CalendarEvent>();
    expectTypeOf<ReturnType<typeof venueKind.represent>>().toEqualTypeOf<Venue>();
    expectTypeOf<ReturnType<typeof organizerKind.represent>>().toEqualTypeOf<Organizer>();
    expectTypeOf<ReturnType<typeof termJson>>().toEqualTypeOf<Term>();
    expectTypeOf<ReturnType<typeof embeddedTermJson>>().toEqualTypeOf<EventTerm>();
    expectTypeOf<ReturnType<typeof imageJson>>().toEqualTypeOf<false | Image>();
    expectTypeOf<Archive<'events', CalendarEvent>>().toMatchTypeOf<EventList>();
    expectTypeOf<EventList>().toMatchTypeOf<Archive<'events', CalendarEvent>>();
  });
});

describe('response types: real answers', () => {
  let t: StoreCalendar;
  let event: CalendarEvent;
  let single: CalendarEvent;

  beforeAll(async () => {
    t = await storeCalendar(':memory:');
    const venue = {
      venue: 'City Hall',
      address: '1 Main St',
      city: 'Springfield',
      country: 'Canada',
      province: 'ON',
      state: 'IL',
      zip: '62701',
      phone: '555-0199',
      website: 'https://hall.example',
      description: 'A hall',
    };
    const organizer = { organizer: 'Arts Council', phone: '555-0100', website: 'https://arts.example', email: 'info@arts.example', description: 'Arts' };
    const res = await t.request('POST', '/events', {
      as: 'admin',
      json: {
        title: 'Spring Concert',
        excerpt: 'Chamber music',
        start_date: '2031-04-12 19:30:00',
        end_date: '2031-04-12 21:30:00',
        timezone: 'America/New_York',
        cost: ['$15', '$25'],
        venue,
        organizer: [organizer],
        categories: ['Music'],
        tags: ['Chamber'],
        featured: true,
        // A series: its reads carry `recurrence` and `series` too.
        recurrence: ['RRULE:FREQ=WEEKLY;COUNT=1'],
      },
    });
    expect(res.status).toBe(201);
    event = res.body;
    single = (await t.request('GET', `/events/${event.id}`)).body;
  });
  afterAll(() => t.close());

  it('events: a single read has every key of the type, a write every required one', () => {
    expect(sorted(Object.keys(single))).toEqual(sorted(EVENT));
    expect(sorted(Object.keys(event))).toEqual(sorted(EVENT.filter((k) => k !== 'json_ld')));
    expect(mismatches('Event', single)).toEqual([]);
    expect(mismatches('Event', event)).toEqual([]);
  });

  it('venues and organizers: every key of the type, the required ones always', async () => {
    const venue = single.venue;
    if (Array.isArray(venue)) throw new Error('the event has one venue');
    // No image was given, coordinates need an add-on, and no write sets an excerpt (upstream's data may have one).
    expect(sorted(Object.keys(venue))).toEqual(sorted(VENUE.filter((k) => !['image', 'geo_lat', 'geo_lng', 'excerpt'].includes(k))));
    const organizer = single.organizer[0] ?? {};
    expect(sorted(Object.keys(organizer))).toEqual(sorted(ORGANIZER.filter((k) => !['image', 'excerpt'].includes(k))));
    const bare = (await t.request('POST', '/venues', { as: 'admin', json: { venue: 'Bare' } })).body;
    expect(sorted(Object.keys(bare))).toEqual(sorted([...VENUE_REQUIRED, 'author', 'venue', 'slug']));
    const bareOrganizer = (await t.request('POST', '/organizers', { as: 'admin', json: { organizer: 'Bare' } })).body;
    expect(sorted(Object.keys(bareOrganizer))).toEqual(sorted([...POST_REQUIRED, 'author', 'organizer', 'slug']));
    for (const [name, value] of [
      ['Venue', venue],
      ['Venue', bare],
      ['Organizer', organizer],
      ['Organizer', bareOrganizer],
      ['Venue', (await t.request('GET', `/venues/${bare.id}`)).body],
    ] as const) {
      expect(mismatches(name, value)).toEqual([]);
    }
  });

  it('terms: embedded, single (with `_links`), listed; tags without `parent`', async () => {
    const [category] = single.categories;
    expect(sorted(Object.keys(category ?? {}))).toEqual(sorted(EVENT_TERM));
    const read = (await t.request('GET', `/categories/${category?.id}`)).body;
    expect(sorted(Object.keys(read))).toEqual(sorted(TERM));
    const tag = (await t.request('GET', `/tags/${single.tags[0]?.id}`)).body;
    expect(sorted(Object.keys(tag))).toEqual(sorted(TERM.filter((k) => k !== 'parent')));
    const categories: CategoryList = (await t.request('GET', '/categories')).body;
    expect(sorted(Object.keys(categories.categories[0] ?? {}))).toEqual(sorted(TERM.filter((k) => k !== '_links')));
    expect(mismatches('CategoryList', categories)).toEqual([]);
    expect(mismatches('Term', read)).toEqual([]);
    expect(mismatches('Term', tag)).toEqual([]);
  });

  it('archives: the envelope of each collection', async () => {
    const query = { start_date: '2031-01-01', end_date: '2031-12-31', per_page: 1 };
    const events: EventList = (await t.request('GET', '/events', { query })).body;
    expect(events.total).toBe(1);
    expect(sorted(Object.keys(events))).toEqual(sorted(['events', ...PAGING_REQUIRED]));
    expect(mismatches('EventList', events)).toEqual([]);
    await t.request('POST', '/venues', { as: 'admin', json: { venue: 'Second' } });
    const venues: VenueList = (await t.request('GET', '/venues', { query: { per_page: 1, page: 2 } })).body;
    expect(Object.keys(venues)).toContain('previous_rest_url');
    expect(mismatches('VenueList', venues)).toEqual([]);
    const organizers: OrganizerList = (await t.request('GET', '/organizers')).body;
    expect(mismatches('OrganizerList', organizers)).toEqual([]);
    const tags: TagList = (await t.request('GET', '/tags')).body;
    expect(mismatches('TagList', tags)).toEqual([]);
  });

  it('password-protected items: `null` flags, empty lists, a venue name `[]`', async () => {
    await t.db
      .updateTable('posts')
      .set({ password: 'pw' })
      .where('id', 'in', [event.id, Number((event.venue as Venue).id)])
      .execute();
    const list: EventList = (await t.request('GET', '/events', { query: { start_date: '2031-01-01', end_date: '2031-12-31' } })).body;
    const [redacted] = list.events;
    expect(redacted).toMatchObject({ featured: null, venue: [], categories: [] });
    expect(mismatches('EventList', list)).toEqual([]);
    await t.db.updateTable('posts').set({ password: null }).where('id', '=', event.id).execute();
    const withVenue = (await t.request('GET', `/events/${event.id}`)).body;
    expect(withVenue.venue).toMatchObject({ venue: [] });
    expect(mismatches('Event', withVenue)).toEqual([]);
  });

  it('errors: `{code, message, data}`', async () => {
    const errors = [
      await t.request('GET', '/events/999999'),
      await t.request('POST', '/events', { as: 'admin', json: {} }),
      await t.request('POST', '/events', { as: 'admin', json: { title: 'x', start_date: 'never', end_date: 'x' } }),
      await t.request('POST', '/tags', { json: { name: 'x' } }),
    ];
    for (const error of errors) {
      expect(error.status).toBeGreaterThanOrEqual(400);
      expect(mismatches('Error', error.body), error.text).toEqual([]);
    }
  });
});
