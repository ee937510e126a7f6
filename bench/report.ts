/** The benchmark's tables: plain text for the terminal, Markdown for bench/results.md and the README. */
import type { TargetResult } from './targets.js';

/** One row of the table. */
export interface Row {
  size: number;
  server: string;
  case: string;
  rps: number;
  /** Latency of a request sent alone to the idle server, before the run (ms). */
  single?: number;
  p50: number;
  p99: number;
  bad: number;
  rss?: number;
  /** Server CPU ms per request. */
  cpu?: number;
  /** The database server's CPU ms per request (PostgreSQL on this machine). */
  databaseCpu?: number;
  bytes: number;
  ceiling?: number;
  fraction?: number;
}

/** The table's columns: heading, whether aligned right, the cell of a row; `optional` ones only shown when some row fills them. */
const COLUMNS: readonly { head: string; numeric?: boolean; optional?: boolean; cell: (r: Row) => string }[] = [
  { head: 'events', numeric: true, cell: (r) => r.size.toLocaleString('en-US') },
  { head: 'server', cell: (r) => r.server },
  { head: 'case', cell: (r) => r.case },
  { head: 'req/s', numeric: true, cell: (r) => r.rps.toFixed(0) },
  { head: 'alone ms', numeric: true, cell: (r) => (r.single === undefined ? '' : r.single.toFixed(1)) },
  { head: 'p50 ms', numeric: true, cell: (r) => (Number.isFinite(r.p50) ? r.p50.toFixed(1) : '—') },
  { head: 'p99 ms', numeric: true, cell: (r) => (Number.isFinite(r.p99) ? r.p99.toFixed(1) : '—') },
  { head: 'non-2xx/err', numeric: true, cell: (r) => String(r.bad) },
  { head: 'RSS MB', numeric: true, cell: (r) => (r.rss === undefined ? '' : r.rss.toFixed(0)) },
  { head: 'CPU ms/req', numeric: true, cell: (r) => (r.cpu === undefined ? '' : r.cpu.toFixed(2)) },
  { head: 'DB CPU ms/req', numeric: true, optional: true, cell: (r) => (r.databaseCpu === undefined ? '' : r.databaseCpu.toFixed(2)) },
  { head: 'body B', numeric: true, cell: (r) => String(r.bytes) },
  { head: 'ceiling req/s', numeric: true, cell: (r) => (r.ceiling === undefined ? '' : r.ceiling.toFixed(0)) },
  { head: '% of ceiling', numeric: true, cell: (r) => (r.fraction === undefined ? '' : `${(100 * r.fraction).toFixed(0)} %`) },
];

/** The columns shown for these rows. */
const columnsFor = (rows: readonly Row[]) => COLUMNS.filter((c) => !c.optional || rows.some((r) => c.cell(r) !== ''));

/** An aligned plain-text table. */
export function formatTable(rows: readonly Row[]): string {
  const columns = columnsFor(rows);
  const all = [columns.map((c) => c.head), ...rows.map((r) => columns.map((c) => c.cell(r)))];
  const widths = columns.map((_, i) => Math.max(...all.map((r) => (r[i] ?? '').length)));
  return all.map((r) => r.map((c, i) => (columns[i]?.numeric ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0))).join('  ')).join('\n');
}

/** The Markdown report: conditions, table, seeding times and target verdicts. */
export function markdownTable(
  rows: readonly Row[],
  seeding: readonly { size: number; db: string; seconds: number; cpuSeconds?: number; reused?: boolean }[],
  targets: readonly TargetResult[],
  meta: {
    date: string;
    cores: number;
    cpu?: string;
    node: string;
    loadAverageAtStart: number[];
    loadAverageAtEnd: number[];
    seconds: number;
    connections: number;
  },
): string {
  const columns = columnsFor(rows);
  const lines = [
    `Measured ${meta.date.slice(0, 16).replace('T', ' ')} UTC on ${meta.cores} cores (${meta.cpu ?? 'unknown CPU'}), Node ${meta.node}; ` +
      `${meta.connections} connections, ${meta.seconds} s per case; load average at the start ${meta.loadAverageAtStart.map((l) => l.toFixed(2)).join(' / ')}, ` +
      `at the end ${meta.loadAverageAtEnd.map((l) => l.toFixed(1)).join(' / ')} (the run's own).`,
    '"alone": one request at a time on the idle server before the run; "0 req/s": no request of the run finished within its window.',
    '',
    `| ${columns.map((c) => c.head).join(' | ')} |`,
    `|${columns.map((c) => (c.numeric ? '---:' : '---')).join('|')}|`,
    ...rows.map((r) => `| ${columns.map((c) => c.cell(r)).join(' | ')} |`),
    '',
    `Seeding: ${seeding
      .map(
        (s) =>
          `${s.size.toLocaleString('en-US')} events (${s.db}) ${s.seconds.toFixed(1)} s${s.cpuSeconds !== undefined ? ` (${s.cpuSeconds.toFixed(1)} s CPU)` : ''}${s.reused ? ' (reused)' : ''}`,
      )
      .join(' · ')}.`,
    '',
    ...targets.map((t) => `- ${t.ok ? '✅' : '❌'} ${t.name}: ${t.measured}`),
  ];
  return `${lines.join('\n')}\n`;
}
