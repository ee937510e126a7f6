/** CPU time of a PostgreSQL server on this machine: its postmaster and every process it started, read from /proc. */
import { readFileSync, readdirSync } from 'node:fs';
import pg from 'pg';

/** Linux reports CPU time in clock ticks of 1/100 s (USER_HZ) on every architecture Node runs on. */
const CLOCK_TICKS = 100;

/** The fields of /proc/<pid>/stat after the parenthesised command name, or `undefined` once the process is gone. */
function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** A process's command name (/proc/<pid>/comm), or '' once it is gone. */
function command(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '';
  }
}

/**
 * CPU seconds used so far by a postmaster and its processes: its own time, the time of the
 * backends and workers still running, and (cutime, cstime) that of those already gone, so that a
 * connection closed during a run still counts.
 */
export function postmasterCpuSeconds(postmaster: number): number {
  const own = statFields(postmaster);
  if (!own) return 0;
  // utime, stime, cutime, cstime: fields 14 to 17 of the stat line.
  let ticks = Number(own[11]) + Number(own[12]) + Number(own[13]) + Number(own[14]);
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === postmaster) continue;
    const fields = statFields(pid);
    if (fields && Number(fields[1]) === postmaster) ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks / CLOCK_TICKS;
}

/**
 * The postmaster behind a PostgreSQL URL, when that server runs on this machine and this user may
 * read its processes: the parent of the backend that serves one connection. `undefined` otherwise
 * (a remote or containerised server), and the bench then quotes no database CPU.
 */
export async function localPostmaster(url: string): Promise<number | undefined> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    const backend = rows[0]?.pid;
    if (backend === undefined) return undefined;
    const parent = Number(statFields(backend)?.[1]);
    // A server elsewhere has backend numbers that may be some other process's here.
    const isPostgres = (pid: number) => /^(postgres|postmaster)/.test(command(pid));
    return Number.isInteger(parent) && parent > 1 && isPostgres(backend) && isPostgres(parent) ? parent : undefined;
  } finally {
    await client.end();
  }
}
