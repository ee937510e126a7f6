/** CPU time of the whole machine and of the soak's own processes, read from /proc. */
import { readFileSync } from 'node:fs';
import { serverCpuSeconds } from './replicas.js';
import { cpuSeconds } from './server.js';

/** Clock ticks of the machine's CPUs (the `cpu` line of /proc/stat): idle (with I/O wait) and in all. */
export interface MachineTicks {
  idle: number;
  total: number;
}

/** The machine's ticks so far, or `undefined` where /proc/stat is not there. */
export function machineTicks(): MachineTicks | undefined {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0] ?? '';
    // user nice system idle iowait irq softirq steal (guest time is counted in user already).
    const fields = line.trim().split(/\s+/).slice(1, 9).map(Number);
    return { idle: (fields[3] ?? 0) + (fields[4] ?? 0), total: fields.reduce((a, b) => a + b, 0) };
  } catch {
    return undefined;
  }
}

/** The share of the machine's CPU time that stayed idle between two readings. */
export function idleShare(before: MachineTicks | undefined, after: MachineTicks | undefined): number | undefined {
  if (!before || !after || after.total <= before.total) return undefined;
  return (after.idle - before.idle) / (after.total - before.total);
}

/** CPU seconds so far of each process the soak runs: the servers, the database (when it started one), this driver. */
export interface SoakCpu {
  servers: (number | undefined)[];
  database?: number;
  driver: number;
}

/** Reads {@link SoakCpu}; `clusterDir` is the data directory of the cluster the soak started, if any. */
export function soakCpu(serverPids: readonly number[], clusterDir?: string): SoakCpu {
  const usage = process.cpuUsage();
  return {
    servers: serverPids.map((pid) => cpuSeconds(pid)),
    // The primary and the replicas the CI script starts with it (they replay every write).
    database: clusterDir ? serverCpuSeconds(clusterDir, 'primary') + serverCpuSeconds(clusterDir, 'r1') + serverCpuSeconds(clusterDir, 'r2') : undefined,
    driver: (usage.user + usage.system) / 1e6,
  };
}
