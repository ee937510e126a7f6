import { AsyncLocalStorage } from 'node:async_hooks';
import { countRows } from '../../helpers/store.js';
import { expect } from 'vitest';
import {
  DefaultQueryExecutor,
  DeleteQueryNode,
  InsertQueryNode,
  SelectQueryNode,
  UpdateQueryNode,
  type CompiledQuery,
  type OperationNode,
  type Kysely,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from 'kysely';
import { createCalendar, type CalendarOptions } from '../../../src/index.js';
import { connectDatabase } from '../../../src/store/connect.js';
import { TABLES, type Database } from '../../../src/store/database.js';
import { TablePrefixPlugin } from '../../../src/store/table-prefix.js';
import { requester, testCalendar, type As, type TestCalendar, type TestResponse } from '../../helpers/harness.js';

/** Keys of an event, in upstream order (responses.md §2); single GETs add `json_ld` last. */
export const EVENT_KEYS = [
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
];

/** A `YYYY-MM-DD HH:MM:SS` wall clock. */
export const WALL_CLOCK = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/** The UTC wall clock of an instant. */
export function utcWallClock(d: Date): string {
  return d.toISOString().slice(0, 19).replace('T', ' ');
}

/** The UTC calendar date `days` away from `d`. */
export function utcDay(d: Date, days = 0): string {
  return new Date(d.getTime() + days * 86_400_000).toISOString().slice(0, 10);
}

/** A date's details object as the API shows it (responses.md §1.10). */
export function details(wallClock: string) {
  const [date = '', time = ''] = wallClock.split(' ');
  const [year, month, day] = date.split('-');
  const [hour, minutes, seconds] = time.split(':');
  return { year, month, day, hour, minutes, seconds };
}

/** The body of a plain `rest_invalid_param` for one parameter. */
export function invalidParamBody(name: string) {
  return { code: 'rest_invalid_param', message: `Invalid parameter(s): ${name}`, data: { status: 400, params: { [name]: 'Invalid parameter.' }, details: [] } };
}

/** The body of a `rest_invalid_param` type failure. */
export function typeErrorBody(name: string, type: string) {
  const message = `${name} is not of type ${type}.`;
  return {
    code: 'rest_invalid_param',
    message: `Invalid parameter(s): ${name}`,
    data: { status: 400, params: { [name]: message }, details: { [name]: { code: 'rest_invalid_type', message, data: { param: name } } } },
  };
}

/** Minimal valid event fields. */
export function eventFields(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { title: 'An event', start_date: '2027-03-01 10:00:00', end_date: '2027-03-01 11:00:00', ...overrides };
}

/** Creates an event through the API and returns its body (fails the test unless 201). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests walk the created item's arbitrary JSON
export async function createEvent(t: TestCalendar, overrides: Record<string, unknown> = {}, as: As = 'admin'): Promise<Record<string, any>> {
  const res = await t.request('POST', '/events', { json: eventFields(overrides), as });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${res.text}`);
  return res.body;
}

/** Creates a venue or organizer through the API. */
export async function createLinked(
  t: TestCalendar,
  kind: 'venues' | 'organizers',
  json: Record<string, unknown>,
  as: As = 'admin',
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests walk the created item's arbitrary JSON
): Promise<Record<string, any>> {
  const res = await t.request('POST', `/${kind}`, { json, as });
  if (res.status !== 201) throw new Error(`create ${kind} failed: ${res.status} ${res.text}`);
  return res.body;
}

/** Creates a term through the API. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests walk the created item's arbitrary JSON
export async function createTerm(t: TestCalendar, kind: 'categories' | 'tags', json: Record<string, unknown>): Promise<Record<string, any>> {
  const res = await t.request('POST', `/${kind}`, { json, as: 'admin' });
  if (res.status !== 201) throw new Error(`create ${kind} failed: ${res.status} ${res.text}`);
  return res.body;
}

/** Asserts an error response: status and `code` (and, when given, the message). */
export function expectError(res: TestResponse, status: number, code: string, message?: string): void {
  expect({ status: res.status, code: res.body?.code }).toEqual({ status, code });
  if (message !== undefined) expect(res.body.message).toBe(message);
}

/** A single-GET body as write responses show it: without any `json_ld`, at any depth. */
export function withoutJsonLd<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withoutJsonLd) as T;
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k]) => k !== 'json_ld')
      .map(([k, v]) => [k, withoutJsonLd(v)]),
  ) as T;
}

/** Ids of an archive response's events. */
export const idsOf = (res: TestResponse): number[] => (res.body.events as { id: number }[]).map((e) => e.id);

/**
 * Counts the queries a Kysely instance runs, by their results: queries run already compiled
 * (the store version, prepared queries) skip `transformQuery`. It can make inserts into a
 * chosen table fail as they are run, prepared or not (`failOnInsertInto`).
 */
export class QueryProbe implements KyselyPlugin {
  /** The counter of the {@link statementsOf} call a query runs for, if any. */
  readonly #counting = new AsyncLocalStorage<{ n: number }>();

  /** When set, an insert into this table (its logical name) throws before it reaches the database. */
  failOnInsertInto: string | undefined;

  /** The calendar's table prefix: run queries name their tables with it. */
  prefix = '';

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const counter = this.#counting.getStore();
    if (counter) counter.n++;
    return args.result;
  }

  /**
   * Runs `run` and counts the queries run on its behalf: the calendar's own timers (the series
   * horizon's slide, a background extension) may query at any moment, and are not counted.
   */
  async statementsOf<T>(run: () => Promise<T>): Promise<{ value: T; statements: number }> {
    const counter = { n: 0 };
    const value = await this.#counting.run(counter, run);
    return { value, statements: counter.n };
  }

  /** Whether a query about to run is one that must fail: an insert into the table, alone or in a `WITH` of the query. */
  fails(node: OperationNode): boolean {
    if (this.failOnInsertInto === undefined) return false;
    if (InsertQueryNode.is(node) && node.into?.table.identifier.name === this.prefix + this.failOnInsertInto) return true;
    const statement = SelectQueryNode.is(node) || InsertQueryNode.is(node) || UpdateQueryNode.is(node) || DeleteQueryNode.is(node) ? node : undefined;
    const ctes = statement?.with?.expressions ?? [];
    return ctes.some((cte) => this.fails(cte.expression));
  }
}

// Every executor (the probed instance's, and those of its transactions) runs its compiled
// queries here, built ones and prepared ones alike: an injected failure is thrown on the way.
const runQuery = DefaultQueryExecutor.prototype.executeQuery;
DefaultQueryExecutor.prototype.executeQuery = function (this: DefaultQueryExecutor, compiled: CompiledQuery) {
  const probe = this.plugins.find((p) => p instanceof QueryProbe);
  if (probe?.fails(compiled.query)) return Promise.reject(new Error('injected failure'));
  return runQuery.call(this, compiled);
} as typeof runQuery;

/** A test calendar over a Kysely instance the test can probe and read directly. */
export interface ProbedCalendar extends TestCalendar {
  probe: QueryProbe;
  /** The calendar's tables (prefixed), read without the probe. */
  db: Kysely<Database>;
  rows(table: keyof Database): Promise<number>;
  /**
   * Another mount over the same tables with other options (a site time zone, image hosts).
   * Cheap: no new connection, no new tables (a MariaDB migration takes long on a busy host).
   */
  variant(options: Partial<CalendarOptions>): Promise<TestCalendar>;
}

/** Opens a calendar whose queries go through a {@link QueryProbe}. */
export async function probedCalendar(url: string, options: Partial<CalendarOptions> = {}): Promise<ProbedCalendar> {
  const raw = await connectDatabase(url);
  const probe = new QueryProbe();
  // The injected failures are expected; anything else is reported.
  const onError = (e: unknown) => {
    // eslint-disable-next-line no-console -- unexpected errors belong in the test output
    if (!(e instanceof Error && e.message === 'injected failure')) console.error(e);
  };
  const probed = raw.withPlugin(probe);
  const t = await testCalendar(url, { onError, ...options, db: probed });
  const prefix = t.calendar.options.tablePrefix;
  probe.prefix = prefix;
  const db = raw.withPlugin(new TablePrefixPlugin(prefix, TABLES)) as unknown as Kysely<Database>;
  const variants: TestCalendar[] = [];
  return {
    ...t,
    probe,
    db,
    rows: (table) => countRows(db, table),
    async variant(more) {
      // No migration: the tables exist (and DDL is what is slow on a busy MariaDB).
      const calendar = createCalendar({ baseUrl: 'http://example.org', onError, ...options, ...more, db: probed, tablePrefix: prefix });
      const v: TestCalendar = { ...t, calendar, request: requester(calendar), close: () => calendar.close() };
      variants.push(v);
      // A calendar checks once that its tables are set up: done here, so that query counts see requests only.
      await calendar.call('GET', '/');
      return v;
    },
    async close() {
      for (const v of variants) await v.close();
      // The harness drops the tables of server databases.
      await t.close();
      await raw.destroy();
    },
  };
}
