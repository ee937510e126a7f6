import { defineConfig, type Options } from 'tsup';

const libraryEntries = {
  index: 'src/index.ts',
  'adapters/express': 'adapters/express.ts',
  'adapters/fastify': 'adapters/fastify.ts',
  'adapters/fetch': 'adapters/fetch.ts',
  'adapters/next': 'adapters/next.ts',
  'adapters/node': 'adapters/node.ts',
  trpc: 'src/trpc/index.ts',
};

const shared: Options = {
  entry: libraryEntries,
  dts: true,
  // `import.meta.url` in the CommonJS build (the SQLite side reader finds its driver from where
  // the library is installed, `src/store/side-reader.ts`).
  shims: true,
  // One copy of the core shared by every entry, in CommonJS too (esbuild splits only ESM by
  // default): a second copy would make `instanceof ApiError` false across entries.
  splitting: true,
  target: 'node20',
  external: ['better-sqlite3', 'pg', 'mysql2', 'express', 'fastify', 'next'],
};

// No `clean`: the two builds run at once, and tsup's declaration build of each, when cleaning,
// deletes every declaration file of the folder (the other's too), racing the other on the same
// files (ENOENT). `npm run build` empties `dist` first instead.
export default defineConfig([
  // ESM carries source maps with the sources embedded in them (esbuild's sourcesContent): the
  // package ships `dist` only (package.json `files`), not `src/` or `adapters/`, and a debugger
  // or `node --enable-source-maps` still shows the TypeScript (test/packaging/pack.test.ts). The
  // command line (package.json `bin`) is built here only: it is run, never imported, so it needs
  // neither CommonJS nor types; tsup keeps its shebang and makes the file executable.
  {
    ...shared,
    entry: { ...libraryEntries, cli: 'src/cli/index.ts' },
    dts: { entry: libraryEntries },
    format: 'esm',
    sourcemap: true,
  },
  // CommonJS carries none: tsup derives it from an intermediate ESM file, whose map would name
  // a path on the build machine (tried with tsup 8.5: `/…/dist/chunk-….cjs` among the sources).
  { ...shared, format: 'cjs', sourcemap: false },
]);
