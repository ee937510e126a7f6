import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'tsup';

/** The repository root. */
export const REPO = resolve(import.meta.dirname, '../..');

/** What one run of the CLI printed, and its exit status. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Sees a run's output so far, and may kill the process. */
export type Watch = (stdout: string, kill: () => void) => void;

/** A build of the CLI, and how to run it. */
export interface BuiltCli {
  /**
   * Runs `calendar-events-rest <args>` in a child process, with the database variables of the
   * developer's shell cleared; `watch` sees its output as it comes and may kill it (SIGKILL).
   */
  run(args: string[], env?: Record<string, string>, watch?: Watch): Promise<CliRun>;
  remove(): void;
}

/**
 * Builds the CLI as `npm run build` does (tsup, ESM, dependencies left as imports) into a
 * directory of its own under the repository's .tmp/ (the package.json and node_modules it
 * reads are found upwards from there). The tests run the build rather than the sources under
 * tsx: tsx's loader makes every start about a second slower, and the build is what ships.
 */
export async function buildCli(): Promise<BuiltCli> {
  const dir = join(REPO, '.tmp', `cli-test-${randomBytes(4).toString('hex')}`);
  await build({ entry: { cli: join(REPO, 'src/cli/index.ts') }, outDir: dir, format: 'esm', target: 'node20', config: false, silent: true });
  const bin = join(dir, 'cli.js');
  return {
    run: (args, env = {}, watch) => runNode([bin, ...args], env, watch),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Runs the CLI from its sources under tsx (slow to start: for what depends on running from src/). */
export function runFromSources(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  return runNode(['--import', 'tsx', join(REPO, 'src/cli/index.ts'), ...args], env);
}

function runNode(args: string[], env: Record<string, string>, watch?: Watch): Promise<CliRun> {
  const child = spawn(process.execPath, args, {
    cwd: REPO,
    env: { ...process.env, CALENDAR_DB_URL: '', CALENDAR_DB: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => {
    stdout += c.toString();
    watch?.(stdout, () => child.kill('SIGKILL'));
  });
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((done, fail) => {
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

/** The lines of an output, without the empty one after the last newline. */
export function lines(text: string): string[] {
  return text.split('\n').filter((line) => line !== '');
}
