// The distance filter reads the venues through their coordinates' index (migration 008) on
// every database: the queries the archives send with `geoloc` are captured as the calendar
// runs them and explained by the database, over enough venues and events that a planner
// weighs the index against a scan (ANALYZE'd).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CompiledQuery, Kysely, MysqlDialect, PostgresDialect, SqliteDialect, type LogEvent } from 'kysely';
import { TABLES, type Database } from '../../src/store/database.js';
import { TablePrefixPlugin } from '../../src/store/table-prefix.js';
import { loadDriver } from '../../src/store/drivers.js';
import { DIALECTS, testCalendar, type TestCalendar } from '../helpers/harness.js';
import { hardPoints, random, seedVenues } from './seed.js';

/** A Kysely instance on `url` that hands every query it runs to `log`. */
async function loggingDb(name: string, url: string, log: (event: LogEvent) => void): Promise<Kysely<unknown>> {
  if (name === 'sqlite') {
    const { default: Sqlite } = await loadDriver('better-sqlite3');
    return new Kysely({ dialect: new SqliteDialect({ database: new Sqlite(':memory:') }), log });
  }
  if (name === 'postgres') {
    const pg = await loadDriver('pg');
    return new Kysely({ dialect: new PostgresDialect({ pool: new pg.default.Pool({ connectionString: url, max: 4 }) }), log });
  }
  const mysql = await loadDriver('mysql2');
  return new Kysely({
    dialect: new MysqlDialect({ pool: mysql.default.createPool({ uri: url, connectionLimit: 4, timezone: 'Z', charset: 'utf8mb4' }) }),
    log,
  });
}

/** The plan of a query as text, one line per step, as each database explains it. */
async function planOf(db: Kysely<unknown>, name: string, query: CompiledQuery): Promise<string> {
  if (name === 'sqlite') {
    const { rows } = await db.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]));
    return rows.map((r) => r.detail).join('\n');
  }
  if (name === 'postgres') {
    const { rows } = await db.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`explain ${query.sql}`, [...query.parameters]));
    return rows.map((r) => r['QUERY PLAN']).join('\n');
  }
  const { rows } = await db.executeQuery<{ table: string; type: string; key: string | null; rows: number; Extra: string }>(
    CompiledQuery.raw(`explain ${query.sql}`, [...query.parameters]),
  );
  return rows.map((r) => `${r.table} ${r.type} key=${r.key ?? '-'} rows=${r.rows} ${r.Extra ?? ''}`).join('\n');
}

/** Centres and radii (km): an ordinary one, and one whose box crosses the antimeridian (two longitude ranges). */
const CENTRES = [
  { lat: 45, lng: 9, km: 50 },
  { lat: 0, lng: 179.9, km: 300 },
];

describe.each(DIALECTS)('geoloc query plans on $name', ({ name, url }) => {
  let t: TestCalendar;
  let db: Kysely<unknown>;
  let prefix: string;
  const captured: CompiledQuery[] = [];

  beforeAll(async () => {
    db = await loggingDb(name, url, (event) => {
      if (event.level === 'query' && /geo_lat|venue_id\W+ in \(/.test(event.query.sql) && !/^explain/i.test(event.query.sql)) captured.push(event.query);
    });
    t = await testCalendar(url, { db });
    prefix = t.calendar.options.tablePrefix;
    const tables = db.withPlugin(new TablePrefixPlugin(prefix, TABLES)) as unknown as Kysely<Database>;
    await seedVenues(tables, db, prefix, hardPoints(4000, random(8)), 1000);
    const analyze = { sqlite: 'analyze', postgres: `analyze ${prefix}venues; analyze ${prefix}events; analyze ${prefix}posts`, mysql: '' }[name] ?? '';
    if (name === 'mysql') for (const table of ['venues', 'events', 'posts']) await db.executeQuery(CompiledQuery.raw(`analyze table ${prefix}${table}`));
    else for (const statement of analyze.split(';')) await db.executeQuery(CompiledQuery.raw(statement));
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    await db?.destroy();
  });

  it.each(CENTRES)('reads the venues within $km km of $lat,$lng through their coordinates index', async (centre) => {
    captured.length = 0;
    const query = { geoloc: 1, geoloc_lat: centre.lat, geoloc_lng: centre.lng, geoloc_radius: centre.km, start_date: '2027-01-01', end_date: '2027-12-31' };
    expect((await t.request('GET', '/events', { query })).status).toBe(200);
    expect((await t.request('GET', '/venues', { query })).status).toBe(200);
    // The venues near (read once for the events), the events' total and page by those venues (no
    // page when the total is 0), the venues' total and page.
    const near = captured.filter((q) => /geo_lat/.test(q.sql));
    const events = captured.filter((q) => !/geo_lat/.test(q.sql));
    expect(near.length).toBe(3);
    expect(events.length).toBeGreaterThanOrEqual(1);
    for (const q of near) expect(await planOf(db, name, q), q.sql).toContain(`${prefix}venues_geo`);
    // By venue (`events_venue` or `events_venue_listing`), not by a walk of the window.
    for (const q of events) expect(await planOf(db, name, q), q.sql).toContain(`${prefix}events_venue`);
    for (const q of captured) console.log(`${name} ${JSON.stringify(centre)}\n${q.sql}\n${await planOf(db, name, q)}\n`); // eslint-disable-line no-console -- the plans are the test's record
  });
});
