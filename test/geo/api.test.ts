// Venue coordinates through the API: written by venue writes and by new venues of event writes,
// refused when they are not coordinates, shown only when both are non-zero; the `geoloc`
// arguments' errors, paging URLs and units; an occurrence's venue in the distance filter; the
// new arguments in the index and the two /doc modes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, testCalendar, type TestCalendar } from '../helpers/harness.js';
import type { VenueAddress } from '../../src/geo/options.js';

/** Points near Milan: about 11.1 km and 22.2 km north of the centre. */
const CENTRE = { lat: 45.4642, lng: 9.19 };
const NEAR = { geo_lat: 45.5642, geo_lng: 9.19 };
const FARTHER = { geo_lat: 45.6642, geo_lng: 9.19 };
const WINDOW = { start_date: '2027-01-01', end_date: '2027-12-31' };

/** The ids of an archive page. */
const idsOf = (body: Record<string, { id: number }[]>, key: string) => body[key]?.map((x) => x.id);

describe.each(DIALECTS)('venue coordinates through the API on $name', ({ url }) => {
  let t: TestCalendar;
  beforeAll(async () => {
    t = await testCalendar(url);
  }, 120_000);
  afterAll(() => t?.close());

  const post = (path: string, json: Record<string, unknown>) => t.request('POST', path, { as: 'admin', json });
  const near = (path: '/events' | '/venues', more: Record<string, string | number> = {}) =>
    t.request('GET', path, { query: { ...WINDOW, geoloc: 1, geoloc_lat: CENTRE.lat, geoloc_lng: CENTRE.lng, per_page: 50, ...more } });

  it('writes coordinates on venue writes and shows them only when both are non-zero', async () => {
    const made = await post('/venues', { venue: 'Coordinates hall', ...NEAR });
    expect(made.status, made.text).toBe(201);
    expect(made.body).toMatchObject(NEAR);
    const single = await t.request('GET', `/venues/${made.body.id}`);
    expect(single.body).toMatchObject(NEAR);
    expect(single.body.json_ld.geo).toEqual({ '@type': 'GeoCoordinates', latitude: NEAR.geo_lat, longitude: NEAR.geo_lng });
    // Key order of the original: after `stateprovince`'s place, before `json_ld`.
    const keys = Object.keys(single.body);
    expect(keys.indexOf('geo_lng')).toBe(keys.indexOf('geo_lat') + 1);
    expect(keys.indexOf('json_ld')).toBe(keys.indexOf('geo_lng') + 1);
    // Strings of decimals are numbers; `""` removes the pair; a zero one is stored but not shown.
    const moved = await post(`/venues/${made.body.id}`, { geo_lat: '-33.8688', geo_lng: ' 151.2093 ' });
    expect(moved.body).toMatchObject({ geo_lat: -33.8688, geo_lng: 151.2093 });
    const zero = await post(`/venues/${made.body.id}`, { geo_lat: 0, geo_lng: 151.2 });
    expect(zero.status).toBe(200);
    expect(zero.body).not.toHaveProperty('geo_lat');
    expect(zero.body).not.toHaveProperty('geo_lng');
    const cleared = await post(`/venues/${made.body.id}`, { geo_lat: '', geo_lng: '' });
    expect(cleared.body).not.toHaveProperty('geo_lat');
    expect((await t.request('GET', `/venues/${made.body.id}`)).body.json_ld).not.toHaveProperty('geo');
  });

  it('refuses what is not a coordinate pair with 400 rest_invalid_param, writing nothing', async () => {
    const before = (await t.request('GET', '/venues', { query: { per_page: 1 } })).body.total;
    const cases: [Record<string, unknown>, string, string][] = [
      [{ geo_lat: 90.5, geo_lng: 9 }, 'geo_lat', 'geo_lat must be a number from -90 to 90, or an empty string.'],
      [{ geo_lat: 45, geo_lng: -180.01 }, 'geo_lng', 'geo_lng must be a number from -180 to 180, or an empty string.'],
      [{ geo_lat: 'north', geo_lng: 9 }, 'geo_lat', 'geo_lat must be a number from -90 to 90, or an empty string.'],
      [{ geo_lat: '1e2', geo_lng: 9 }, 'geo_lat', 'geo_lat must be a number from -90 to 90, or an empty string.'],
      [{ geo_lat: true, geo_lng: 9 }, 'geo_lat', 'geo_lat must be a number from -90 to 90, or an empty string.'],
      [{ geo_lat: [45], geo_lng: 9 }, 'geo_lat', 'geo_lat must be a number from -90 to 90, or an empty string.'],
      [{ geo_lat: 45 }, 'geo_lng', 'geo_lng is required with geo_lat.'],
      [{ geo_lng: 9 }, 'geo_lat', 'geo_lat is required with geo_lng.'],
    ];
    for (const [fields, param, message] of cases) {
      const r = await post('/venues', { venue: `Bad ${param}`, ...fields });
      expect({ fields, status: r.status, code: r.body.code, params: r.body.data?.params }).toEqual({
        fields,
        status: 400,
        code: 'rest_invalid_param',
        params: { [param]: message },
      });
    }
    expect((await t.request('GET', '/venues', { query: { per_page: 1 } })).body.total).toBe(before);
    // A new venue of an event write: its value is refused as the `venue` parameter.
    const event = await post('/events', {
      title: 'Bad venue',
      start_date: '2027-04-01 10:00:00',
      end_date: '2027-04-01 11:00:00',
      venue: { venue: 'Nowhere', geo_lat: 200, geo_lng: 1 },
    });
    expect(event.status).toBe(400);
    expect(Object.keys(event.body.data.params)).toEqual(['venue']);
  });

  it('writes the coordinates of a venue created inside an event write, shown in the event', async () => {
    const r = await post('/events', {
      title: 'Embedded',
      start_date: '2027-04-02 10:00:00',
      end_date: '2027-04-02 11:00:00',
      venue: { venue: 'Embedded hall', ...FARTHER },
    });
    expect(r.status, r.text).toBe(201);
    expect(r.body.venue).toMatchObject(FARTHER);
    const single = await t.request('GET', `/events/${r.body.id}`);
    expect(single.body.venue).toMatchObject(FARTHER);
    expect(single.body.json_ld.location.geo).toEqual({ '@type': 'GeoCoordinates', latitude: FARTHER.geo_lat, longitude: FARTHER.geo_lng });
  });

  it('refuses bad geoloc arguments with 400 rest_invalid_param on both archives', async () => {
    const cases: [Record<string, string>, string, string][] = [
      [{ geoloc_lat: '91', geoloc_lng: '9' }, 'geoloc_lat', 'geoloc_lat must be a number from -90 to 90.'],
      [{ geoloc_lat: '45', geoloc_lng: 'east' }, 'geoloc_lng', 'geoloc_lng must be a number from -180 to 180.'],
      [{ geoloc_lat: '45', geoloc_lng: '9', geoloc_radius: '0' }, 'geoloc_radius', 'geoloc_radius must be a number above 0.'],
      [{ geoloc_lat: '45', geoloc_lng: '9', geoloc_radius: '-3' }, 'geoloc_radius', 'geoloc_radius must be a number above 0.'],
      [{ geoloc_lat: '45', geoloc_lng: '9', geoloc_radius: 'far' }, 'geoloc_radius', 'geoloc_radius must be a number above 0.'],
      [{ geoloc_lat: '45' }, 'geoloc_lng', 'geoloc_lng is required with geoloc_lat.'],
      [{ geoloc_lng: '9' }, 'geoloc_lat', 'geoloc_lat is required with geoloc_lng.'],
    ];
    for (const path of ['/events', '/venues'] as const) {
      for (const [query, param, message] of cases) {
        const r = await t.request('GET', path, { query: { geoloc: '1', ...query } });
        expect({ path, query, status: r.status, code: r.body.code, params: r.body.data?.params }).toEqual({
          path,
          query,
          status: 400,
          code: 'rest_invalid_param',
          params: { [param]: message },
        });
      }
      // Without `geoloc` the coordinates select nothing, but are still checked.
      expect((await t.request('GET', path, { query: { geoloc_lat: '45' } })).status).toBe(200);
      expect((await t.request('GET', path, { query: { geoloc_lat: '95' } })).status).toBe(400);
    }
  });

  it('filters by distance with the default radius, carries the arguments sent in the paging URLs', async () => {
    const a = await post('/venues', { venue: 'Near hall', ...NEAR });
    const b = await post('/venues', { venue: 'Farther hall', ...FARTHER });
    const eventAt = async (title: string, venue: number, day: string) =>
      (await post('/events', { title, start_date: `2027-05-${day} 10:00:00`, end_date: `2027-05-${day} 11:00:00`, venue })).body.id as number;
    const atA = await eventAt('At near hall', a.body.id, '03');
    const atB = await eventAt('At farther hall', b.body.id, '04');
    // Default radius 25 km: both halls (and the embedded one of the test above, at the farther point).
    const all = await near('/events');
    expect(idsOf(all.body, 'events')).toEqual(expect.arrayContaining([atA, atB]));
    expect(all.body.rest_url).toBe(
      `${t.base}/events/?page=1&per_page=50&start_date=2027-01-01 00:00:00&end_date=2027-12-31 23:59:59&geoloc=1&geoloc_lat=${CENTRE.lat}&geoloc_lng=${CENTRE.lng}&status=publish`,
    );
    const close = await near('/events', { geoloc_radius: 15 });
    expect(idsOf(close.body, 'events')).toEqual([atA]);
    expect(close.body.total).toBe(1);
    expect(close.body.rest_url).toContain(`&geoloc_lng=${CENTRE.lng}&geoloc_radius=15&status=publish`);
    // The calendar feed of the same selection.
    const feed = await t.request('GET', '/ics/events', { query: { ...WINDOW, geoloc: 1, geoloc_lat: CENTRE.lat, geoloc_lng: CENTRE.lng, geoloc_radius: 15 } });
    expect(feed.status).toBe(200);
    expect(feed.text).toContain('SUMMARY:At near hall');
    expect(feed.text).not.toContain('SUMMARY:At farther hall');
    expect(close.headers['X-Calendar-Ical']).toContain('geoloc_radius=15');
    const venues = await near('/venues', { geoloc_radius: 15 });
    expect(idsOf(venues.body, 'venues')).toEqual([a.body.id]);
    // The paging URLs repeat the filter.
    const paged = await near('/venues', { geoloc_radius: 30, per_page: 1 });
    expect(paged.body.total).toBeGreaterThanOrEqual(2);
    expect(paged.body.next_rest_url).toContain(`geoloc=1&geoloc_lat=${CENTRE.lat}&geoloc_lng=${CENTRE.lng}&geoloc_radius=30`);
    // `geoloc` alone: events whose venue has coordinates; an event without a venue is left out.
    const bare = await post('/events', { title: 'No venue', start_date: '2027-05-05 10:00:00', end_date: '2027-05-05 11:00:00' });
    const located = await t.request('GET', '/events', { query: { ...WINDOW, geoloc: 1, per_page: 50 } });
    expect(idsOf(located.body, 'events')).toEqual(expect.arrayContaining([atA, atB]));
    expect(idsOf(located.body, 'events')).not.toContain(bare.body.id);
  });

  it('places an occurrence at its series’ venue unless it is edited to another', async () => {
    const a = await post('/venues', { venue: 'Series hall', geo_lat: -12.0464, geo_lng: -77.0428 });
    const b = await post('/venues', { venue: 'Edited hall', geo_lat: -13.1631, geo_lng: -72.545 });
    const series = await post('/events', {
      title: 'Weekly in Lima',
      start_date: '2027-06-01 18:00:00',
      end_date: '2027-06-01 19:00:00',
      venue: a.body.id,
      recurrence: ['RRULE:FREQ=WEEKLY;COUNT=4'],
    });
    expect(series.status, series.text).toBe(201);
    const window = { start_date: '2027-06-01', end_date: '2027-06-30', geoloc: 1, geoloc_radius: 10, per_page: 50 };
    const at = async (venue: { geo_lat: number; geo_lng: number }) =>
      idsOf((await t.request('GET', '/events', { query: { ...window, geoloc_lat: venue.geo_lat, geoloc_lng: venue.geo_lng } })).body, 'events') ?? [];
    const occurrences = await at(a.body);
    expect(occurrences).toHaveLength(4);
    const second = occurrences[1] ?? 0;
    const edit = await post(`/events/${second}`, { venue: b.body.id });
    expect(edit.status, edit.text).toBe(200);
    expect(await at(a.body)).toEqual(occurrences.filter((id) => id !== second));
    expect(await at(b.body)).toEqual([second]);
  });

  it('leaves out a password-protected venue for callers who may not see its coordinates', async () => {
    const locked = await post('/venues', { venue: 'Locked hall', geo_lat: 64.1466, geo_lng: -21.9426 });
    await post('/events', { title: 'In the locked hall', start_date: '2027-07-01 10:00:00', end_date: '2027-07-01 11:00:00', venue: locked.body.id });
    // Set directly: the venue write has no password parameter.
    await t.calendar.services().then((s) => s.posts.update(locked.body.id, { password: 'secret' }));
    const query = { ...WINDOW, geoloc: 1, geoloc_lat: 64.1466, geoloc_lng: -21.9426, geoloc_radius: 5 };
    expect((await t.request('GET', '/events', { query })).body.total).toBe(0);
    expect((await t.request('GET', '/events', { query, as: 'admin' })).body.total).toBe(0);
    expect((await t.request('GET', '/venues', { query })).body.total).toBe(0);
    expect((await t.request('GET', '/venues', { query, as: 'admin' })).body.total).toBe(1);
  });
});

describe('geo options: the unit and default radius', () => {
  let t: TestCalendar;
  beforeAll(async () => {
    t = await testCalendar(':memory:', { geo: { unit: 'mi', radius: 10 } });
    for (const venue of [NEAR, FARTHER]) await t.request('POST', '/venues', { as: 'admin', json: { venue: `Hall ${venue.geo_lat}`, ...venue } });
  });
  afterAll(() => t?.close());

  it('reads geoloc_radius in miles, 10 by default here', async () => {
    const count = async (more: Record<string, number> = {}) =>
      (await t.request('GET', '/venues', { query: { geoloc: 1, geoloc_lat: CENTRE.lat, geoloc_lng: CENTRE.lng, ...more } })).body.total;
    // 11.1 km is 6.9 mi, 22.2 km is 13.8 mi.
    expect(await count()).toBe(1);
    expect(await count({ geoloc_radius: 14 })).toBe(2);
    expect(await count({ geoloc_radius: 6.8 })).toBe(0);
  });

  it('refuses options it cannot use', async () => {
    const { createCalendar } = await import('../../src/index.js');
    expect(() => createCalendar({ db: ':memory:', geo: { unit: 'miles' as 'mi' } })).toThrow(/option `geo.unit` is "miles"; it takes 'km' or 'mi'/);
    expect(() => createCalendar({ db: ':memory:', geo: { radius: 0 } })).toThrow(/option `geo.radius` is 0; it takes a number above 0/);
    expect(() => createCalendar({ db: ':memory:', geo: { geocoder: 'google' as never } })).toThrow(/option `geo.geocoder` is "google"/);
    expect(() => createCalendar({ db: ':memory:', geo: { radious: 5 } as never })).toThrow(/did you mean `geo.radius`\?/);
  });
});

describe('the geoloc arguments in the index and /doc', () => {
  let t: TestCalendar;
  let complete: TestCalendar;
  beforeAll(async () => {
    t = await testCalendar(':memory:');
    complete = await testCalendar(':memory:', { doc: 'complete' });
  });
  afterAll(async () => {
    await t?.close();
    await complete?.close();
  });

  it('lists geoloc_radius on /events and the four on /venues, but not the venue writes’ own coordinates', async () => {
    const index = (await t.request('GET', '/')).body;
    const events = index.routes[`/${t.ns}/events`].endpoints[0].args;
    expect(Object.keys(events).slice(Object.keys(events).indexOf('geoloc'), Object.keys(events).indexOf('geoloc') + 4)).toEqual([
      'geoloc',
      'geoloc_lat',
      'geoloc_lng',
      'geoloc_radius',
    ]);
    expect(events.geoloc_radius).toEqual({
      default: 25,
      description: "The radius of the geolocation filter around geoloc_lat and geoloc_lng, in the calendar's distance unit",
      format: 'double',
      required: false,
    });
    const venues = index.routes[`/${t.ns}/venues`].endpoints;
    expect(Object.keys(venues[0].args)).toEqual(expect.arrayContaining(['geoloc', 'geoloc_lat', 'geoloc_lng', 'geoloc_radius']));
    expect(Object.keys(venues[1].args)).not.toContain('geo_lat');
    expect(Object.keys(index.routes[`/${t.ns}/organizers`].endpoints[0].args)).not.toContain('geoloc');
  });

  it('documents them in both /doc modes; the complete one documents the venue coordinates too', async () => {
    const names = (doc: { paths: Record<string, Record<string, { parameters?: { name: string }[] }>> }, path: string) =>
      (doc.paths[path]?.get?.parameters ?? []).map((p) => p.name);
    for (const calendar of [t, complete]) {
      const doc = (await calendar.request('GET', '/doc')).body;
      expect(names(doc, '/events')).toEqual(expect.arrayContaining(['geoloc', 'geoloc_lat', 'geoloc_lng', 'geoloc_radius']));
      expect(names(doc, '/venues')).toEqual(expect.arrayContaining(['geoloc', 'geoloc_lat', 'geoloc_lng', 'geoloc_radius']));
    }
    const text = JSON.stringify((await complete.request('GET', '/doc')).body);
    expect(text).toContain('The venue latitude, from -90 to 90');
    expect(JSON.stringify((await t.request('GET', '/doc')).body)).not.toContain('The venue latitude, from -90 to 90');
  });
});

describe('the host geocoder (geo.geocoder)', () => {
  const calls: VenueAddress[] = [];
  const errors: unknown[] = [];
  let answer: (address: VenueAddress, signal: AbortSignal) => Promise<{ lat: number; lng: number } | null> = async () => null;
  let t: TestCalendar;
  beforeAll(async () => {
    t = await testCalendar(':memory:', {
      onError: (e) => errors.push(e),
      geo: {
        timeoutMs: 50,
        geocoder: (address, signal) => {
          calls.push(address);
          return answer(address, signal);
        },
      },
    });
  });
  afterAll(() => t?.close());
  const post = (path: string, json: Record<string, unknown>) => t.request('POST', path, { as: 'admin', json });
  const reset = (next: typeof answer) => {
    calls.length = 0;
    errors.length = 0;
    answer = next;
  };

  it('is asked for a new address, and its answer becomes the coordinates', async () => {
    reset(async () => ({ lat: 45.4642, lng: 9.19 }));
    const r = await post('/venues', { venue: 'Geocoded hall', address: 'Piazza del Duomo 1', city: 'Milano', zip: '20122', country: 'Italy' });
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({ geo_lat: 45.4642, geo_lng: 9.19 });
    expect(calls).toEqual([
      {
        venue: 'Geocoded hall',
        address: 'Piazza del Duomo 1',
        city: 'Milano',
        state: '',
        province: '',
        zip: '20122',
        country: 'Italy',
        text: 'Piazza del Duomo 1, Milano, 20122, Italy',
      },
    ]);
    // A write that leaves the address as it is does not ask again; one that changes it does.
    reset(async () => ({ lat: 45.07, lng: 7.69 }));
    expect((await post(`/venues/${r.body.id}`, { phone: '+39 02 1234' })).body).toMatchObject({ geo_lat: 45.4642 });
    expect((await post(`/venues/${r.body.id}`, { city: 'Milano' })).body).toMatchObject({ geo_lat: 45.4642 });
    expect(calls).toEqual([]);
    const moved = await post(`/venues/${r.body.id}`, { address: 'Piazza Castello', city: 'Torino', zip: '10121' });
    expect(moved.body).toMatchObject({ geo_lat: 45.07, geo_lng: 7.69 });
    expect(calls.map((c) => c.text)).toEqual(['Piazza Castello, Torino, 10121, Italy']);
    // Coordinates sent win over the geocoder, which is not asked.
    reset(async () => ({ lat: 1, lng: 1 }));
    const sent = await post('/venues', { venue: 'Placed hall', city: 'Roma', geo_lat: 41.9, geo_lng: 12.5 });
    expect(sent.body).toMatchObject({ geo_lat: 41.9, geo_lng: 12.5 });
    expect(calls).toEqual([]);
    // An address removed takes the coordinates with it, without asking.
    const removed = await post(`/venues/${r.body.id}`, { address: '', city: '', zip: '', country: '' });
    expect(removed.body).not.toHaveProperty('geo_lat');
    expect(calls).toEqual([]);
  });

  it('geocodes a venue created inside an event write, before its transaction', async () => {
    reset(async () => ({ lat: 48.8566, lng: 2.3522 }));
    const r = await post('/events', {
      title: 'Geocoded event',
      start_date: '2027-08-01 10:00:00',
      end_date: '2027-08-01 11:00:00',
      venue: { venue: 'Paris hall', city: 'Paris', country: 'France' },
    });
    expect(r.status, r.text).toBe(201);
    expect(r.body.venue).toMatchObject({ geo_lat: 48.8566, geo_lng: 2.3522 });
    expect(calls.map((c) => c.text)).toEqual(['Paris, France']);
  });

  it('writes the venue without coordinates when the geocoder fails, times out or answers nonsense, and reports it', async () => {
    const cases: [string, typeof answer][] = [
      ['throws', async () => Promise.reject(new Error('quota exceeded'))],
      ['never answers', (_address, signal) => new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('aborted'))))],
      ['answers nonsense', async () => ({ lat: 123, lng: 4 })],
    ];
    for (const [what, next] of cases) {
      reset(next);
      const r = await post('/venues', { venue: `Hall that ${what}`, city: 'Atlantis' });
      expect({ what, status: r.status }).toEqual({ what, status: 201 });
      expect(r.body).not.toHaveProperty('geo_lat');
      expect(errors).toHaveLength(1);
      expect(String(errors[0])).toContain('the geocoder failed for the venue address "Atlantis"; the venue is written without coordinates');
    }
    // `null`: no coordinates, and nothing to report.
    reset(async () => null);
    expect((await post('/venues', { venue: 'Unknown place', city: 'Nowhere' })).body).not.toHaveProperty('geo_lat');
    expect(errors).toEqual([]);
  });
});
