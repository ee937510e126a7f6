/**
 * Summarises a V8 `.cpuprofile` (from `node --cpu-prof`): self time per function and per
 * file, and inclusive time of the project's own functions.
 *
 * `tsx bench/profile-summary.ts <file.cpuprofile>… [--top N]` (the largest profile of those given)
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
export interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

/** Shortens a script URL to a path relative to the working directory (or the package in node_modules). */
function shortFile(url: string): string {
  if (!url) return '(native)';
  const path = url.replace(/^file:\/\//, '');
  const nm = path.lastIndexOf('node_modules/');
  if (nm >= 0) return path.slice(nm + 'node_modules/'.length);
  const root = `${process.cwd()}/`;
  return path.startsWith(root) ? path.slice(root.length) : path;
}

/** Self and inclusive milliseconds by function and by file. */
export function summarise(profile: Profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));

  const fnKey = (n: ProfileNode) => `${n.callFrame.functionName || '(anonymous)'} ${shortFile(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;
  const selfByFn = new Map<string, number>();
  const selfByFile = new Map<string, number>();
  const inclusiveByFn = new Map<string, number>();
  let total = 0;
  for (const [id, us] of selfUs) {
    const node = byId.get(id)!;
    total += us;
    selfByFn.set(fnKey(node), (selfByFn.get(fnKey(node)) ?? 0) + us);
    const file = node.callFrame.url ? shortFile(node.callFrame.url) : `(${node.callFrame.functionName || 'native'})`;
    selfByFile.set(file, (selfByFile.get(file) ?? 0) + us);
    // Inclusive: every distinct function on the stack gets the sample once.
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const key = fnKey(byId.get(cur)!);
      if (seen.has(key)) continue;
      seen.add(key);
      inclusiveByFn.set(key, (inclusiveByFn.get(key) ?? 0) + us);
    }
  }
  const sorted = (m: Map<string, number>) => [...m.entries()].sort((a, b) => b[1] - a[1]);
  return { totalMs: total / 1000, selfByFn: sorted(selfByFn), selfByFile: sorted(selfByFile), inclusiveByFn: sorted(inclusiveByFn) };
}

/** Sampled milliseconds not spent idle. */
export function busyMs(profile: Profile): number {
  const s = summarise(profile);
  return s.totalMs - (s.selfByFile.find(([k]) => k === '((idle))')?.[1] ?? 0) / 1000;
}

/** The summary as text: top self-time functions and files, and top inclusive project functions. */
export function formatSummary(profile: Profile, top = 25): string {
  const s = summarise(profile);
  const pct = (us: number) => `${((100 * us) / 1000 / s.totalMs).toFixed(1).padStart(5)}%`;
  const ms = (us: number) => `${(us / 1000).toFixed(0).padStart(7)} ms`;
  const lines = [`sampled ${s.totalMs.toFixed(0)} ms (percentages of that)`, '', 'self time by function:'];
  for (const [k, us] of s.selfByFn.slice(0, top)) lines.push(`${pct(us)} ${ms(us)}  ${k}`);
  lines.push('', 'self time by file:');
  for (const [k, us] of s.selfByFile.slice(0, top)) lines.push(`${pct(us)} ${ms(us)}  ${k}`);
  lines.push('', 'inclusive time, project code (src/, adapters/):');
  for (const [k, us] of s.inclusiveByFn.filter(([k]) => / (src|adapters)\//.test(k)).slice(0, top)) lines.push(`${pct(us)} ${ms(us)}  ${k}`);
  return lines.join('\n');
}

if (process.argv[1]?.endsWith('profile-summary.ts')) {
  const args = process.argv.slice(2);
  const topAt = args.indexOf('--top');
  const top = topAt >= 0 ? Number(args.splice(topAt, 2)[1]) : 25;
  if (!args.length) throw new Error('usage: tsx bench/profile-summary.ts <file.cpuprofile>… [--top N]');
  // A tsx process writes one profile per thread (main and loader): the busiest is the program.
  const profiles = args.map((f) => JSON.parse(readFileSync(f, 'utf8')) as Profile).sort((a, b) => busyMs(b) - busyMs(a));
  console.log(formatSummary(profiles[0]!, top));
}
