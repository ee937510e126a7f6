import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../helpers/harness.js';
import {
  EVENT_KEYS,
  WALL_CLOCK,
  createEvent,
  createLinked,
  createTerm,
  details,
  expectError,
  invalidParamBody,
  probedCalendar,
  utcDay,
  utcWallClock,
  type ProbedCalendar,
} from './fixtures.js';

/** Decodes the decimal references `antispambot` writes. */
const decodeEntities = (s: string) => s.replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)));

/** Order-sensitive comparison of JSON values (key order included). */
function expectSameJson(actual: unknown, expected: unknown): void {
  expect(JSON.stringify(actual, null, 1)).toBe(JSON.stringify(expected, null, 1));
}

describe.each(DIALECTS)('events: reads on $name', ({ url }) => {
  let t: ProbedCalendar;
  beforeAll(async () => {
    t = await probedCalendar(url);
  }, 180_000);
  afterAll(() => t?.close());

  describe('event representation', () => {
    it('has every field, in upstream order, with the spec types (minimal create)', async () => {
      const before = utcWallClock(new Date(Date.now() - 1000));
      const res = await t.request('POST', '/events', {
        json: { title: 'Minimal', start_date: '2027-05-01 10:00:00', end_date: '2027-05-01 12:30:15' },
        as: 'admin',
      });
      const after = utcWallClock(new Date(Date.now() + 1000));
      expect(res.status).toBe(201);
      // Event creation sends no Location (README headers table).
      expect(res.headers.Location).toBeUndefined();
      const e = res.body;
      expect(Object.keys(e)).toEqual(EVENT_KEYS);
      const id = e.id as number;
      expect(Number.isInteger(id)).toBe(true);
      expect(e.global_id).toBe(`example.org?id=${id}`);
      expect(e.global_id_lineage).toEqual([`example.org?id=${id}`]);
      expect(e.author).toBe('1');
      expect(e.status).toBe('publish');
      for (const k of ['date', 'date_utc', 'modified', 'modified_utc']) {
        expect(e[k]).toMatch(WALL_CLOCK);
        expect(e[k] >= before && e[k] <= after).toBe(true);
      }
      expect(e.url).toBe('http://example.org/event/minimal/');
      expect(e.rest_url).toBe(`${t.base}/events/${id}`);
      expect(e.title).toBe('Minimal');
      expect(e.description).toBe('');
      expect(e.excerpt).toBe('');
      expect(e.slug).toBe('minimal');
      expect(e.image).toBe(false);
      expect(e.all_day).toBe(false);
      expect(e.start_date).toBe('2027-05-01 10:00:00');
      expectSameJson(e.start_date_details, { year: '2027', month: '05', day: '01', hour: '10', minutes: '00', seconds: '00' });
      expect(e.end_date).toBe('2027-05-01 12:30:15');
      expectSameJson(e.end_date_details, details('2027-05-01 12:30:15'));
      expect(e.utc_start_date).toBe('2027-05-01 10:00:00');
      expectSameJson(e.utc_start_date_details, details('2027-05-01 10:00:00'));
      expect(e.utc_end_date).toBe('2027-05-01 12:30:15');
      expectSameJson(e.utc_end_date_details, details('2027-05-01 12:30:15'));
      expect(e.timezone).toBe('UTC');
      expect(e.timezone_abbr).toBe('UTC');
      expect(e.cost).toBe('');
      expectSameJson(e.cost_details, { currency_symbol: '', currency_code: '', currency_position: '', values: [] });
      // No website stored: the event URL (responses.md §2).
      expect(e.website).toBe(e.url);
      // Every API create stores the map flags: omitted → false (verified upstream).
      expect([e.show_map, e.show_map_link, e.hide_from_listings, e.sticky, e.featured]).toEqual([false, false, false, false, false]);
      expect(e.categories).toEqual([]);
      expect(e.tags).toEqual([]);
      expect(e.venue).toEqual([]);
      expect(e.organizer).toEqual([]);
      expect(e.custom_fields).toEqual([]);
      expect(e.json_ld).toBeUndefined();

      // The single GET has the same fields, then `json_ld`; archive items have none.
      const single = await t.request('GET', `/events/${id}`);
      expect(Object.keys(single.body)).toEqual([...EVENT_KEYS, 'json_ld']);
      const { json_ld: _ld, ...rest } = single.body;
      expectSameJson(rest, e);
      const list = await t.request('GET', '/events', { query: { include: String(id), starts_after: '2027-01-01' } });
      expect(list.body.events).toHaveLength(1);
      expectSameJson(list.body.events[0], e);
    });

    it('reproduces the live example of responses.md §2.5 field by field', async () => {
      const before = utcWallClock(new Date(Date.now() - 1000));
      const created = await t.request('POST', '/events', {
        as: 'admin',
        json: {
          title: 'Spring Concert',
          start_date: '2027-04-12 19:30:00',
          end_date: '2027-04-12 21:30:00',
          description: 'An evening of chamber music.',
          timezone: 'America/New_York',
          cost: ['$15', '$25'],
          venue: {
            venue: 'City Hall',
            address: '1 Main St',
            city: 'Springfield',
            country: 'United States',
            state: 'IL',
            zip: '62701',
            phone: '555-0199',
            website: 'https://cityhall.example',
          },
          organizer: [{ organizer: 'Arts Council', phone: '555-0100', website: 'https://arts.example', email: 'info@arts.example' }],
          categories: ['music'],
          tags: ['chamber'],
          featured: true,
          show_map: true,
          show_map_link: true,
        },
      });
      const after = utcWallClock(new Date(Date.now() + 1000));
      expect(created.status).toBe(201);
      const id = created.body.id as number;
      const res = await t.request('GET', `/events/${id}`);
      expect(res.status).toBe(200);
      const e = res.body;
      const date = e.date as string;
      expect(date >= before && date <= after).toBe(true);
      const venueId = e.venue.id as number;
      const organizerId = e.organizer[0].id as number;
      const categoryId = e.categories[0].id as number;
      const tagId = e.tags[0].id as number;
      // The linked items were created by the same write, before the event.
      expect(venueId).toBeLessThan(id);
      expect(organizerId).toBeLessThan(id);
      const home = 'http://example.org';
      const host = 'example.org';
      const base = t.base;
      const stamps = { date, date_utc: date, modified: date, modified_utc: date };
      // Obfuscated e-mails are compared decoded (they change on every request).
      const organizerLd = e.organizer[0].json_ld;
      expect(decodeEntities(organizerLd.email)).toBe('info@arts.example');
      expect(decodeEntities(e.json_ld.organizer.email)).toBe('info@arts.example');
      const placeLd = {
        '@type': 'Place',
        name: 'City Hall',
        description: '',
        url: '',
        address: {
          '@type': 'PostalAddress',
          streetAddress: '1 Main St',
          addressLocality: 'Springfield',
          addressRegion: 'IL',
          postalCode: '62701',
          addressCountry: 'United States',
        },
        telephone: '555-0199',
        sameAs: 'https://cityhall.example',
      };
      const personLd = (email: string) => ({
        '@type': 'Person',
        name: 'Arts Council',
        description: '',
        url: 'https://arts.example',
        telephone: '555-0100',
        email,
        sameAs: 'https://arts.example',
      });
      const expected = {
        id,
        global_id: `${host}?id=${id}`,
        global_id_lineage: [`${host}?id=${id}`],
        author: '1',
        status: 'publish',
        ...stamps,
        url: `${home}/event/spring-concert/`,
        rest_url: `${base}/events/${id}`,
        title: 'Spring Concert',
        description: '<p>An evening of chamber music.</p>',
        excerpt: '',
        slug: 'spring-concert',
        image: false,
        all_day: false,
        start_date: '2027-04-12 19:30:00',
        start_date_details: { year: '2027', month: '04', day: '12', hour: '19', minutes: '30', seconds: '00' },
        end_date: '2027-04-12 21:30:00',
        end_date_details: { year: '2027', month: '04', day: '12', hour: '21', minutes: '30', seconds: '00' },
        utc_start_date: '2027-04-12 23:30:00',
        utc_start_date_details: { year: '2027', month: '04', day: '12', hour: '23', minutes: '30', seconds: '00' },
        utc_end_date: '2027-04-13 01:30:00',
        utc_end_date_details: { year: '2027', month: '04', day: '13', hour: '01', minutes: '30', seconds: '00' },
        timezone: 'America/New_York',
        timezone_abbr: 'EDT',
        cost: '$15 – $25',
        cost_details: { currency_symbol: '$', currency_code: '', currency_position: 'prefix', values: ['15', '25'] },
        website: `${home}/event/spring-concert/`,
        show_map: true,
        show_map_link: true,
        hide_from_listings: false,
        sticky: false,
        featured: true,
        categories: [
          {
            name: 'music',
            slug: 'music',
            term_group: 0,
            term_taxonomy_id: categoryId,
            taxonomy: 'tribe_events_cat',
            description: '',
            parent: 0,
            count: 1,
            filter: 'raw',
            id: categoryId,
            urls: { self: `${base}/categories/${categoryId}`, collection: `${base}/categories` },
          },
        ],
        tags: [
          {
            name: 'chamber',
            slug: 'chamber',
            term_group: 0,
            term_taxonomy_id: tagId,
            taxonomy: 'post_tag',
            description: '',
            parent: 0,
            count: 1,
            filter: 'raw',
            id: tagId,
            urls: { self: `${base}/tags/${tagId}`, collection: `${base}/tags` },
          },
        ],
        venue: {
          id: venueId,
          author: '1',
          status: 'publish',
          ...stamps,
          url: `${home}/venue/city-hall/`,
          venue: 'City Hall',
          slug: 'city-hall',
          address: '1 Main St',
          city: 'Springfield',
          country: 'United States',
          state: 'IL',
          zip: '62701',
          phone: '555-0199',
          website: 'https://cityhall.example',
          stateprovince: 'IL',
          json_ld: placeLd,
          show_map: true,
          show_map_link: true,
          global_id: `${host}?id=${venueId}`,
          global_id_lineage: [`${host}?id=${venueId}`],
        },
        organizer: [
          {
            id: organizerId,
            author: '1',
            status: 'publish',
            ...stamps,
            url: `${home}/organizer/arts-council/`,
            organizer: 'Arts Council',
            slug: 'arts-council',
            phone: '555-0100',
            website: 'https://arts.example',
            email: 'info@arts.example',
            json_ld: personLd(organizerLd.email),
            global_id: `${host}?id=${organizerId}`,
            global_id_lineage: [`${host}?id=${organizerId}`],
          },
        ],
        custom_fields: [],
        json_ld: {
          '@context': 'http://schema.org',
          '@type': 'Event',
          name: 'Spring Concert',
          description: '&lt;p&gt;An evening of chamber music.&lt;/p&gt;\\n',
          url: `${home}/event/spring-concert/`,
          eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
          eventStatus: 'https://schema.org/EventScheduled',
          startDate: '2027-04-12T19:30:00-04:00',
          endDate: '2027-04-12T21:30:00-04:00',
          location: placeLd,
          organizer: personLd(e.json_ld.organizer.email),
          offers: {
            '@type': 'Offer',
            price: '15 – 25',
            priceCurrency: 'USD',
            url: `${home}/event/spring-concert/`,
            category: 'primary',
            availability: 'inStock',
            validFrom: `${date.slice(0, 10)}T00:00:00+00:00`,
          },
          performer: 'Organization',
        },
      };
      expectSameJson(e, expected);

      // Create, update and archive bodies carry no json_ld, in the event nor its linked items.
      const { json_ld: _a, ...withoutLd } = expected;
      const { json_ld: _v, ...venueWithoutLd } = expected.venue;
      const organizersWithoutLd = expected.organizer.map(({ json_ld: _o, ...organizer }) => organizer);
      const plain = { ...withoutLd, venue: venueWithoutLd, organizer: organizersWithoutLd };
      expectSameJson(created.body, plain);
      const listed = await t.request('GET', '/events', { query: { start_date: '2027-04-12', end_date: '2027-04-12' } });
      expectSameJson(
        listed.body.events.find((x: { id: number }) => x.id === id),
        plain,
      );
    });

    it('sorts embedded terms by name and shows parents and `up` links', async () => {
      const parent = await createTerm(t, 'categories', { name: 'Zeta parent' });
      const child = await createTerm(t, 'categories', { name: 'alpha child', parent: parent.id });
      const tagB = await createTerm(t, 'tags', { name: 'Beta tag' });
      const e = await createEvent(t, { categories: [parent.id, child.id], tags: [tagB.id, 'aardvark'] });
      expect(e.categories.map((c: { name: string }) => c.name)).toEqual(['alpha child', 'Zeta parent']);
      expect(e.categories[0].parent).toBe(parent.id);
      expect(e.categories[0].urls).toEqual({
        self: `${t.base}/categories/${child.id}`,
        collection: `${t.base}/categories`,
        up: `${t.base}/categories/${parent.id}`,
      });
      expect(Object.keys(e.categories[0])).toEqual([
        'name',
        'slug',
        'term_group',
        'term_taxonomy_id',
        'taxonomy',
        'description',
        'parent',
        'count',
        'filter',
        'id',
        'urls',
      ]);
      expect(e.tags.map((x: { name: string }) => x.name)).toEqual(['aardvark', 'Beta tag']);
      expect(e.tags.every((x: { parent: number; taxonomy: string }) => x.parent === 0 && x.taxonomy === 'post_tag')).toBe(true);
      // `count` counts published events only.
      await createEvent(t, { categories: [parent.id], status: 'draft' });
      const again = await t.request('GET', `/events/${e.id}`);
      expect(again.body.categories.find((c: { id: number }) => c.id === parent.id).count).toBe(1);
    });

    it('escapes a stored website and keeps an empty one', async () => {
      const e = await createEvent(t, { website: 'http://example.com/a?b=1&c=2' });
      expect(e.website).toBe('http://example.com/a?b=1&amp;c=2');
      const cleared = await t.request('POST', `/events/${e.id}`, { json: { website: '' }, as: 'admin' });
      expect(cleared.body.website).toBe('');
    });

    it('renders titles, descriptions and excerpts as WordPress displays them', async () => {
      const e = await createEvent(t, {
        title: `It's -- "q" ... & <b>b</b>`,
        description: 'Line one\nline two\n\nPara two',
        excerpt: 'Event 01 excerpt',
      });
      expect(e.title).toBe('It&#8217;s &#8212; &#8220;q&#8221; &#8230; &#038; <b>b</b>');
      expect(e.description).toBe('<p>Line one<br />\nline two</p>\n<p>Para two</p>');
      expect(e.excerpt).toBe('<p>Event 01 excerpt</p>');
      const single = await t.request('GET', `/events/${e.id}`);
      expect(single.body.json_ld.description).toBe('&lt;p&gt;Event 01 excerpt&lt;/p&gt;\\n');
      // KSES for callers without unfiltered_html (contributor), kept text.
      const c = await createEvent(t, { title: 'x <script>x</script><b>b</b>', description: '<script>alert(1)</script><p>ok</p>' }, 'contributor');
      expect(c.title).toBe('x x<b>b</b>');
      expect(c.description).toBe('<p>alert(1)</p>\n<p>ok</p>');
    });

    it('builds json_ld: no location/organizer/offers keys without them, escaped name, 30-word description', async () => {
      const words = Array.from({ length: 70 }, (_, i) => `w${i}`).join(' ');
      const e = await createEvent(t, {
        title: 'X "quoted" & <x>',
        description: words,
        timezone: 'UTC+2',
        start_date: '2027-07-01 10:00:00',
        end_date: '2027-07-01 11:00:00',
      });
      const ld = (await t.request('GET', `/events/${e.id}`)).body.json_ld;
      expect(Object.keys(ld)).toEqual([
        '@context',
        '@type',
        'name',
        'description',
        'url',
        'eventAttendanceMode',
        'eventStatus',
        'startDate',
        'endDate',
        'performer',
      ]);
      expect(ld.name).toBe('X &#8220;quoted&#8221; &#038; &lt;x&gt;');
      expect(ld.description).toBe(`&lt;p&gt;${words.split(' ').slice(0, 30).join(' ')} [&hellip;]&lt;/p&gt;\\n`);
      expect(ld.startDate).toBe('2027-07-01T10:00:00+02:00');
      expect(ld.endDate).toBe('2027-07-01T11:00:00+02:00');
      const allDay = await createEvent(t, { timezone: 'Europe/Berlin', all_day: true, start_date: '2027-04-01 09:00', end_date: '2027-04-01 10:00' });
      const ld2 = (await t.request('GET', `/events/${allDay.id}`)).body.json_ld;
      expect([ld2.startDate, ld2.endDate]).toEqual(['2027-04-01T00:00:00+02:00', '2027-04-01T23:59:59+02:00']);
      // Only the exact word Free becomes "0".
      const free = await createEvent(t, { cost: 'Free' });
      expect((await t.request('GET', `/events/${free.id}`)).body.json_ld.offers.price).toBe('0');
    });

    it('embeds draft linked items for everyone, without their json_ld when not readable', async () => {
      const venue = await createLinked(t, 'venues', { venue: 'Draft hall', status: 'draft' });
      const organizer = await createLinked(t, 'organizers', { organizer: 'Draft org', status: 'draft' });
      const other = await createLinked(t, 'organizers', { organizer: 'Public org' });
      const e = await createEvent(t, { venue: venue.id, organizer: [organizer.id, other.id] });
      const anon = (await t.request('GET', `/events/${e.id}`)).body;
      expect(anon.venue.status).toBe('draft');
      expect(anon.venue.url).toBe(`http://example.org/?post_type=tribe_venue&p=${venue.id}`);
      expect(anon.venue.json_ld).toBeUndefined();
      expect(anon.organizer[0].json_ld).toBeUndefined();
      expect(anon.organizer[1].json_ld).toBeDefined();
      expect(anon.json_ld.location).toBe(false);
      expect(anon.json_ld.organizer).toBe(false);
      const admin = (await t.request('GET', `/events/${e.id}`, { as: 'admin' })).body;
      expect(admin.venue.json_ld['@type']).toBe('Place');
      expect(admin.json_ld.location['@type']).toBe('Place');
      expect(admin.json_ld.organizer.name).toBe('Draft org');
    });

    it('drops a venue or organizer that no longer exists', async () => {
      const venue = await createLinked(t, 'venues', { venue: 'Soon gone' });
      const organizer = await createLinked(t, 'organizers', { organizer: 'Soon gone too' });
      const e = await createEvent(t, { venue: venue.id, organizer: [organizer.id] });
      await t.db.deleteFrom('posts').where('id', 'in', [venue.id, organizer.id]).execute();
      const res = await t.request('GET', `/events/${e.id}`);
      expect(res.body.venue).toEqual([]);
      expect(res.body.organizer).toEqual([]);
      expect(res.body.json_ld.location).toBeUndefined();
    });
  });

  describe('single event reads', () => {
    it('answers 404 for unknown ids, 400 for ids of other posts, 404 rest_no_route for bad paths', async () => {
      expect((await t.request('GET', '/events/999999')).body).toEqual({
        code: 'rest-event-not-found',
        message: 'Event with ID 999999 does not exist.',
        data: { status: 404 },
      });
      expectError(await t.request('GET', '/events/0'), 404, 'rest-event-not-found', 'Event with ID 0 does not exist.');
      const venue = await createLinked(t, 'venues', { venue: 'Not an event' });
      expect((await t.request('GET', `/events/${venue.id}`)).body).toEqual({
        code: 'rest-invalid-event-id',
        message: 'The specified ID is not a valid event.',
        data: { status: 400 },
      });
      expectError(await t.request('GET', '/events/foo'), 404, 'rest_no_route');
      expectError(await t.request('GET', '/events/by-slug/'), 404, 'rest_no_route');
      expect((await t.request('GET', '/events/by-slug/non-existing-event')).body).toEqual(invalidParamBody('slug'));
      // An absurdly long id is still just "not found".
      expectError(await t.request('GET', `/events/${'9'.repeat(40)}`), 404, 'rest-event-not-found', 'Event with ID 9223372036854775807 does not exist.');
    });

    it('reads by slug, with the Allow header of the caller', async () => {
      const e = await createEvent(t, { title: 'Slugged read' });
      const res = await t.request('GET', '/events/by-slug/slugged-read');
      expect(res.status).toBe(200);
      expect(res.body.id).toBe(e.id);
      expect(res.body.json_ld).toBeDefined();
      expect(res.headers.Allow).toBe('GET');
      expect((await t.request('GET', `/events/${e.id}`, { as: 'admin' })).headers.Allow).toBe('GET, DELETE, POST, PUT, PATCH');
      expect((await t.request('GET', `/events/${e.id}`, { as: 'subscriber' })).headers.Allow).toBe('GET');
      expect((await t.request('GET', '/events', { as: 'admin' })).headers.Allow).toBe('GET, POST');
      expect((await t.request('GET', '/events')).headers.Allow).toBe('GET');
    });

    it('applies the visibility rules of auth.md §3.1', async () => {
      const draft = await createEvent(t, { status: 'draft' });
      const notAccessible = { code: 'event-not-accessible', message: 'The requested event is not accessible', data: { status: 403 } };
      for (const as of [null, 'subscriber', 'contributor', 'author'] as const) {
        const res = await t.request('GET', `/events/${draft.id}`, { as });
        expect({ as, status: res.status, body: res.body }).toEqual({ as, status: 403, body: notAccessible });
      }
      const asAdmin = await t.request('GET', `/events/${draft.id}`, { as: 'admin' });
      expect(asAdmin.status).toBe(200);
      expect(asAdmin.body.json_ld).toBeDefined();
      expect(asAdmin.body.url).toBe(`http://example.org/?post_type=tribe_events&p=${draft.id}`);
      expect(asAdmin.body.slug).toBe('');

      const own = await createEvent(t, {}, 'contributor');
      expect(own.status).toBe('draft');
      const ownRead = await t.request('GET', `/events/${own.id}`, { as: 'contributor' });
      expect(ownRead.status).toBe(200);
      expect(ownRead.body.json_ld).toBeDefined();
      expect((await t.request('GET', `/events/${own.id}`, { as: 'contributor2' })).status).toBe(403);

      const future = await createEvent(t, { date: `${utcDay(new Date(), 400)} 10:00:00` });
      expect(future.status).toBe('future');
      expectError(await t.request('GET', `/events/${future.id}`), 403, 'event-not-accessible');
      expect((await t.request('GET', `/events/${future.id}`, { as: 'editor' })).status).toBe(200);

      const priv = await createEvent(t, { status: 'private', title: 'Private one' });
      const byEditor = await t.request('GET', `/events/${priv.id}`, { as: 'editor' });
      expect(byEditor.status).toBe(200);
      expect(byEditor.body.url).toBe('http://example.org/event/private-one/');
      expect((await t.request('GET', `/events/${priv.id}`, { as: 'author' })).status).toBe(403);
      expect((await t.request('GET', `/events/${priv.id}`)).status).toBe(403);

      const pending = await createEvent(t, { status: 'pending', slug: 'pending-one' });
      expect((await t.request('GET', '/events/by-slug/pending-one')).status).toBe(403);
      expect((await t.request('GET', '/events/by-slug/pending-one', { as: 'editor' })).status).toBe(200);
      expect(pending.slug).toBe('pending-one');
    });

    it('refuses trashed events to everyone, by id and by the trashed slug', async () => {
      const e = await createEvent(t, { title: 'Trash me' });
      expect((await t.request('DELETE', `/events/${e.id}`, { as: 'admin' })).status).toBe(200);
      const gone = { code: 'event-no-longer-available', message: 'This event is no longer available', data: { status: 403 } };
      for (const as of [null, 'admin'] as const) {
        expect((await t.request('GET', `/events/${e.id}`, { as })).body).toEqual(gone);
        expect((await t.request('GET', '/events/by-slug/trash-me__trashed', { as })).body).toEqual(gone);
      }
    });

    it('locks password-protected events (responses.md §7)', async () => {
      const venue = await createLinked(t, 'venues', { venue: 'Locked venue hall', city: 'Paris' });
      const e = await createEvent(t, { title: 'Locked', cost: '10', venue: venue.id, description: 'secret', categories: ['locked-cat'] });
      await t.db.updateTable('posts').set({ password: 'pw' }).where('id', '=', e.id).execute();
      const locked = { code: 'event-password-protected', message: 'The requested event is not accessible without a password', data: { status: 403 } };
      expect((await t.request('GET', `/events/${e.id}`)).body).toEqual(locked);
      expect((await t.request('GET', `/events/${e.id}`, { as: 'admin' })).body).toEqual(locked);
      expect((await t.request('GET', `/events/${e.id}`, { query: { password: 'wrong' } })).body).toEqual(locked);
      expect((await t.request('GET', `/events/${e.id}`, { query: { password: '' } })).body).toEqual(invalidParamBody('password'));
      const unlocked = await t.request('GET', `/events/${e.id}`, { query: { password: 'pw' } });
      expect(unlocked.status).toBe(200);
      expect(unlocked.body.description).toBe('<p>secret</p>');
      expect(unlocked.body.json_ld).toBeUndefined();
      const edit = await t.request('GET', `/events/${e.id}`, { query: { context: 'edit' }, as: 'admin' });
      expect(edit.status).toBe(200);
      expect(edit.body.json_ld).toBeUndefined();
      expect((await t.request('GET', `/events/${e.id}`, { query: { context: 'edit' }, as: 'contributor' })).body).toEqual(locked);

      // In the archive the item is redacted in place, unless the request unlocks it.
      const q = { include: String(e.id), starts_after: '2027-01-01' };
      const item = (await t.request('GET', '/events', { query: q })).body.events[0];
      expect(Object.keys(item)).toEqual(EVENT_KEYS);
      expect(item.title).toBe('Locked');
      expect(item.start_date).toBe(e.start_date);
      expect(item.slug).toBe('locked');
      expect(item.url).toBe(e.url);
      expect({
        description: item.description,
        excerpt: item.excerpt,
        image: item.image,
        all_day: item.all_day,
        cost: item.cost,
        website: item.website,
        flags: [item.show_map, item.show_map_link, item.hide_from_listings, item.sticky, item.featured],
        categories: item.categories,
        tags: item.tags,
        venue: item.venue,
        organizer: item.organizer,
        custom_fields: item.custom_fields,
      }).toEqual({
        description: '',
        excerpt: '',
        image: false,
        all_day: null,
        cost: '',
        website: '',
        flags: [null, null, null, null, null],
        categories: [],
        tags: [],
        venue: [],
        organizer: [],
        custom_fields: [],
      });
      expectSameJson(item.cost_details, { currency_symbol: '', currency_position: '', currency_code: '', values: [] });
      const open = (await t.request('GET', '/events', { query: { ...q, password: 'pw' } })).body.events[0];
      expect(open.cost).toBe('$10');
      expect(open.venue.id).toBe(venue.id);
      const openEdit = (await t.request('GET', '/events', { query: { ...q, context: 'edit' }, as: 'editor' })).body.events[0];
      expect(openEdit.description).toBe('<p>secret</p>');
    });

    it('redacts a password-protected venue embedded in an event', async () => {
      const venue = await createLinked(t, 'venues', { venue: 'Pw venue', state: 'X', city: 'Somewhere' });
      await t.db.updateTable('posts').set({ password: 'vpw' }).where('id', '=', venue.id).execute();
      const e = await createEvent(t, { venue: venue.id });
      const res = await t.request('GET', `/events/${e.id}`, { query: { password: 'vpw' } });
      expect(res.body.venue.venue).toEqual([]);
      expect(res.body.venue.city).toBe('');
      expect(res.body.venue.state).toBe('X');
      expect(res.body.venue.show_map).toBeNull();
      expect(res.body.venue.json_ld).toBeUndefined();
      expect(res.body.json_ld.location).toBe(false);
    });
  });
});
