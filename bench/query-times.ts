/**
 * Where a request's database time goes: runs each benchmark case in-process against a
 * seeded SQLite calendar (a private copy) through `calendar.handle`, with Kysely's query
 * log on, and prints every query with its duration (median of `--repeat` runs), plus
 * SQLite's query plan for the slow ones.
 *
 * `tsx bench/query-times.ts [--size 100000] [--repeat 3] [--slow 2] [--case "GET /events"]…`
 */
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect, type CompiledQuery } from 'kysely';
import { createCalendar } from '../src/index.js';
import { ADMIN_TOKEN, API, benchCases } from './cases.js';
import { sqliteDataset, workingCopy } from './dataset.js';

const args = process.argv.slice(2);
const opt = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const size = Number(opt('size', '100000'));
const repeat = Number(opt('repeat', '3'));
const slowMs = Number(opt('slow', '2'));
const wanted = args.flatMap((a, i) => (a === '--case' ? args.slice(i + 1, i + 2) : []));

const fixtures = await sqliteDataset(size, true);
const copy = workingCopy(size, 'query-times');
const sqlite = new Database(copy.file);
sqlite.pragma('journal_mode = WAL');
let log: { sql: string; parameters: readonly unknown[]; ms: number }[] = [];
const db = new Kysely<unknown>({
  dialect: new SqliteDialect({ database: sqlite }),
  log: (event) => {
    const q: CompiledQuery = event.query;
    log.push({ sql: q.sql, parameters: q.parameters, ms: event.queryDurationMillis });
  },
});
const calendar = createCalendar({ db, getUser: (req) => (req.headers.authorization === `Bearer ${ADMIN_TOKEN}` ? { id: 1, roles: ['administrator'] } : null) });
await calendar.migrate();

const short = (sql: string) => (sql.length > 220 && !process.env.FULL_SQL ? `${sql.slice(0, 220)}…` : sql);
try {
  const all = benchCases(fixtures);
  // A case named exactly is taken alone; otherwise every case whose name contains the text.
  for (const c of all.filter((x) => !wanted.length || wanted.some((w) => x.name === w || (!all.some((y) => y.name === w) && x.name.includes(w))))) {
    const runs: { total: number; wall: number; queries: typeof log }[] = [];
    for (let i = 0; i < repeat; i++) {
      const request = c.request(i);
      const q = request.path.indexOf('?');
      log = [];
      const t0 = performance.now();
      const response = await calendar.handle({
        method: request.method,
        path: (q >= 0 ? request.path.slice(0, q) : request.path).slice('/wp-json'.length),
        query: q >= 0 ? request.path.slice(q + 1) : '',
        headers: { host: '127.0.0.1', ...request.headers },
        body: request.body,
        root: '/wp-json',
      });
      const wall = performance.now() - t0;
      if (response?.status !== c.status)
        console.log(`! ${c.name}: status ${response?.status} ${response?.body ? Buffer.from(response.body).toString('utf8').slice(0, 200) : ''}`);
      runs.push({ total: log.reduce((s, x) => s + x.ms, 0), wall, queries: log });
    }
    const last = runs[runs.length - 1];
    if (!last) throw new Error('--repeat must be at least 1');
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
    console.log(
      `\n== ${c.name}: ${last.queries.length} queries, SQL ${median(runs.map((r) => r.total)).toFixed(1)} ms of ${median(runs.map((r) => r.wall)).toFixed(1)} ms (median of ${repeat})`,
    );
    last.queries.forEach((x, i) => {
      const ms = median(runs.map((r) => r.queries[i]?.ms ?? 0));
      console.log(`${ms.toFixed(2).padStart(9)} ms  ${short(x.sql)}`);
      if (ms >= slowMs && /^select/i.test(x.sql)) {
        const plan = sqlite.prepare(`explain query plan ${x.sql}`).all(...(x.parameters as unknown[])) as { detail: string }[];
        for (const p of plan) console.log(`               plan: ${p.detail}`);
      }
    });
  }
} finally {
  await db.destroy();
  copy.remove();
}
void API;
