/** Starting, watching and stopping the servers under test, each in a process of its own. */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** A running server process. */
export interface ServerProcess {
  pid: number;
  port: number;
  child: ChildProcess;
  /** Everything it printed (for error reports). */
  output(): string;
}

/** Options of {@link startServer}. */
export interface StartOptions {
  /** The script, relative to the repository root: compiled JavaScript, or TypeScript (run with tsx). */
  script: string;
  port: number;
  env?: Record<string, string>;
  /** Extra node flags (e.g. `--cpu-prof`). */
  nodeFlags?: string[];
  /** Milliseconds to wait for the listening line. */
  timeoutMs?: number;
}

/**
 * Starts `node <script>` (`node --import tsx <script>` for TypeScript; node itself, not an
 * npx/tsx wrapper, so that the pid is the server's and its RSS is what is measured) and
 * waits until it prints that it listens.
 */
export function startServer(options: StartOptions): Promise<ServerProcess> {
  const loader = options.script.endsWith('.ts') ? ['--import', 'tsx'] : [];
  const child = spawn(process.execPath, [...(options.nodeFlags ?? []), ...loader, options.script], {
    env: { ...process.env, ...options.env, PORT: String(options.port), NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const server: ServerProcess = { pid: child.pid!, port: options.port, child, output: () => out };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${options.script} did not start within ${options.timeoutMs ?? 60_000} ms:\n${out}`));
    }, options.timeoutMs ?? 60_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      if (/listening/i.test(out)) {
        clearTimeout(timer);
        resolve(server);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${options.script} exited (${code}) before listening:\n${out}`));
    });
  });
}

/** Stops a server with SIGTERM (the examples close and exit), SIGKILL after `graceMs`. */
export function stopServer(server: ServerProcess, graceMs = 10_000): Promise<void> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => server.child.kill('SIGKILL'), graceMs);
    server.child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    server.child.kill('SIGTERM');
  });
}

/** Resident set size of a process in MB (`VmRSS` of /proc/<pid>/status), or `undefined`. */
export function rssMb(pid: number): number | undefined {
  try {
    const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** CPU seconds (user + system) a process has used so far, from /proc/<pid>/stat; `undefined` if gone. */
export function cpuSeconds(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesised command name; utime and stime are the 14th and 15th fields.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}

/** Linux reports CPU time in clock ticks of 1/100 s (USER_HZ) on every architecture Node runs on. */
const CLOCK_TICKS = 100;

/** Samples a process's RSS every `everyMs` until stopped; returns the peak and the last value. */
export function watchRss(pid: number, everyMs = 200): () => { peakMb: number; lastMb: number } {
  let peak = rssMb(pid) ?? 0;
  let last = peak;
  const timer = setInterval(() => {
    const v = rssMb(pid);
    if (v === undefined) return;
    last = v;
    if (v > peak) peak = v;
  }, everyMs);
  return () => {
    clearInterval(timer);
    const v = rssMb(pid);
    if (v !== undefined) {
      last = v;
      peak = Math.max(peak, v);
    }
    return { peakMb: peak, lastMb: last };
  };
}
