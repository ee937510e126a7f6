import type { Kysely } from 'kysely';
import type { Route } from './http/context.js';
import { FieldRegistry } from './fields/registry.js';
import { KindRegistry } from './host-kinds/registry.js';
import type { KindsOption } from './host-kinds/declare.js';
import type { FieldsOption } from './fields/declare.js';
import type { RoleGrants, User } from './auth/capabilities.js';
import type { CoreRequest } from './http/types.js';
import type { CorsOptions, CorsPolicy } from './http/cors.js';
import type { CsrfGuard, CsrfOptions } from './http/csrf.js';
import type { Limits } from './http/limits.js';
import type { Dictionary } from './i18n/en.js';
import { corsPolicy } from './http/cors.js';
import { csrfGuard } from './http/csrf.js';
import { resolveLimits } from './http/limits.js';
import { resolveZone } from './dates/index.js';
import { invalidOption } from './option-error.js';
import { aFlag, aFunction, aList, anObject, aRecord, aText, checkedLater, checkShapes, either, isRecord, type ShapesOf } from './options-shape.js';
import { DEFAULT_LIMITS } from './http/limits.js';
import { resolvePermalinks, type Permalinks } from './http/permalinks.js';
import { databaseTarget } from './store/connect.js';
import { POSITION_HEADER } from './store/lsn.js';
import type { ReplicationOptions } from './replication/router.js';
import type { ResolvedWebhooks, WebhookEndpoint, WebhookOptions } from './webhooks/deliverer.js';
import { resolveWebhooks } from './webhooks/options.js';
import type { RecurrenceOptions } from './recurrence/series.js';
import { CalendarHooks } from './hooks/calendar-hooks.js';
import type { HooksOption } from './hooks/types.js';
import { resolveRoles, type RoleTable, type RolesOption } from './auth/roles.js';
import { resolveGeo, type GeoOptions, type ResolvedGeo } from './geo/options.js';
import { resolveSubscriptions, type ResolvedSubscriptions, type SubscriptionFeed, type SubscriptionsOption } from './subscriptions/settings.js';

export type { RecurrenceOptions } from './recurrence/series.js';

/** How a host configures a calendar. */
export interface CalendarOptions {
  /**
   * The database: a Kysely instance of the host's (any supported dialect), or a
   * connection string for the built-in helper (`postgres://…`, `mysql://…`, a SQLite file path or `:memory:`).
   * From a `postgres://…` URL, statements that recur are prepared under names, so PostgreSQL
   * parses and plans them once per connection (docs/recipes/postgres-instances.md, "Prepared
   * statements"); a Kysely instance of the host's runs its queries as its pool does (wrap a pg
   * pool with `namingStatements` for the same).
   */
  db: Kysely<any> | string; // eslint-disable-line @typescript-eslint/no-explicit-any -- any host database type
  /**
   * PostgreSQL streaming replicas of `db` (README "Read replicas"): Kysely instances or
   * `postgres://…` URLs. Logged-out reads go to them, once they have replayed what the reader
   * must see; writes and signed-in reads go to `db`, the primary.
   */
  replicas?: readonly (Kysely<any> | string)[]; // eslint-disable-line @typescript-eslint/no-explicit-any -- any host database type
  /**
   * How reads use the replicas: a read waits up to `waitMs` (default 20) for a replica to
   * replay what it must show, else the primary answers it; a replica that cannot be reached is
   * left alone for `skipMs` (default 1000).
   */
  replication?: { waitMs?: number; skipMs?: number };
  /** Prefix of the store's tables, so they never collide with the host's. Default `tec_`. */
  tablePrefix?: string;
  /** The REST namespace. Default `calendar/events/v1`; `tribe/events/v1` for clients of the original. */
  namespace?: string;
  /** Default `per_page` of every archive. Default 10. */
  perPage?: number;
  /** Largest `per_page` honoured (larger values are clamped). Default 50. */
  maxPerPage?: number;
  /** The site time zone (IANA name or `UTC±H`). Default `UTC`. */
  timezone?: string;
  /** The site's public home URL (`https://example.org`); absolute URLs are built from it. */
  baseUrl?: string;
  /**
   * Hosts images may be side-loaded from even when they resolve to loopback, private or
   * link-local addresses (by default only public addresses are fetched, on ports 80, 443 and
   * 8080 as WordPress): `host` allows ports
   * 80 and 443 only; `host:port` or `[IPv6]:port` allows that one port.
   */
  imageHosts?: readonly string[];
  /**
   * Without `baseUrl`: honour `X-Forwarded-Proto`, `X-Forwarded-Host` and `X-Forwarded-Prefix`
   * (only behind a trusted proxy that sets them itself). Default `false`.
   */
  trustProxy?: boolean;
  /**
   * Who is calling: `null` for anonymous, else `{ id, roles?, capabilities? }`, whose roles are
   * the five WordPress roles (`administrator`, `editor`, `author`, `contributor`, `subscriber`)
   * with their default capabilities, or the host's own (`roles`). Throw an `ApiError` to reject
   * bad credentials. An adapter's own `getUser` (typed with the framework's request) takes precedence.
   */
  getUser?: (request: CoreRequest) => User | null | Promise<User | null>;
  /** Whether a user id exists (for `author` fields). Default: any positive id. */
  userExists?: (id: number) => boolean | Promise<boolean>;
  /**
   * Who may name another user as an item's `author`. Default `false`, as the original: anyone
   * allowed to write the item (a contributor's event owned by user 1 stays a draft). `true`:
   * WordPress core's rule, another user only with the kind's `edit_others` capability, else 403
   * `rest_cannot_edit_others`, on every write (events and their occurrences, venues, organizers,
   * and those created inside an event write).
   */
  strictAuthor?: boolean;
  /**
   * The host's own fields, by collection, each declared once with `field()` (README "Extending:
   * fields"): validated on writes, stored, shown in items, filterable, in the index and `/doc`.
   */
  fields?: FieldsOption;
  /**
   * The host's own kinds of item, by collection, each declared once with `kind()` (README
   * "Extending: kinds"): posts with a name, a description and the fields declared
   * for their collection in `fields`, with the routes, index, `/doc` and tRPC procedures of
   * venues and organizers.
   */
  kinds?: KindsOption;
  /**
   * The host's own routes inside the namespace, made with `calendarRoute()` (README "Extending:
   * routes"): checked, permitted and answered like the calendar's, listed in the index and `/doc`.
   */
  routes?: readonly Route[];
  /**
   * The host's hooks, by kind (README "Extending: hooks, change events, roles"): `beforeChange`
   * inside a write's transaction (may change the input, or refuse with a `HookError`),
   * `afterChange` once per committed change, `afterRead` on every item rendered for a viewer.
   */
  hooks?: HooksOption;
  /**
   * The host's own roles and the capabilities each grants: a list, or a role's grants changed
   * (`{ inherits: 'editor', add: [...], remove: [...] }`). A user's `roles` may name them.
   */
  roles?: RolesOption;
  /** Extra or overriding description dictionaries by locale. */
  dictionaries?: Record<string, Dictionary>;
  /** Bounds on what one request can make the calendar do (docs/security.md, "Limits"). */
  limits?: Partial<Limits>;
  /** Called with unexpected errors (answered as a JSON 500 without details). Default `console.error`. */
  onError?: (error: unknown) => void;
  /**
   * Reuse rendered answers to logged-out reads while the store is unchanged (`http/response-cache.ts`;
   * SQLite and PostgreSQL): until the next write, or within the same second for answers that read
   * the clock (events archives). `maxBytes` bounds the JSON kept (default 16 MB); `false` turns it off.
   */
  responseCache?: false | { maxBytes?: number };
  /**
   * HTTP caching of logged-out reads: `maxAge` (seconds, default 0) is sent as
   * `Cache-Control: public, max-age=…` on their successful answers; above 0, `Vary` also names
   * `Authorization` and `Cookie`, so that shared caches keep callers apart. Every answer carries
   * an `ETag` for conditional requests whatever this says.
   */
  httpCache?: { maxAge?: number };
  /**
   * The iCalendar feeds (`/ics/events`): without `start_date`, a feed starts `pastDays` (default
   * 30) before today, since calendar apps keep past events; it holds at most `maxEvents` (default
   * 1000), the earliest first, and says when it holds fewer than match (`X-TEC-Total`); apps are
   * asked to refresh it every `refreshMinutes` (default 60); `name` is its title in their list
   * of calendars (default `Events – <host>`).
   */
  ical?: { pastDays?: number; maxEvents?: number; refreshMinutes?: number; name?: string };
  /**
   * Recurring events (README "Recurring events"): occurrence ids start at `idBase` (default
   * 10,000,000, as the original's add-on; post ids must stay below it); occurrences are indexed
   * `horizonMonths` (default 24) ahead, and on demand up to `maxHorizonMonths` (default 120); a
   * rule with more than `maxOccurrences` (default 1,000) occurrences in the first horizon is
   * refused, and so is a `recurrence` of more than `maxLines` (50) lines or `maxDates` (500)
   * RDATE and EXDATE values, and a rule whose walk up to its end (or the horizon) looks at more
   * than `maxCandidates` (500,000) candidate dates.
   */
  recurrence?: Partial<RecurrenceOptions>;
  /**
   * The change log behind `GET /changes`, webhooks and `calendar.on('change')`: entries older
   * than `retentionDays` (default 30) are pruned, and a sync token from before them answers 410;
   * change listeners look at the log every `pollMs` (default 1000) for other instances' writes.
   */
  changes?: { retentionDays?: number; pollMs?: number };
  /**
   * Receivers told of every change (README "Webhooks"): signed JSON POSTs, delivered at least
   * once and in order, from the change log.
   */
  webhooks?: WebhookOptions;
  /**
   * Which pages of other origins may read answers. Default: any origin, never with the
   * visitor's cookies; list origins to let them read with credentials; `false` sends no
   * `Access-Control-*` header (the host's own CORS middleware decides).
   */
  cors?: CorsOptions | false;
  /**
   * How writes authenticated by a cookie are protected from other sites: they need a nonce
   * (`X-WP-Nonce` / `_wpnonce`, from `calendar.createNonce`) or a trusted origin. `false` turns
   * the guard off (only for hosts that guard those writes themselves).
   */
  csrf?: CsrfOptions | false;
  /**
   * Where the `url` of events, venues, organizers, categories and tags points: the host's own
   * pages, as a template (`'/events/{slug}'`: a path below `baseUrl` or an absolute URL, with
   * `{slug}` and/or `{id}`; a category's `{slug}` is its path, `parent/child`) for published
   * items, unpublished ones keeping WordPress' plain `?post_type=…&p=id` link, or a function of
   * `{ kind, id, slug, status }` that decides for every item. Default: WordPress'
   * (`/event/{slug}/`, `/venue/{slug}/`, `/organizer/{slug}/`, `/events/category/{slug}/`, `/tag/{slug}/`).
   */
  permalinks?: Permalinks;
  /**
   * Create or upgrade the store's tables on first use instead of answering 503 until
   * `calendar.migrate()` has run. Default `false`: schema changes stay a deliberate step.
   */
  autoMigrate?: boolean;
  /**
   * Answer `GET {root}` (`/wp-json/`) with a root index listing the calendar's namespace and
   * routes, as WordPress does (every answer's `Link` header points there). Default `true`;
   * `false` leaves the root to the host.
   */
  rootIndex?: boolean;
  /**
   * What `GET /doc` answers. `original` (the default): upstream's OpenAPI document as it is, for
   * its clients. `complete`: a document to generate a client from: the same paths and
   * parameters, every write with its JSON body, the JSON the API really answers, its errors and
   * the ways a host may authenticate callers.
   */
  doc?: 'original' | 'complete';
  /**
   * Venue coordinates and distance filters (docs "Geo"): `geocoder`, the host's function that
   * gives the coordinates of an address (called when a venue's address changes and no
   * `geo_lat`/`geo_lng` are sent; none by default, and a failure writes the venue without
   * coordinates and is reported to `onError`), waited for at most `timeoutMs` (default 5000);
   * `unit` of `geoloc_radius` (`'km'` by default, or `'mi'`) and the default `radius` (25).
   */
  geo?: GeoOptions;
  /**
   * iCalendar feeds the calendar follows (docs "Subscriptions and imports"): each feed of
   * `feeds` (`{ url, every: '60m', categories, status, overwrite }`, with those added by
   * `calendar-events-rest subscribe`) is read on a timer, one instance at a time when several
   * share the database, conditionally (ETag / Last-Modified), and its events created, updated
   * and trashed as it changes; events edited through the API since are left alone unless
   * `overwrite`. Feeds are fetched under the outbound policy of images (`allowHosts` widens it)
   * within `maxBytes` (16 MiB), `timeoutMs` (30 s), `runTimeoutMs` (10 minutes) and `maxEvents`
   * (5000); `pollMs` (60 s) is how often due feeds are looked for, `run: false` keeps this
   * instance's timer off, `onRun` is told of every run and failures go to `onError`.
   */
  subscriptions?: SubscriptionsOption;
}

const texts = (takes: string) => aList(aText(), takes);
const ofKeys = (keys: object, takes: string) => anObject(Object.fromEntries(Object.keys(keys).map((k) => [k, checkedLater])), takes);

/**
 * What each option takes, checked before it is read (`options-shape.ts`): typed against
 * {@link CalendarOptions}, so that the known keys are the interface's. Values whose resolver
 * already says what they take are `checkedLater`.
 */
const OPTION_SHAPES: ShapesOf<CalendarOptions> = {
  db: checkedLater,
  replicas: checkedLater,
  replication: anObject({ waitMs: checkedLater, skipMs: checkedLater } satisfies ShapesOf<CalendarOptions['replication']>, 'an object { waitMs, skipMs }'),
  tablePrefix: aText("a text such as 'tec_'"),
  namespace: aText("a path such as 'calendar/events/v1' or 'tribe/events/v1'"),
  perPage: checkedLater,
  maxPerPage: checkedLater,
  timezone: aText("a time zone name such as 'Europe/Paris' or 'UTC', or an offset such as 'UTC+2'"),
  baseUrl: aText("an absolute http(s) URL such as 'https://example.org'"),
  imageHosts: texts("a list of host names such as ['images.example.org', 'localhost:8080']"),
  trustProxy: aFlag,
  getUser: aFunction('a function (request) => user or null (or a promise of one)'),
  userExists: aFunction('a function (id) => true or false (or a promise of one)'),
  strictAuthor: checkedLater,
  routes: aList(checkedLater, 'a list of routes made with calendarRoute()'),
  fields: aRecord('an object of field declarations by collection, such as { events: { capacity: field({ type: z.number().int() }) } }'),
  kinds: aRecord("an object of kinds by collection, such as { sponsors: kind({ noun: 'sponsor' }) }"),
  hooks: aRecord('an object of hooks by collection, such as { events: { beforeChange, afterChange, afterRead } }'),
  roles: aRecord("an object of roles, such as { manager: { inherits: 'editor', add: ['manage_categories'] } }"),
  dictionaries: aRecord('an object of dictionaries by locale'),
  // The limits are the keys of their defaults.
  limits: ofKeys(DEFAULT_LIMITS, 'an object of limits such as { bodyBytes: 1048576 }'),
  onError: aFunction('a function (error) => void'),
  responseCache: anObject(
    { maxBytes: checkedLater } satisfies ShapesOf<Exclude<CalendarOptions['responseCache'], false>>,
    'false or an object { maxBytes }',
    true,
  ),
  httpCache: anObject({ maxAge: checkedLater } satisfies ShapesOf<CalendarOptions['httpCache']>, 'an object { maxAge }'),
  ical: anObject(
    { pastDays: checkedLater, maxEvents: checkedLater, refreshMinutes: checkedLater, name: checkedLater } satisfies ShapesOf<CalendarOptions['ical']>,
    'an object { pastDays, maxEvents, refreshMinutes, name }',
  ),
  recurrence: anObject(
    {
      idBase: checkedLater,
      horizonMonths: checkedLater,
      maxHorizonMonths: checkedLater,
      maxOccurrences: checkedLater,
      maxLines: checkedLater,
      maxDates: checkedLater,
      maxCandidates: checkedLater,
    } satisfies ShapesOf<RecurrenceOptions>,
    'an object of recurrence settings',
  ),
  changes: anObject(
    { retentionDays: checkedLater, pollMs: checkedLater } satisfies ShapesOf<CalendarOptions['changes']>,
    'an object { retentionDays, pollMs }',
  ),
  webhooks: anObject(
    {
      endpoints: aList(
        anObject(
          {
            url: checkedLater,
            secret: checkedLater,
            name: aText(),
            kinds: checkedLater,
            changes: checkedLater,
            user: checkedLater,
          } satisfies ShapesOf<WebhookEndpoint>,
          'an object { url, secret }',
        ),
        'a list of { url, secret } endpoints',
      ),
      allowHosts: texts('a list of host names'),
      root: aText("a REST root such as '/wp-json'"),
      pollMs: checkedLater,
      retryMs: checkedLater,
      timeoutMs: checkedLater,
      leaseMs: checkedLater,
    } satisfies ShapesOf<WebhookOptions>,
    'an object { endpoints, … }',
  ),
  cors: anObject(
    {
      origins: either("'*', a list of origins or a function (origin) => true or false", { takes: '', accepts: (v) => v === '*' }, texts(''), aFunction()),
      credentials: aFlag,
      allowHeaders: texts('a list of header names'),
      allowMethods: texts('a list of methods'),
      maxAge: checkedLater,
    } satisfies ShapesOf<CorsOptions>,
    'false or an object { origins, credentials, allowHeaders, allowMethods, maxAge }',
    true,
  ),
  csrf: anObject(
    {
      secret: aText(),
      lifetime: checkedLater,
      trustedOrigins: texts('a list of origins'),
      session: aFunction('a function (request) => session id'),
      cookieAuthenticated: aFunction('a function (request) => true or false'),
    } satisfies ShapesOf<CsrfOptions>,
    'false or an object { secret, lifetime, trustedOrigins, session, cookieAuthenticated }',
    true,
  ),
  permalinks: aRecord('an object of permalinks by kind'),
  autoMigrate: aFlag,
  rootIndex: aFlag,
  doc: checkedLater,
  subscriptions: anObject(
    {
      feeds: aList(
        anObject(
          {
            url: checkedLater,
            name: aText(),
            every: checkedLater,
            categories: checkedLater,
            status: checkedLater,
            overwrite: aFlag,
          } satisfies ShapesOf<SubscriptionFeed>,
          'an object { url, every, categories, status, overwrite }',
        ),
        'a list of { url, every } feeds',
      ),
      run: aFlag,
      pollMs: checkedLater,
      leaseMs: checkedLater,
      author: checkedLater,
      onRun: aFunction('a function (status) => void'),
      allowHosts: texts('a list of host names'),
      maxBytes: checkedLater,
      timeoutMs: checkedLater,
      runTimeoutMs: checkedLater,
      maxEvents: checkedLater,
    } satisfies ShapesOf<SubscriptionsOption>,
    'an object { feeds, … }',
  ),
  geo: anObject(
    {
      geocoder: aFunction('a function (address, signal) => { lat, lng } or null (or a promise of one)'),
      unit: checkedLater,
      radius: checkedLater,
      timeoutMs: checkedLater,
    } satisfies ShapesOf<CalendarOptions['geo']>,
    'an object { geocoder, unit, radius, timeoutMs }',
  ),
};

// A request sees the resolved options as `ctx.options` (the HTTP core declares only what it reads).
declare module './http/context.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the merge itself is the declaration
  interface ContextOptions extends ResolvedOptions {}
}

/** Options with every default applied. */
export interface ResolvedOptions {
  replicas: readonly (Kysely<unknown> | string)[];
  replication: ReplicationOptions;
  tablePrefix: string;
  namespace: string;
  perPage: number;
  maxPerPage: number;
  timezone: string;
  baseUrl?: string;
  imageHosts: readonly string[];
  trustProxy: boolean;
  getUser: (request: CoreRequest) => User | null | Promise<User | null>;
  userExists: (id: number) => boolean | Promise<boolean>;
  strictAuthor: boolean;
  /** The host's fields, resolved. */
  fields: FieldRegistry;
  /** The host's kinds, resolved. */
  kinds: KindRegistry;
  /** The host's routes (`routes`). */
  hostRoutes: readonly Route[];
  /** The host's hooks, checked. */
  hooks: CalendarHooks;
  /** The built-in roles and the host's, with their capabilities. */
  roles: RoleGrants;
  dictionaries: Record<string, Dictionary>;
  limits: Limits;
  onError: (error: unknown) => void;
  responseCache: false | { maxBytes: number };
  httpCache: { maxAge: number };
  changes: { retentionMs: number; pollMs: number };
  recurrence: RecurrenceOptions;
  ical: { pastDays: number; maxEvents: number; refreshMinutes: number; name?: string };
  webhooks: ResolvedWebhooks | undefined;
  cors: CorsPolicy;
  csrf: CsrfGuard;
  permalinks: Permalinks;
  autoMigrate: boolean;
  rootIndex: boolean;
  /** Reports, once per name, a user role that is not one of the five (it grants nothing). */
  unknownRole: (role: string, user: User) => void;
  doc: 'original' | 'complete';
  /** Coordinates and distances: the host's geocoder, the radius unit and default. */
  geo: ResolvedGeo;
  /** The feeds the calendar follows, checked; `undefined` without the option. */
  subscriptions: ResolvedSubscriptions | undefined;
}

/** A whole number of at least 1, or the error naming the option. */
function positiveWhole(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) throw invalidOption(name, value, 'a whole number of at least 1');
  return value;
}

function positiveNumber(name: string, value: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) throw invalidOption(name, value, 'a number above 0');
  return value;
}

function wholeOrZero(name: string, value: number, unit: 'seconds' | 'milliseconds' = 'seconds'): number {
  if (!Number.isSafeInteger(value) || value < 0) throw invalidOption(name, value, `a whole number of ${unit} (0 or more)`);
  return value;
}

/** `true` or `false`, or the error naming the option. */
function flag(name: string, value: boolean): boolean {
  if (typeof value !== 'boolean') throw invalidOption(name, value, 'true or false');
  return value;
}

/**
 * The options as the calendar uses them, checked once here: a wrong value fails
 * `createCalendar` with a message naming the option, instead of every request later.
 */
export function resolveOptions(o: CalendarOptions): ResolvedOptions {
  if (!isRecord(o)) throw invalidOption('options', o, "an object such as { db: 'data/calendar.sqlite' }", 'createCalendar');
  checkShapes(o, OPTION_SHAPES);
  const perPage = positiveWhole('perPage', o.perPage ?? 10);
  const namespace = (o.namespace ?? 'calendar/events/v1').replace(/^\/+|\/+$/g, '');
  if (!/^[\w.~-]+(?:\/[\w.~-]+)*$/.test(namespace)) throw invalidOption('namespace', o.namespace, "a path such as 'calendar/events/v1' or 'tribe/events/v1'");
  const timezone = o.timezone ?? 'UTC';
  if (resolveZone(timezone) === undefined)
    throw invalidOption('timezone', o.timezone, "a time zone name such as 'Europe/Paris' or 'UTC', or an offset such as 'UTC+2'");
  if (o.baseUrl !== undefined && !/^https?:\/\/[^/?#\s]+/i.test(o.baseUrl))
    throw invalidOption('baseUrl', o.baseUrl, "an absolute http(s) URL such as 'https://example.org'");
  if (typeof o.db === 'string') databaseTarget(o.db);
  else if (!isKysely(o.db)) throw invalidOption('db', o.db, "a Kysely instance or a connection string such as 'data/calendar.sqlite' or 'postgres://…'");
  const replicas = resolveReplicas(o);
  const doc = o.doc ?? 'original';
  if (doc !== 'original' && doc !== 'complete') throw invalidOption('doc', o.doc, "'original' or 'complete'");
  // Clients of other origins send back and read the log position of what they wrote.
  const cors = corsPolicy(o.cors, replicas.length ? [POSITION_HEADER] : []);
  const onError = o.onError ?? ((error) => console.error('[calendar] unexpected error:', error)); // eslint-disable-line no-console -- the documented default of onError is console.error
  const kinds = new KindRegistry(o.kinds);
  const fields = new FieldRegistry(
    o.fields,
    kinds.list.map((k) => k.collection),
  );
  // A declared field's capability is one a host role may grant.
  const roles = resolveRoles(
    o.roles,
    fieldCapabilities(o.fields),
    kinds.list.map((k) => k.collection),
  );
  return {
    replicas,
    replication: {
      waitMs: wholeOrZero('replication.waitMs', o.replication?.waitMs ?? 20, 'milliseconds'),
      skipMs: wholeOrZero('replication.skipMs', o.replication?.skipMs ?? 1000, 'milliseconds'),
    },
    tablePrefix: o.tablePrefix ?? 'tec_',
    namespace,
    perPage,
    maxPerPage: positiveWhole('maxPerPage', o.maxPerPage ?? 50),
    timezone,
    baseUrl: o.baseUrl,
    imageHosts: (o.imageHosts ?? []).map((h) => h.toLowerCase()),
    trustProxy: o.trustProxy ?? false,
    getUser: o.getUser ?? (() => null),
    userExists: o.userExists ?? ((id) => Number.isInteger(id) && id > 0),
    strictAuthor: flag('strictAuthor', o.strictAuthor ?? false),
    fields,
    kinds,
    hostRoutes: o.routes ?? [],
    hooks: new CalendarHooks(o.hooks, onError, kinds),
    roles,
    dictionaries: o.dictionaries ?? {},
    limits: resolveLimits(o.limits),
    onError,
    responseCache: o.responseCache === false ? false : { maxBytes: o.responseCache?.maxBytes ?? 16 * 1024 * 1024 },
    httpCache: { maxAge: wholeOrZero('httpCache.maxAge', o.httpCache?.maxAge ?? 0) },
    changes: {
      retentionMs: positiveNumber('changes.retentionDays', o.changes?.retentionDays ?? 30) * 86_400_000,
      pollMs: positiveWhole('changes.pollMs', o.changes?.pollMs ?? 1000),
    },
    ical: resolveIcal(o.ical),
    recurrence: resolveRecurrence(o.recurrence),
    webhooks: resolveWebhooks(
      o.webhooks,
      (o.imageHosts ?? []).map((h) => h.toLowerCase()),
      kinds.names,
    ),
    cors,
    csrf: csrfGuard(o.csrf, cors, onError),
    permalinks: resolvePermalinks(o.permalinks),
    autoMigrate: o.autoMigrate ?? false,
    rootIndex: o.rootIndex ?? true,
    doc,
    unknownRole: unknownRoleReporter(onError, roles),
    geo: resolveGeo(o.geo),
    subscriptions: resolveSubscriptions(o.subscriptions),
  };
}

/** The replicas, checked: PostgreSQL ones, of a PostgreSQL primary (a Kysely instance's database is checked when it opens). */
function resolveReplicas(o: CalendarOptions): ResolvedOptions['replicas'] {
  const replicas = o.replicas ?? [];
  if (!Array.isArray(replicas)) throw invalidOption('replicas', replicas, "a list of Kysely instances or 'postgres://…' URLs");
  replicas.forEach((replica: unknown, i) => {
    const name = `replicas[${i}]`;
    if (typeof replica === 'string') {
      if (databaseTarget(replica, name).kind !== 'postgres') throw invalidOption(name, replica, "a 'postgres://…' URL: read replicas need PostgreSQL");
    } else if (!isKysely(replica)) throw invalidOption(name, replica, "a Kysely instance or a 'postgres://…' URL");
  });
  if (replicas.length && typeof o.db === 'string' && databaseTarget(o.db).kind !== 'postgres') {
    throw invalidOption('db', o.db, "a 'postgres://…' URL or a PostgreSQL Kysely instance: read replicas need a PostgreSQL primary");
  }
  return replicas as ResolvedOptions['replicas'];
}

/** A century: a feed's window starts no further back (dates before year 1 are no dates). */
const MAX_PAST_DAYS = 36_500;

/** The iCalendar feed options, checked. */
function resolveIcal(o: CalendarOptions['ical']): ResolvedOptions['ical'] {
  const pastDays = o?.pastDays ?? 30;
  if (!Number.isSafeInteger(pastDays) || pastDays < 0 || pastDays > MAX_PAST_DAYS)
    throw invalidOption('ical.pastDays', pastDays, `a whole number of days from 0 to ${MAX_PAST_DAYS}`);
  if (o?.name !== undefined && (typeof o.name !== 'string' || o.name.trim() === '')) throw invalidOption('ical.name', o.name, 'a non-empty text');
  return {
    pastDays,
    maxEvents: positiveWhole('ical.maxEvents', o?.maxEvents ?? 1000),
    refreshMinutes: positiveWhole('ical.refreshMinutes', o?.refreshMinutes ?? 60),
    ...(o?.name !== undefined ? { name: o.name.trim() } : {}),
  };
}

/**
 * Units of work one walk of a rule may spend (days looked at, instants built, eight a period):
 * a daily rule walked fifty years spends about 200,000, while the costliest rule shapes spend
 * 500,000 in under 20 ms on a busy 2-core machine (README Limits).
 */
const DEFAULT_MAX_CANDIDATES = 500_000;

/** Occurrence ids fit a 32-bit integer column with room for a billion of them. */
const MAX_ID_BASE = 1_000_000_000;

/** The recurrence options, checked. */
function resolveRecurrence(o: CalendarOptions['recurrence']): RecurrenceOptions {
  const idBase = o?.idBase ?? 10_000_000;
  if (!Number.isSafeInteger(idBase) || idBase < 1 || idBase > MAX_ID_BASE)
    throw invalidOption('recurrence.idBase', idBase, `a whole number from 1 to ${MAX_ID_BASE}`);
  const horizonMonths = positiveWhole('recurrence.horizonMonths', o?.horizonMonths ?? 24);
  const maxHorizonMonths = positiveWhole('recurrence.maxHorizonMonths', o?.maxHorizonMonths ?? Math.max(120, horizonMonths));
  if (maxHorizonMonths < horizonMonths)
    throw invalidOption('recurrence.maxHorizonMonths', maxHorizonMonths, `a number of months of at least recurrence.horizonMonths (${horizonMonths})`);
  return {
    idBase,
    horizonMonths,
    maxHorizonMonths,
    maxOccurrences: positiveWhole('recurrence.maxOccurrences', o?.maxOccurrences ?? 1000),
    maxLines: positiveWhole('recurrence.maxLines', o?.maxLines ?? 50),
    maxDates: positiveWhole('recurrence.maxDates', o?.maxDates ?? 500),
    maxCandidates: positiveWhole('recurrence.maxCandidates', o?.maxCandidates ?? DEFAULT_MAX_CANDIDATES),
  };
}

/** Whether a value is a Kysely instance (by its query-building and executor methods, as Kysely may be loaded twice). */
function isKysely(db: unknown): boolean {
  return (
    typeof db === 'object' &&
    db !== null &&
    ['selectFrom', 'transaction', 'withPlugin', 'destroy'].every((m) => typeof (db as Record<string, unknown>)[m] === 'function')
  );
}

/** Most distinct unknown role names reported, so a host's user table cannot grow the record. */
const REPORTED_ROLES = 32;

/** The capabilities the host's field declarations name. */
function fieldCapabilities(fields: CalendarOptions['fields']): string[] {
  return Object.values(fields ?? {}).flatMap((declared) =>
    Object.values(declared ?? {}).flatMap((d) => (typeof d.capability === 'string' ? [d.capability] : [])),
  );
}

function unknownRoleReporter(onError: (error: unknown) => void, roles: RoleTable): (role: string, user: User) => void {
  const reported = new Set<string>();
  return (role, user) => {
    if (reported.has(role) || reported.size >= REPORTED_ROLES) return;
    reported.add(role);
    onError(
      new TypeError(
        `calendar-events-rest: user ${user.id} has the role ${JSON.stringify(role)}, which grants nothing: the roles are ${roles.names.join(', ')} (define the host's own in the \`roles\` option, or give a user's rights as \`capabilities\`).`,
      ),
    );
  };
}
