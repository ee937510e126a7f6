import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    'adapters/express': 'adapters/express.ts',
    'adapters/fastify': 'adapters/fastify.ts',
    'adapters/fetch': 'adapters/fetch.ts',
    'adapters/next': 'adapters/next.ts',
    trpc: 'src/trpc/index.ts',
  },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  external: ['better-sqlite3', 'pg', 'mysql2', 'express', 'fastify', 'next'],
});
