import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { REPO } from '../cli/run-cli.js';
import type { CodeBlock } from './code-blocks.js';

/** The languages compiled, and the file extension each is written with. */
export const EXTENSIONS: Record<string, string> = { ts: 'ts', typescript: 'ts', tsx: 'tsx', js: 'js', javascript: 'js' };

/** The package's entries, resolved to their sources: snippets import them as a host would. */
const ENTRIES: Record<string, string[]> = {
  'calendar-events-rest': ['src/index.ts'],
  'calendar-events-rest/trpc': ['src/trpc/index.ts'],
  ...Object.fromEntries(['express', 'fastify', 'fetch', 'next', 'node'].map((name) => [`calendar-events-rest/${name}`, [`adapters/${name}.ts`]])),
};

/** Type errors of the given blocks, each named by its page and line. */
export function compileBlocks(sources: readonly CodeBlock[]): string[] {
  const dir = join(REPO, '.tmp', `docs-snippets-${randomBytes(4).toString('hex')}`);
  mkdirSync(dir, { recursive: true });
  try {
    const files = new Map<string, CodeBlock>();
    for (const block of sources) {
      const file = join(dir, `${block.page.replace(/[^A-Za-z0-9]+/g, '_')}_${block.line}.${EXTENSIONS[block.lang] ?? 'ts'}`);
      // `export {}` makes each block a module: top-level await works and names do not clash across blocks.
      writeFileSync(file, `${block.code}\nexport {};\n`);
      files.set(file, block);
    }
    const program = ts.createProgram([...files.keys()], {
      strict: true,
      noUncheckedIndexedAccess: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ['lib.es2024.d.ts', 'lib.dom.d.ts'],
      types: ['node', 'react'],
      jsx: ts.JsxEmit.ReactJSX,
      allowJs: true,
      checkJs: true,
      esModuleInterop: true,
      resolveJsonModule: true,
      skipLibCheck: true,
      noEmit: true,
      baseUrl: REPO,
      paths: ENTRIES,
    });
    const errors: string[] = [];
    for (const [file, block] of files) {
      const source = program.getSourceFile(file);
      for (const d of ts.getPreEmitDiagnostics(program, source)) {
        const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line : 0;
        errors.push(`${block.page}:${block.line + line}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
      }
    }
    return errors;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
