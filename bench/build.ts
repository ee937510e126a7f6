/**
 * Compiles the servers under test to plain JavaScript (tsup, one ESM file each, packages
 * left external), so that they run on bare `node` as in production: the tsx loader alone
 * adds about 60 MB of RSS and start-up work that is no part of the library.
 */
import { join } from 'node:path';
import { build } from 'tsup';

/** Where the compiled servers go (ignored by git, with the seeded files). */
export const BUILD_DIR = 'bench/.data/build';

/** Compiles `entries` (name → source) into `outDir` and returns name → compiled file. */
export async function buildServers<K extends string>(entries: Record<K, string>, outDir = BUILD_DIR): Promise<Record<K, string>> {
  await build({
    entry: entries,
    outDir,
    format: ['esm'],
    platform: 'node',
    target: 'node20',
    bundle: true,
    // Every package stays external: node resolves them from node_modules as an app would.
    skipNodeModulesBundle: true,
    splitting: false,
    sourcemap: false,
    dts: false,
    clean: false,
    config: false,
    silent: true,
  });
  const out = {} as Record<K, string>;
  for (const name of Object.keys(entries) as K[]) out[name] = join(outDir, `${name}.js`);
  return out;
}
