import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The Express example (`npm start`) running in a child process. */
export interface ExampleServer {
  origin: string;
  /** What the server printed, for a failure's message. */
  output(): string;
  stop(): Promise<void>;
}

/** A port free right now on 127.0.0.1 (the example prints the port it was given, not the one it got). */
async function freePort(): Promise<number> {
  const probe = createServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const address = probe.address();
  probe.close();
  await once(probe, 'close');
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/**
 * Starts `examples/express/server.ts` as `npm start` does (tsx), with `env` added; resolves once
 * it printed its "listening" line (after the page's bundle is built), rejects if it exits first.
 */
export async function startExampleServer(env: Record<string, string>): Promise<ExampleServer> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'examples/express/server.ts'], {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stderr?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const lines = createInterface({ input: child.stdout ?? process.stdin });
  const ready = new Promise<void>((resolve, reject) => {
    lines.on('line', (line) => {
      text += `${line}\n`;
      if (line.startsWith('Calendar API listening')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the example server exited with ${code}:\n${text}`)));
  });
  await ready;
  return {
    origin: `http://127.0.0.1:${port}`,
    output: () => text,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}
