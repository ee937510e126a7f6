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
  bytes: number;
  ceiling?: number;
  fraction?: number;
}

const HEAD = [
  'events',
  'server',
  'case',
  'req/s',
  'alone ms',
  'p50 ms',
  'p99 ms',
  'non-2xx/err',
  'RSS MB',
  'CPU ms/req',
  'body B',
  'ceiling req/s',
  '% of ceiling',
];
/** Columns aligned right. */
const NUMERIC = new Set([0, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);

function cells(r: Row): string[] {
  return [
    r.size.toLocaleString('en-US'),
    r.server,
    r.case,
    r.rps.toFixed(0),
    r.single === undefined ? '' : r.single.toFixed(1),
    Number.isFinite(r.p50) ? r.p50.toFixed(1) : '—',
    Number.isFinite(r.p99) ? r.p99.toFixed(1) : '—',
    String(r.bad),
    r.rss === undefined ? '' : r.rss.toFixed(0),
    r.cpu === undefined ? '' : r.cpu.toFixed(2),
    String(r.bytes),
    r.ceiling === undefined ? '' : r.ceiling.toFixed(0),
    r.fraction === undefined ? '' : `${(100 * r.fraction).toFixed(0)} %`,
  ];
}

/** An aligned plain-text table. */
export function formatTable(rows: readonly Row[]): string {
  const all = [HEAD, ...rows.map(cells)];
  const widths = HEAD.map((_, i) => Math.max(...all.map((r) => (r[i] ?? '').length)));
  return all.map((r) => r.map((c, i) => (NUMERIC.has(i) ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0))).join('  ')).join('\n');
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
  const lines = [
    `Measured ${meta.date.slice(0, 16).replace('T', ' ')} UTC on ${meta.cores} cores (${meta.cpu ?? 'unknown CPU'}), Node ${meta.node}; ` +
      `${meta.connections} connections, ${meta.seconds} s per case; load average at the start ${meta.loadAverageAtStart.map((l) => l.toFixed(2)).join(' / ')}, ` +
      `at the end ${meta.loadAverageAtEnd.map((l) => l.toFixed(1)).join(' / ')} (the run's own).`,
    '"alone": one request at a time on the idle server before the run; "0 req/s": no request of the run finished within its window.',
    '',
    `| ${HEAD.join(' | ')} |`,
    `|${HEAD.map((_, i) => (NUMERIC.has(i) ? '---:' : '---')).join('|')}|`,
    ...rows.map((r) => `| ${cells(r).join(' | ')} |`),
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
