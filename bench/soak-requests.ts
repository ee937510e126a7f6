/**
 * What the soak case (bench/soak.ts) sends: the steady mix of an events site's traffic, and the
 * outside review's hostile requests (issue 28), each with the statuses it may answer.
 */
import { ADMIN_TOKEN, API } from './cases.js';
import type { SeedFixtures } from './seed.js';

/** The contributor's bearer token the soak servers are started with (`CALENDAR_TOKENS`). */
export const CONTRIBUTOR_TOKEN = 'bench-contributor-token';

/** One request of the soak. */
export interface SoakRequest {
  /** What it is, for the report (`GET /events/<id>`, `hostile: …`): requests of a kind are tallied together. */
  kind: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** The statuses it may answer: another one is counted as unexpected (a 5xx as an error whatever this says). */
  expect: readonly number[];
  /** Gets the answer when one came (ids and sync tokens the mix reuses). */
  onAnswer?: (status: number, body: string) => void;
}

/** What a request got: an answer, or the client's error code (`ECONNRESET`, `timeout`…). */
export type SoakAnswer = { status: number; body: string } | { error: string };

/** Sends a request to an instance (its index) and resolves when it is answered or failed. */
export type Send = (request: SoakRequest, instance: number) => Promise<SoakAnswer>;

/** A hostile action: one request, or a few in a row (a write, then the feed it changed). */
export interface HostileAction {
  name: string;
  run(send: Send, instance: number): Promise<void>;
}

/** Items made at set-up that the mix addresses besides the seeded ones. */
export interface SoakFixtures extends SeedFixtures {
  /** The recurring series made at set-up. */
  seriesIds: number[];
  /** A series whose occurrences fall in 1001 and 9998, made at set-up (the hostile feeds read it). */
  millenniumId: number;
  /** Sync tokens from set-up: the anonymous and the administrator's. */
  anonymousToken: string;
  adminToken: string;
}

const json = (token: string) => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });
const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
const noCache = { 'cache-control': 'no-cache' };
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const q = (params: Record<string, string | number>) => new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)])).toString();

/** The feed of every event: a window of a century, over the 1,000 of `ical.maxEvents`. */
export const WIDE_FEED = `${API}/ics/events?start_date=2000-01-01&end_date=2100-01-01`;

/** The recurring series made at set-up (README, "Recurring events"), as `POST /events` bodies. */
export function seriesBodies(f: SeedFixtures): Record<string, unknown>[] {
  const at = (offset: number, time: string) => `${day(offset)} ${time}`;
  return [
    { title: 'Soak swim', start_date: at(1, '09:00:00'), end_date: at(1, '10:00:00'), timezone: 'Europe/Paris', recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=MO,WE'] },
    {
      title: 'Soak daily stand-up',
      start_date: at(2, '08:30:00'),
      end_date: at(2, '08:45:00'),
      timezone: 'America/New_York',
      recurrence: ['RRULE:FREQ=DAILY;COUNT=200'],
    },
    {
      title: 'Soak first Friday',
      start_date: at(3, '19:00:00'),
      end_date: at(3, '22:00:00'),
      timezone: 'Europe/London',
      recurrence: ['RRULE:FREQ=MONTHLY;BYDAY=1FR'],
    },
    {
      title: 'Soak choir',
      start_date: at(4, '18:00:00'),
      end_date: at(4, '20:00:00'),
      timezone: 'Europe/Paris',
      recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=TU,TH;COUNT=150', `EXDATE;TZID=Europe/Paris:${day(11).replaceAll('-', '')}T180000`],
    },
    {
      title: 'Soak festival',
      start_date: at(30, '10:00:00'),
      end_date: at(32, '23:00:00'),
      timezone: 'Asia/Tokyo',
      recurrence: ['RRULE:FREQ=YEARLY;COUNT=10'],
    },
  ].map((body) => ({ ...body, status: 'publish', venue: f.venueId, categories: [f.categorySlug] }));
}

/** The hostile series of finding 2: occurrences in the years 1001 and 9998. */
export const MILLENNIUM_BODY = {
  title: 'Soak millennium',
  status: 'publish',
  start_date: '1001-06-01 10:00:00',
  end_date: '1001-06-01 11:00:00',
  timezone: 'Europe/Paris',
  recurrence: ['RDATE:99980601T100000'],
};

interface Entry {
  weight: number;
  make(n: number): SoakRequest;
}

/**
 * The steady mix, weights per 1,000 requests: 70 % logged-out reads (from the response cache when
 * nothing changed since), 2.5 % a month's feed, 8 % computed (`no-cache`), 11 % signed in, 3.5 %
 * change-feed followers, and 5 % writes, which keep the caches turning over.
 */
export class SoakMix {
  private readonly entries: Entry[];
  /** Smooth weighted round-robin: the same order on every run, no clumps of one kind. */
  private readonly current: number[];
  private readonly total: number;
  private n = 0;
  /** Events the mix created, oldest first: the deletes take them. */
  private readonly created: number[] = [];
  private readonly tokens: { anonymous: string; admin: string };
  private readonly run = Date.now().toString(36);

  constructor(private readonly f: SoakFixtures) {
    this.tokens = { anonymous: f.anonymousToken, admin: f.adminToken };
    const ids = f.eventIds.length ? f.eventIds : [1];
    const slugs = f.eventSlugs.length ? f.eventSlugs : ['none'];
    const series = f.seriesIds.length ? f.seriesIds : ids;
    const get = (kind: string, path: string, headers?: Record<string, string>): SoakRequest => ({ kind, method: 'GET', path, headers, expect: [200] });
    const follow = (who: 'anonymous' | 'admin') => (): SoakRequest => ({
      kind: `GET /changes (${who === 'admin' ? 'administrator' : 'anonymous'}, following)`,
      method: 'GET',
      path: `${API}/changes?${q({ sync_token: this.tokens[who], per_page: 50 })}`,
      headers: who === 'admin' ? admin : undefined,
      expect: [200],
      onAnswer: (status, body) => {
        if (status === 200) this.tokens[who] = (JSON.parse(body) as { next_sync_token: string }).next_sync_token;
      },
    });
    this.entries = [
      { weight: 160, make: () => get('GET /events', `${API}/events`) },
      { weight: 20, make: (n) => get('GET /events?page=2…5', `${API}/events?page=${2 + (n % 4)}`) },
      { weight: 30, make: () => get('GET /events?per_page=50', `${API}/events?per_page=50`) },
      {
        weight: 60,
        make: () =>
          get('GET /events?categories&venue&search', `${API}/events?${q({ categories: f.filter.categories, venue: f.filter.venue, search: f.filter.search })}`),
      },
      { weight: 50, make: () => get('GET /events?start_date&end_date (month)', `${API}/events?${q(f.month)}`) },
      { weight: 220, make: (n) => get('GET /events/<id>', `${API}/events/${ids[n % ids.length]}`) },
      { weight: 40, make: (n) => get('GET /events/by-slug/<slug>', `${API}/events/by-slug/${slugs[n % slugs.length]}`) },
      { weight: 20, make: (n) => get('GET /events/<series>/occurrences', `${API}/events/${series[n % series.length]}/occurrences`) },
      { weight: 30, make: () => get('GET /venues', `${API}/venues`) },
      { weight: 30, make: () => get('GET /organizers', `${API}/organizers`) },
      { weight: 25, make: () => get('GET /categories', `${API}/categories`) },
      { weight: 15, make: () => get('GET /tags', `${API}/tags`) },
      { weight: 40, make: () => get('GET /events, no-cache', `${API}/events`, noCache) },
      { weight: 40, make: (n) => get('GET /events/<id>, no-cache', `${API}/events/${ids[(n * 7) % ids.length]}`, noCache) },
      { weight: 50, make: () => get('GET /events (administrator)', `${API}/events`, admin) },
      { weight: 10, make: () => get('GET /events?per_page=50 (administrator)', `${API}/events?per_page=50`, admin) },
      { weight: 50, make: (n) => get('GET /events/<id> (administrator)', `${API}/events/${ids[(n * 3) % ids.length]}`, admin) },
      { weight: 20, make: follow('admin') },
      { weight: 10, make: follow('anonymous') },
      // A mirror back after being away since the soak began: every change since, 50 at a time.
      { weight: 5, make: () => get('GET /changes (administrator, since the start)', `${API}/changes?${q({ sync_token: f.adminToken, per_page: 50 })}`, admin) },
      { weight: 25, make: () => get('GET /ics/events?categories (month)', `${API}/ics/events?${q({ ...f.month, categories: f.filter.categories })}`) },
      { weight: 15, make: (n) => this.createEvent(n) },
      { weight: 20, make: (n) => this.updateEvent(ids[(n * 11) % ids.length]!, n) },
      { weight: 10, make: (n) => this.deleteEvent(ids[(n * 13) % ids.length]!, n) },
      { weight: 5, make: (n) => this.createVenue(n) },
    ];
    this.current = this.entries.map(() => 0);
    this.total = this.entries.reduce((sum, e) => sum + e.weight, 0);
  }

  /** The mix's next request. */
  next(): SoakRequest {
    let best = 0;
    for (let i = 0; i < this.entries.length; i++) {
      this.current[i]! += this.entries[i]!.weight;
      if (this.current[i]! > this.current[best]!) best = i;
    }
    this.current[best]! -= this.total;
    return this.entries[best]!.make(this.n++);
  }

  private createEvent(n: number): SoakRequest {
    const start = day(5 + (n % 60));
    return {
      kind: 'POST /events (administrator)',
      method: 'POST',
      path: `${API}/events`,
      headers: json(ADMIN_TOKEN),
      body: JSON.stringify({
        title: `Soak concert ${this.run}-${n}`,
        description: '<p>An event written by the soak.</p><p>Second paragraph, <a href="https://example.org/">a link</a>.</p>',
        status: 'publish',
        start_date: `${start} 19:00:00`,
        end_date: `${start} 21:30:00`,
        timezone: 'Europe/Paris',
        venue: this.f.venueId,
        organizer: [this.f.organizerId],
        categories: [this.f.categorySlug],
        cost: '15',
      }),
      expect: [201],
      onAnswer: (status, body) => {
        if (status === 201) this.created.push((JSON.parse(body) as { id: number }).id);
      },
    };
  }

  private updateEvent(id: number, n: number): SoakRequest {
    return {
      kind: 'PUT /events/<id> (administrator)',
      method: 'PUT',
      path: `${API}/events/${id}`,
      headers: json(ADMIN_TOKEN),
      body: JSON.stringify({ excerpt: `Updated by the soak (${this.run}-${n}).`, featured: n % 2 === 0 }),
      expect: [200],
    };
  }

  /** Trashes the oldest event the mix created (the calendar keeps its size); an update while there is none. */
  private deleteEvent(fallback: number, n: number): SoakRequest {
    const id = this.created.shift();
    if (id === undefined) return this.updateEvent(fallback, n);
    return { kind: 'DELETE /events/<created id> (administrator)', method: 'DELETE', path: `${API}/events/${id}`, headers: admin, expect: [200] };
  }

  private createVenue(n: number): SoakRequest {
    return {
      kind: 'POST /venues (administrator)',
      method: 'POST',
      path: `${API}/venues`,
      headers: json(ADMIN_TOKEN),
      body: JSON.stringify({
        venue: `Soak hall ${this.run}-${n}`,
        address: `${n} rue de la Soie`,
        city: 'Lyon',
        country: 'France',
        zip: '69001',
        status: 'publish',
      }),
      expect: [201],
    };
  }
}

/** Image URLs that point back at this machine (the instances, PostgreSQL): refused before any connection. */
const loopbackImages = (ports: number[]) => [
  `http://127.0.0.1:${ports[0]}/wp-json/`,
  `http://localhost:${ports[1] ?? ports[0]}/image.png`,
  `http://[::1]:${ports[0]}/image.png`,
  `http://2130706433:${ports[0]}/image.png`,
  `http://127.1:${ports[0]}/image.png`,
  'http://0.0.0.0/image.png',
];

/**
 * The review's hostile requests (issue 28), one action per turn in this order: costly rules
 * (now a quick 400), a series spanning 1001 to 9998 and its feeds, the full feed right after a
 * write, searches of thousands of words, bodies at and past the 1 MiB limit, and image
 * side-loads from loopback addresses (refused).
 */
export function hostileActions(f: SoakFixtures, ports: number[]): HostileAction[] {
  let millennium = f.millenniumId;
  let n = 0;
  // Ten years ahead: in the century-wide feed, out of the archive's default window.
  const far = `${day(3650).slice(0, 4)}-03-01`;
  const event = (extra: Record<string, unknown>) => ({
    title: `Soak hostile ${Date.now().toString(36)}-${n++}`,
    start_date: `${far} 10:00:00`,
    end_date: `${far} 11:00:00`,
    ...extra,
  });
  const post = (token: string | null, body: string, expect: number[], path = `${API}/events`): Omit<SoakRequest, 'kind'> => ({
    method: 'POST',
    path,
    headers: token ? json(token) : { 'content-type': 'application/json' },
    body,
    expect,
  });
  /** An action of one request, tallied under the action's name. */
  const one = (name: string, request: () => Omit<SoakRequest, 'kind'>): HostileAction => ({
    name,
    run: async (send, i) => void (await send({ kind: name, ...request() }, i)),
  });
  const words = (count: number, sep: string) => Array.from({ length: count }, () => 'ab').join(sep);
  const searchUrl = words(5000, '+');
  const searchBody = JSON.stringify({ search: words(33_000, ' ') });
  const images = loopbackImages(ports);
  const yearDays = Array.from({ length: 366 }, (_, i) => i + 1).join(',');
  /** A valid event whose body is exactly `bytes` long, with a parameter the API ignores. */
  const padded = (bytes: number) => {
    const body = event({});
    const base = JSON.stringify({ ...body, padding: '' });
    return JSON.stringify({ ...body, padding: 'x'.repeat(bytes - Buffer.byteLength(base)) });
  };
  const html = '<p>Word <b>bold</b> <a href="https://example.org/" onclick="steal()">link</a><script>alert(1)</script></p>'.repeat(850);
  return [
    one('hostile: BYYEARDAY×366;BYSETPOS=366;BYMONTH=2 (contributor) → 400', () =>
      post(CONTRIBUTOR_TOKEN, JSON.stringify(event({ recurrence: [`RRULE:FREQ=YEARLY;BYYEARDAY=${yearDays};BYSETPOS=366;BYMONTH=2`] })), [400]),
    ),
    one('hostile: BYDAY×7;BYSETPOS=8 (contributor) → 400', () =>
      post(CONTRIBUTOR_TOKEN, JSON.stringify(event({ recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR,SA,SU;BYSETPOS=8'] })), [400]),
    ),
    {
      name: 'hostile: a series of 1001 and 9998, then its .ics',
      run: async (send, i) => {
        await send(
          {
            kind: 'hostile: POST a series of 1001 and 9998 (administrator)',
            ...post(ADMIN_TOKEN, JSON.stringify({ ...MILLENNIUM_BODY, title: `Soak millennium ${n++}` }), [201]),
            onAnswer: (status, body) => {
              if (status === 201) millennium = (JSON.parse(body) as { id: number }).id;
            },
          },
          i,
        );
        await send(
          {
            kind: 'hostile: GET /ics/events/<series of 1001 and 9998>, no-cache',
            method: 'GET',
            path: `${API}/ics/events/${millennium}`,
            headers: noCache,
            expect: [200],
          },
          i,
        );
      },
    },
    one('hostile: GET /ics/events?start_date=9997-01-01&end_date=9999-01-01, no-cache', () => ({
      method: 'GET',
      path: `${API}/ics/events?start_date=9997-01-01&end_date=9999-01-01`,
      headers: noCache,
      expect: [200],
    })),
    {
      name: 'hostile: a write, then the full feed',
      run: async (send, i) => {
        await send(
          {
            kind: 'hostile: POST /events just before the full feed (administrator)',
            ...post(ADMIN_TOKEN, JSON.stringify(event({ status: 'publish' })), [201]),
          },
          i,
        );
        await send(
          {
            kind: 'hostile: GET /ics/events (a century: ≥ 1,000 events) right after a write, no-cache',
            method: 'GET',
            path: WIDE_FEED,
            headers: noCache,
            expect: [200],
          },
          i,
        );
      },
    },
    one('hostile: GET /events?search=<5,000 words>', () => ({ method: 'GET', path: `${API}/events?search=${searchUrl}`, expect: [200] })),
    one('hostile: GET /venues?search=<5,000 words> → 400', () => ({ method: 'GET', path: `${API}/venues?search=${searchUrl}`, expect: [400] })),
    one('hostile: POST /organizers?_method=GET, a 33,000-word search → 400', () => post(null, searchBody, [400], `${API}/organizers?_method=GET`)),
    one('hostile: POST /events?_method=GET, a 33,000-word search', () => post(null, searchBody, [200], `${API}/events?_method=GET`)),
    one('hostile: POST /events, a body 200 bytes under 1 MiB (contributor)', () => post(CONTRIBUTOR_TOKEN, padded(1_048_576 - 200), [201])),
    one('hostile: POST /events, a body 24 bytes over 1 MiB → 413', () => post(CONTRIBUTOR_TOKEN, padded(1_048_600), [413])),
    one('hostile: POST /events, 130,000 numbers in one JSON array (contributor)', () =>
      post(CONTRIBUTOR_TOKEN, JSON.stringify(event({ padding: Array.from({ length: 130_000 }, (_, k) => k) })), [201]),
    ),
    one('hostile: POST /events, 90 KB of HTML to filter (contributor)', () => post(CONTRIBUTOR_TOKEN, JSON.stringify(event({ description: html })), [201])),
    one('hostile: POST /events, an image side-loaded from a loopback address → 400', () =>
      post(CONTRIBUTOR_TOKEN, JSON.stringify(event({ image: images[n % images.length] })), [400]),
    ),
  ];
}
