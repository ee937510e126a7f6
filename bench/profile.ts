/**
 * Profiles one example server under load: starts it with `node --cpu-prof`, drives the
 * chosen cases with autocannon, stops it and prints where its CPU time went.
 *
 * `tsx bench/profile.ts [--size 100000] [--framework fastify] [--seconds 10] [--case "GET /events"]… [--fields]`
 * (cases by name substring; default: all; `--fields`: the calendar with the bench's host fields,
 * bench/fields.ts). Profiles land in bench/.profiles/<size>-<framework>[-fields]/.
 * Today's seeded file of that size is reused when present (seeded otherwise).
 */
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ADMIN_TOKEN, benchCases } from './cases.js';
import { sqliteDataset, workingCopy } from './dataset.js';
import { addFieldValues } from './fields.js';
import { drive } from './load.js';
import { busyMs, formatSummary } from './profile-summary.js';
import { startServer, stopServer } from './server.js';

const args = process.argv.slice(2);
const opt = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const size = Number(opt('size', '100000'));
const framework = opt('framework', 'fastify');
const seconds = Number(opt('seconds', '10'));
const top = Number(opt('top', '30'));
const wanted = args.flatMap((a, i) => (a === '--case' ? args.slice(i + 1, i + 2) : []));
const fields = args.includes('--fields');

const fixtures = await sqliteDataset(size, true);
// A case named exactly is taken alone; otherwise every case whose name contains the text.
const cases = benchCases(fixtures, { fields }).filter(
  (c) => !wanted.length || wanted.some((w) => c.name === w || (!benchCases(fixtures).some((x) => x.name === w) && c.name.includes(w))),
);
const dir = join('bench/.profiles', `${size}-${framework}${fields ? '-fields' : ''}`);
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
const copy = workingCopy(size, `profile-${framework}${fields ? '-fields' : ''}`);
if (fields) await addFieldValues(copy.file);
const server = await startServer({
  script: fields ? `bench/fields-${framework}.ts` : `examples/${framework}/server.ts`,
  port: Number(process.env.BENCH_PORT ?? 18_490),
  nodeFlags: ['--cpu-prof', `--cpu-prof-dir=${dir}`],
  env: { CALENDAR_DB: copy.file, CALENDAR_DB_URL: '', CALENDAR_TOKENS: `administrator:${ADMIN_TOKEN}` },
});
try {
  for (const c of cases) {
    const r = await drive({ url: `http://127.0.0.1:${server.port}`, connections: 8, seconds, request: c.request, expectStatus: c.status, pid: server.pid });
    console.log(
      `${c.name}: ${r.requestsPerSecond.toFixed(0)} req/s, p50 ${r.p50Ms.toFixed(1)} ms, p99 ${r.p99Ms.toFixed(1)} ms, bad ${r.wrongStatus + r.errors}, RSS ${r.rssPeakMb?.toFixed(0)} MB`,
    );
  }
} finally {
  await stopServer(server);
  copy.remove();
}
const profiles = readdirSync(dir)
  .filter((f) => f.endsWith('.cpuprofile'))
  .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as Parameters<typeof formatSummary>[0])
  .sort((a, b) => busyMs(b) - busyMs(a));
if (!profiles.length) throw new Error(`no profile written in ${dir}`);
console.log(`\n${formatSummary(profiles[0]!, top)}`);
