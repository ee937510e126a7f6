import { WebhookDeliverer, type ItemReader } from './webhooks/deliverer.js';
import type { Kysely } from 'kysely';
import { answers, dispatch, failedStart, needsPrimary, type Core } from './http/pipeline.js';
import { ReplicaRouter } from './replication/router.js';
import { JoinedBodies } from './http/joined-bodies.js';
import { ResponseCache } from './http/response-cache.js';
import type { CoreRequest, CoreResponse, Headers as CoreHeaders } from './http/types.js';
import { resolveOptions, type CalendarOptions, type ResolvedOptions } from './options.js';
import type { User } from './auth/capabilities.js';
import { rootIndex } from './resources/index/root.js';
import { ROUTES, routesOf } from './resources/registry.js';
import { routesWithFields } from './resources/fields.js';
import { withHostRoutes } from './http/host-routes.js';
import { createServices, type Services } from './resources/services.js';
import { connectDatabase } from './store/connect.js';
import { Store } from './resources/store.js';
import { dropStore, migrateStore } from './store/index.js';
import { migrationStatus, type MigrationStatus } from './store/migrate.js';
import { isDatabaseUnavailable } from './store/unavailable.js';
import { ApiError } from './http/errors.js';
import type { FieldsOption, HostFieldsOf } from './fields/declare.js';
import type { KindsOption } from './host-kinds/declare.js';
import type { Route } from './http/context.js';
import type { CalendarEvent, Organizer, Term, Venue } from './schemas/types.js';
import { ChangeEvents, type ChangeListener, type Unsubscribe } from './hooks/change-events.js';
import type { HooksOption } from './hooks/types.js';
import { SubscriptionScheduler } from './subscriptions/scheduler.js';
import type { SubscriptionStatus } from './subscriptions/settings.js';

/** The routes of the API, in upstream registration order (`resources/registry.ts`). */
export { ROUTES };

/**
 * A calendar: one store, its services, and the request handler every adapter calls. `F` is the
 * type of its `fields` option, which {@link EventOf} and the tRPC router read.
 */
export interface Calendar<F extends FieldsOption = FieldsOption, K extends KindsOption = Record<never, never>> {
  /** Answers one request; `null` when its path is outside the calendar's namespace. */
  handle(request: CoreRequest): Promise<CoreResponse | null>;
  /**
   * Runs one operation without HTTP (for typed callers such as the tRPC router): the same
   * routes, validation, permissions and errors, with parameters given as JSON values.
   */
  call(method: string, path: string, options?: CallOptions): Promise<CallResult>;
  /**
   * A nonce for the pages of a signed-in user whose requests the host authenticates by a
   * cookie: sent back as `X-WP-Nonce` (or `_wpnonce`), it lets their writes through the CSRF
   * guard. Pass the session the `csrf.session` option reads, if nonces are bound to sessions.
   */
  createNonce(user: User | number, session?: string): string;
  /** Creates or upgrades the store's tables. Call once at start (it is idempotent). */
  migrate(): Promise<void>;
  /**
   * The store's migrations, applied and pending, changing nothing (one query): for a health
   * check or a deploy gate, `pending` is empty once `migrate()` ran. Rejects when the database
   * cannot be reached.
   */
  migrationStatus(): Promise<MigrationStatus>;
  /** The business rules, for typed callers (the tRPC router, scripts, seeding). */
  services(): Promise<Services>;
  /** Drops the store's tables and their data (an uninstall; also used by tests). */
  uninstall(): Promise<void>;
  /**
   * Indexes the occurrences of recurring events that never end up to `until` (at most
   * `recurrence.maxHorizonMonths` ahead; README "Recurring events"); the number added. The
   * index also slides `horizonMonths` ahead by itself, once a day.
   */
  extendOccurrences(until: Date): Promise<number>;
  /**
   * Listens to every committed change, whichever instance sharing the database made it, from
   * now on (README "Extending: hooks, change events, roles"); the function returned stops it.
   */
  on(event: 'change', listener: ChangeListener): Unsubscribe;
  /**
   * The iCalendar feeds it follows (the `subscriptions` option and `calendar-events-rest
   * subscribe`): `status()` tells what each one's runs did, `run(name?)` runs one or all now.
   */
  readonly subscriptions: CalendarSubscriptions;
  /** Closes the database connection if the calendar opened it, and stops change listeners and the subscriptions' timer. */
  close(): Promise<void>;
  readonly options: ResolvedOptions;
  /** Its routes: the API's, the host's (`routes`), with the arguments of the host's fields. */
  readonly routes: readonly Route[];
  /** Type only (never set): the fields declared, for {@link EventOf} and the tRPC router's types. */
  readonly '~fields'?: F;
  /** Type only (never set): the kinds declared, for the tRPC router's types. */
  readonly '~kinds'?: K;
}

/** A calendar's subscriptions (docs "Subscriptions and imports"). */
export interface CalendarSubscriptions {
  /** Every subscription and what its last run did. */
  status(): Promise<SubscriptionStatus[]>;
  /** Runs one subscription (by name) or all of them now, each unless another instance is running it; their status after. */
  run(name?: string): Promise<SubscriptionStatus[]>;
}

/** The `fields` option a calendar was created with, as a type. */
type FieldsOfCalendar<C> = C extends Calendar<infer F> ? F : never;

/** An event of calendar `C` as the API answers it, its host fields included: `EventOf<typeof calendar>`. */
export type EventOf<C> = CalendarEvent & HostFieldsOf<FieldsOfCalendar<C>, 'events'>;
/** A venue of calendar `C`, its host fields included. */
export type VenueOf<C> = Venue & HostFieldsOf<FieldsOfCalendar<C>, 'venues'>;
/** An organizer of calendar `C`, its host fields included. */
export type OrganizerOf<C> = Organizer & HostFieldsOf<FieldsOfCalendar<C>, 'organizers'>;
/** A category of calendar `C`, its host fields included. */
export type CategoryOf<C> = Term & HostFieldsOf<FieldsOfCalendar<C>, 'categories'>;
/** A tag of calendar `C`, its host fields included. */
export type TagOf<C> = Term & HostFieldsOf<FieldsOfCalendar<C>, 'tags'>;

/** Parameters and caller of a {@link Calendar.call}. */
export interface CallOptions {
  params?: Record<string, unknown>;
  user?: User | null;
  locale?: string;
  /** The REST root URLs in responses are built with (default `/wp-json`). */
  root?: string;
  /**
   * The headers of the request being answered, for the URLs in answers: `Host`, and
   * `X-Forwarded-Proto`/`-Host`/`-Prefix` with `trustProxy` (any other is ignored); with
   * `protocol`, the scheme it came in on. Without them (and `baseUrl`), URLs name `http://localhost`.
   */
  headers?: CoreHeaders;
  protocol?: 'http' | 'https';
}

/** The headers of a request that URLs in answers follow (`http/urls.ts`). */
const URL_HEADERS = ['host', 'x-forwarded-proto', 'x-forwarded-host', 'x-forwarded-prefix'];

/** The outcome of a {@link Calendar.call}: the status and JSON body an HTTP client would get. */
export interface CallResult {
  status: number;
  /** The JSON answered, as a value; the text of an answer in another format (a calendar file). */
  body: unknown;
  headers: Record<string, string>;
}

/** Verbs that read (answered by a replica for a logged-out caller). */
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** How long a replica's pool waits for a connection before the read goes elsewhere. */
const REPLICA_CONNECT_TIMEOUT_MS = 2000;

/** The answer while the store's tables are missing or behind the code. */
function notMigrated(pending: string[]): ApiError {
  return new ApiError(
    'rest_calendar_not_migrated',
    `The calendar's tables are not set up (migrations pending: ${pending.join(', ')}): the host must call calendar.migrate() at start, or create the calendar with autoMigrate: true.`,
    { status: 503 },
  );
}

/** Creates a calendar over a database (a Kysely instance, or a connection string). */
export function createCalendar<const F extends FieldsOption = Record<never, never>, const K extends KindsOption = Record<never, never>>(
  options: Omit<CalendarOptions, 'hooks' | 'kinds'> & { fields?: F; kinds?: K; hooks?: HooksOption<F, NoInfer<K>> },
): Calendar<F, K> {
  const resolved = resolveOptions(options);
  const routes = routesWithFields(withHostRoutes(resolved.kinds.list.length ? routesOf(resolved.kinds) : ROUTES, resolved.hostRoutes), resolved.fields);
  const ownsDb = typeof options.db === 'string';
  const raw: Promise<Kysely<unknown>> = typeof options.db === 'string' ? connectDatabase(options.db) : Promise.resolve(options.db as Kysely<unknown>);
  // A replica that does not answer is skipped sooner than the primary is given up on.
  const replicaDbs = resolved.replicas.map((r) =>
    typeof r === 'string' ? connectDatabase(r, { connectTimeoutMs: REPLICA_CONNECT_TIMEOUT_MS }) : Promise.resolve(r),
  );
  for (const db of replicaDbs) db.catch(() => undefined);
  let deliverer: WebhookDeliverer | undefined;
  let closed = false;
  /** Starts delivering webhooks over `store` (again after an uninstall and a migrate), unless closed. */
  const startWebhooks = (store: Store) => {
    if (!resolved.webhooks || closed || deliverer?.running) return;
    deliverer = new WebhookDeliverer(store, resolved.webhooks, ready, readItem, resolved.onError, resolved.recurrence.idBase, resolved.kinds);
    deliverer.start();
  };
  let opened: Store | undefined;
  /** Runs the subscriptions on a timer, with the calendar's own API (made once the calendar is). */
  let scheduler: Promise<SubscriptionScheduler> | undefined;
  const changeEvents = new ChangeEvents(async () => (await ready()).services.changes, resolved.changes.pollMs, resolved.onError);
  /** The pipeline over one node's store, with services and kept answers of its own (bound to that node's version). */
  const nodeCore = (store: Store, version: () => Promise<string | undefined>): Core => ({
    options: resolved,
    services: createServices(store, resolved),
    routes,
    root: (index, urls, now) => rootIndex(index, urls, resolved.timezone, now),
    version,
    responses: resolved.responseCache ? { cache: new ResponseCache(resolved.responseCache.maxBytes) } : undefined,
    joined: new JoinedBodies(),
  });
  // Built once, on first use: connecting may be asynchronous (driver import).
  const core: Promise<Core> = raw.then((db) => {
    // Once a write committed: the host's afterChange hooks, then this instance's listeners at once.
    const store = Store.open(db, resolved.tablePrefix, resolved.changes.retentionMs, async (changes) => {
      await resolved.hooks.committed(changes, readItem);
      changeEvents.kick();
    });
    opened = store;
    startWebhooks(store);
    const built = nodeCore(store, () => store.version());
    // The occurrence index slides ahead with time, on its own timer (on the primary: it writes).
    if (!closed) built.services.horizon.start();
    return built;
  });
  core.catch(() => undefined);
  // Logged-out reads on the replicas, when there are any (README "Read replicas").
  const router: Promise<ReplicaRouter | undefined> = core.then(async (primary) => {
    if (!replicaDbs.length) return undefined;
    const stores = (await Promise.all(replicaDbs)).map((db) => Store.open(db, resolved.tablePrefix, resolved.changes.retentionMs));
    const primaryStore = opened;
    if (!primaryStore?.dialect.replication || stores.some((store) => !store.dialect.replication)) {
      throw new Error('calendar-events-rest: read replicas need PostgreSQL, for the primary (db) and every replica');
    }
    const replicas = stores.map((store) => ({ core: nodeCore(store, async () => (await store.replicaState()).version), state: () => store.replicaState() }));
    return new ReplicaRouter(primary, () => primaryStore.writePosition(), replicas, resolved.replication, resolved.onError);
  });
  router.catch(() => undefined);

  // Until the tables are known to be up to date, each request asks the store (one query);
  // once they are, never again. A store nobody migrated answers 503 saying what to do.
  let migrated = false;
  let checking: Promise<void> | undefined;
  /** Migrations a replica has not applied (its schema is the primary's); `undefined` when none answers. */
  const pendingOnReplicas = async (): Promise<string[] | undefined> => {
    for (const db of replicaDbs) {
      try {
        return (await migrationStatus(await db, resolved.tablePrefix)).pending;
      } catch {
        // The next one.
      }
    }
    return undefined;
  };
  const ensureMigrated = async (db: Kysely<unknown>) => {
    checking ??= (async () => {
      let pending: string[];
      try {
        ({ pending } = await migrationStatus(db, resolved.tablePrefix));
      } catch (error) {
        // An instance starting while the primary is away: the replicas tell whether its
        // logged-out reads can be answered (writes wait for the primary anyway).
        const onReplicas = isDatabaseUnavailable(error) ? await pendingOnReplicas() : undefined;
        if (onReplicas === undefined || onReplicas.length) throw error;
        pending = onReplicas;
      }
      if (pending.length && !resolved.autoMigrate) throw notMigrated(pending);
      if (pending.length) await migrateStore(db, resolved.tablePrefix);
      migrated = true;
    })().finally(() => (checking = undefined));
    await checking;
  };
  const reported = new Set<string>();
  // A start failure is the same for every request: the host hears of it once.
  const startFailure = (error: unknown): unknown => {
    if (isDatabaseUnavailable(error)) return error;
    const message = error instanceof Error ? error.message : String(error);
    if (!reported.has(message) && reported.size < 8) {
      reported.add(message);
      resolved.onError(error instanceof ApiError ? new Error(`calendar-events-rest: ${message}`) : error);
    }
    return error instanceof ApiError ? error : new ApiError('rest_internal_error', 'The server could not complete the request.', { status: 500 });
  };

  const ready = async (): Promise<Core> => {
    const built = await core;
    if (!migrated) await ensureMigrated(await raw);
    return built;
  };

  /**
   * Sends a request to its node (`replication/router.ts`): a logged-out read to a replica, a
   * write, a signed-in read and a route that needs it (`Route.primaryOnly`) to the primary.
   */
  const routed = async (replicas: ReplicaRouter, primary: Core, request: CoreRequest): Promise<CoreResponse | null> => {
    let user: User | null;
    try {
      user = request.user !== undefined ? request.user : request.resolveUser ? await request.resolveUser() : await resolved.getUser(request);
    } catch (error) {
      // Answered by the pipeline, as any rejected credentials are.
      return replicas.onPrimary({ ...request, user: undefined, resolveUser: () => Promise.reject(error) }, false);
    }
    const pinned = { ...request, user };
    // Only a caller can write: a logged-out POST (`_method=GET` included) changes nothing, and
    // moves no position.
    if (!READS.has(request.method.toUpperCase())) return replicas.onPrimary(pinned, user !== null);
    return user || needsPrimary(primary, pinned) ? replicas.onPrimary(pinned, false) : replicas.read(pinned);
  };

  /** Answers a request; `primary`: on the primary whatever it is (the webhooks' reads of what changed). */
  const answer = async (request: CoreRequest, primary: boolean): Promise<CoreResponse | null> => {
    let built: Core;
    let replicas: ReplicaRouter | undefined;
    try {
      built = await ready();
      replicas = await router;
    } catch (error) {
      return failedStart(resolved, request, startFailure(error));
    }
    const response = replicas && !primary && answers(resolved, request) ? await routed(replicas, built, request) : await dispatch(built, request);
    // A write that succeeded may have logged changes: their webhooks go out now, after this answer.
    const wrote = response !== null && response.status < 300 && !['GET', 'HEAD', 'OPTIONS'].includes(request.method.toUpperCase());
    if (deliverer && wrote) setImmediate(() => deliverer?.kick());
    return response;
  };
  const handle = (request: CoreRequest) => answer(request, false);

  /** A webhook payload's item: a read of its route by the endpoint's viewer, on the webhooks' root. */
  // On the primary: a change another instance made may not have reached a replica yet, and an
  // item missing there would be reported deleted.
  const readItem: ItemReader = async (path, user) => {
    const response = await answer(
      { method: 'GET', path: `/${resolved.namespace}${path}`, headers: {}, root: resolved.webhooks?.root ?? '/wp-json', user },
      true,
    );
    const body = response?.body;
    return { status: response?.status ?? 404, body: body === undefined ? undefined : JSON.parse(Buffer.from(body).toString('utf8')) };
  };

  const calendar: Calendar<F, K> = {
    options: resolved,
    routes,
    handle,
    call: async (method, path, { params = {}, user = null, locale, root = '/wp-json', headers = {}, protocol } = {}) => {
      // Parameters travel as a pre-parsed JSON body, the highest-precedence source for every verb.
      const request = {
        method,
        path: `/${resolved.namespace}${path.startsWith('/') ? path : `/${path}`}`,
        // Only what URLs are built from: the caller is given, and the body is the parameters.
        headers: { ...Object.fromEntries(URL_HEADERS.filter((h) => headers[h] !== undefined).map((h) => [h, headers[h]])), 'content-type': 'application/json' },
        protocol,
        body: params,
        root,
        locale,
        user,
      };
      const response = await handle(request);
      if (!response) throw new Error(`No route for ${path}`);
      const text = response.body === undefined ? undefined : Buffer.from(response.body).toString('utf8');
      // JSON answers as values; a calendar file as its text.
      const json = response.headers['Content-Type']?.startsWith('application/json') ?? true;
      return { status: response.status, headers: response.headers, body: text === undefined || !json ? text : JSON.parse(text) };
    },
    createNonce: (user, session) => resolved.csrf.createNonce(user, session),
    migrate: async () => {
      await migrateStore(await raw, resolved.tablePrefix);
      // Replica reads start where the new tables are (`ReplicaRouter.schemaChanged`).
      (await router.catch(() => undefined))?.schemaChanged();
      migrated = true;
      if (opened) startWebhooks(opened);
      if (!closed) (await scheduler?.catch(() => undefined))?.restart();
      // After an uninstall, the occurrence index slides again.
      if (!closed) (await core.catch(() => undefined))?.services.horizon.restart();
    },
    migrationStatus: async () => migrationStatus(await raw, resolved.tablePrefix),
    uninstall: async () => {
      // Webhooks and the occurrence index need the tables they are about to lose.
      await deliverer?.stop();
      await (await scheduler?.catch(() => undefined))?.stop();
      const services = (await core.catch(() => undefined))?.services;
      await services?.horizon.stop();
      migrated = false;
      await dropStore(await raw, resolved.tablePrefix);
    },
    services: async () => (await core).services,
    extendOccurrences: async (until) => (await ready()).services.horizon.extend(until),
    subscriptions: {
      status: async () => (await subscriptions()).status(),
      run: async (name) => (await subscriptions()).run(name),
    },
    on: (event, listener) => {
      if (event !== 'change') throw new TypeError(`calendar-events-rest: calendar.on takes 'change', not ${JSON.stringify(event)}`);
      return changeEvents.on(listener);
    },
    close: async () => {
      closed = true;
      await changeEvents.stop();
      await deliverer?.stop();
      await (await scheduler?.catch(() => undefined))?.stop();
      await (await core.catch(() => undefined))?.services.horizon.stop();
      // A connection that never opened (a missing driver) has nothing to close.
      if (ownsDb) await (await raw.catch(() => undefined))?.destroy();
      // Only the connections it opened itself (a replica given as a string).
      await Promise.all(replicaDbs.map(async (db, i) => (typeof resolved.replicas[i] === 'string' ? (await db.catch(() => undefined))?.destroy() : undefined)));
    },
  };
  /** The subscriptions' scheduler, over the calendar's store and its own API. */
  const subscriptions = () =>
    (scheduler ??= core.then(() => {
      if (!opened) throw new Error('calendar-events-rest: the store is not open');
      return new SubscriptionScheduler(
        { store: opened, call: calendar.call, siteZone: resolved.timezone, ready, onError: resolved.onError },
        resolved.subscriptions,
      );
    }));
  // With the option, the timer runs once the store is open (it waits for the tables itself).
  if (resolved.subscriptions?.run)
    subscriptions().then(
      (s) => (closed ? undefined : s.start()),
      () => undefined,
    );
  return calendar;
}
