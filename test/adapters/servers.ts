import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** The repository root (examples and binaries are found from it). */
export const REPO = resolve(import.meta.dirname, '../..');
const BIN = join(REPO, 'node_modules/.bin');

/** Tokens every example server is started with (user ids follow the list order). */
export const TOKENS = {
  admin: 'tok-admin',
  editor: 'tok-editor',
  author: 'tok-author',
  contributor: 'tok-contributor',
  subscriber: 'tok-subscriber',
};
const TOKEN_SPEC = `administrator:${TOKENS.admin},editor:${TOKENS.editor},author:${TOKENS.author},contributor:${TOKENS.contributor},subscriber:${TOKENS.subscriber}`;

/** A port nobody listens on right now. */
export async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => done(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** One raw HTTP exchange. */
export interface Exchange {
  status: number;
  headers: Record<string, string>;
  text: string;
}

/** Sends one request with exactly the given headers and body (no client defaults beyond Host). */
export function send(base: string, method: string, path: string, headers: Record<string, string> = {}, body?: Buffer | string): Promise<Exchange> {
  const url = new URL(path, base);
  return new Promise((done, fail) => {
    const sized = body !== undefined && headers['transfer-encoding'] === undefined;
    const all = sized ? { 'content-length': String(Buffer.byteLength(body)), ...headers } : headers;
    const req = httpRequest(url, { method, headers: all, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const h: Record<string, string> = {};
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          const name = res.rawHeaders[i]!.toLowerCase();
          h[name] = h[name] === undefined ? (res.rawHeaders[i + 1] ?? '') : `${h[name]}, ${res.rawHeaders[i + 1]}`;
        }
        done({ status: res.statusCode ?? 0, headers: h, text: Buffer.concat(chunks).toString('utf8') });
      });
      res.on('error', fail);
    });
    req.on('error', fail);
    req.end(body);
  });
}

/** A running example server. */
export interface RunningServer {
  name: string;
  base: string;
  port: number;
  /** What it printed so far (for failure messages). */
  output(): string;
  stop(): Promise<void>;
}

function run(command: string, args: string[], env: Record<string, string>): { child: ChildProcess; output: () => string } {
  const child = spawn(command, args, { cwd: REPO, env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
  return { child, output: () => output };
}

/** Runs a command to completion; rejects with its output when it fails. */
export function runToEnd(command: string, args: string[], env: Record<string, string> = {}): Promise<string> {
  const { child, output } = run(join(BIN, command), args, env);
  return new Promise((done, fail) => {
    child.on('exit', (code) => (code === 0 ? done(output()) : fail(new Error(`${command} ${args.join(' ')} exited with ${code}:\n${output()}`))));
    child.on('error', fail);
  });
}

/** A build of a copy of examples/next (test runs may overlap; `next build` rewrites files). */
export interface NextBuild {
  /** The built copy, relative to the repository. */
  dir: string;
  remove(): void;
}

/**
 * Copies examples/next beside it (so that its relative imports still resolve; TypeScript and
 * git skip the dot-directory) and runs `next build` there, with webpack (see next.config.ts).
 * While iterating on tests only, `CALENDAR_TEST_REUSE_NEXT_BUILD=1` reuses `examples/.next-test`.
 */
export async function buildNextExample(): Promise<NextBuild> {
  const reuse = Boolean(process.env.CALENDAR_TEST_REUSE_NEXT_BUILD);
  const dir = reuse ? 'examples/.next-test' : `examples/.next-test-${process.pid}-${Date.now()}`;
  const path = join(REPO, dir);
  const remove = () => (reuse ? undefined : rmSync(path, { recursive: true, force: true }));
  if (reuse && existsSync(join(path, '.next/BUILD_ID'))) return { dir, remove };
  rmSync(path, { recursive: true, force: true });
  cpSync(join(REPO, 'examples/next'), path, { recursive: true, filter: (src) => !/[\\/](\.next|next-env\.d\.ts)$/.test(src) });
  try {
    await runToEnd('next', ['build', '--webpack', dir]);
  } catch (error) {
    remove();
    throw error;
  }
  return { dir, remove };
}

/** How each example is started, given its port. */
const COMMANDS = {
  express: () => ['tsx', ['examples/express/server.ts']],
  fastify: () => ['tsx', ['examples/fastify/server.ts']],
  hono: () => ['tsx', ['examples/hono/server.ts']],
  node: () => ['tsx', ['examples/node/server.ts']],
  multilingual: () => ['tsx', ['examples/multilingual/server.ts']],
  extensions: () => ['tsx', ['examples/extensions/server.ts']],
  next: (port, { nextDir = 'examples/next' }) => ['next', ['start', nextDir, '-p', String(port), '-H', '127.0.0.1']],
} satisfies Record<string, (port: number, options: StartOptions) => [string, string[]]>;

/** Extra environment, and which build of examples/next `next start` serves. */
export interface StartOptions {
  env?: Record<string, string>;
  nextDir?: string;
}

/**
 * Starts an example as its README says, on a free port with a fresh SQLite file and the test
 * tokens, and waits until the namespace answers.
 */
export async function startExample(name: keyof typeof COMMANDS & string, options: StartOptions = {}): Promise<RunningServer> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), `calendar-${name}-`));
  const [command, args] = COMMANDS[name](port, options);
  const { child, output } = run(join(BIN, command), args, {
    PORT: String(port),
    CALENDAR_DB: join(dir, 'calendar.sqlite'),
    CALENDAR_TOKENS: TOKEN_SPEC,
    ...options.env,
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const base = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited early:\n${output()}`);
    try {
      const res = await send(base, 'GET', '/wp-json/calendar/events/v1');
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${name} did not answer on ${base}:\n${output()}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return { name, base, port, output, stop };
}
