import { defineConfig, type Options } from 'tsup';

const shared: Options = {
  entry: {
    index: 'src/index.ts',
    'adapters/express': 'adapters/express.ts',
    'adapters/fastify': 'adapters/fastify.ts',
    'adapters/fetch': 'adapters/fetch.ts',
    'adapters/next': 'adapters/next.ts',
    trpc: 'src/trpc/index.ts',
  },
  dts: true,
  // One copy of the core shared by every entry, in CommonJS too (esbuild splits only ESM by
  // default): a second copy would make `instanceof ApiError` false across entries.
  splitting: true,
  target: 'node20',
  external: ['better-sqlite3', 'pg', 'mysql2', 'express', 'fastify', 'next'],
};

export default defineConfig([
  // ESM carries source maps; their sources ship with the package (`src/`, `adapters/`) and are
  // embedded in the maps as well.
  { ...shared, format: 'esm', sourcemap: true, clean: ['**/*.js', '**/*.js.map', '**/*.d.ts'] },
  // CommonJS carries none: tsup derives it from an intermediate ESM file, whose map would name
  // a path on the build machine.
  { ...shared, format: 'cjs', sourcemap: false, clean: ['**/*.cjs', '**/*.d.cts'] },
]);
