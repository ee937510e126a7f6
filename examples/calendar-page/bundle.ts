import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/** The calendar page's script and style sheet, bundled from `client/`. */
export interface PageBundle {
  js: string;
  css: string;
}

// Beside this module when run from the sources; from the repository root when the server was
// compiled to another folder (the bench compiles the examples into bench/.data/build).
const ENTRY = [fileURLToPath(new URL('./client/main.ts', import.meta.url)), resolve('examples/calendar-page/client/main.ts')].find((f) => existsSync(f));

/**
 * Bundles the page in memory with esbuild (tens of milliseconds of CPU in esbuild's own process,
 * not on this event loop): built at every server start, so what is served is always what the
 * sources say, on a fresh clone too, with no build step to forget and nothing committed.
 */
export async function bundlePage(): Promise<PageBundle> {
  if (ENTRY === undefined) throw new Error('calendar page: examples/calendar-page/client/main.ts not found (run the server from the repository root)');
  const result = await build({
    entryPoints: [ENTRY],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: ['es2022'],
    minify: true,
    // The page's own names are the bundle's file names: app.js and app.css beside index.html.
    outdir: '/calendar-page',
    entryNames: 'app',
    legalComments: 'none',
    logLevel: 'silent',
  });
  const text = (ext: string) => result.outputFiles.find((f) => f.path.endsWith(ext))?.text;
  const js = text('.js');
  if (js === undefined) throw new Error('calendar page: esbuild wrote no script');
  return { js, css: text('.css') ?? '' };
}
