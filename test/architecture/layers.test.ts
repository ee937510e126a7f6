import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

// The layers of the code point down (issue 30), checked by dependency-cruiser with the rules of
// .dependency-cruiser.cjs, as `npm run lint` runs them: the repository passes, and a tree that
// breaks them (a value import, a type-only import and an `import()` type going up, a cycle made
// of types) fails with each violation named.

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../..');
const DEPCRUISE = join(ROOT, 'node_modules/.bin/depcruise');

/** Runs the check in `dir` on `paths`: its exit code and what it printed. */
async function depcruise(dir: string, paths: string[]): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run(DEPCRUISE, [...paths, '--config', '.dependency-cruiser.cjs', '--output-type', 'err'], { cwd: dir });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? 1, output: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

describe('layers', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('hold in src/, adapters/ and examples/', async () => {
    const { code, output } = await depcruise(ROOT, ['src', 'adapters', 'examples']);
    expect(output).toContain('no dependency violations found');
    expect(code).toBe(0);
  }, 120_000);

  it('are enforced: an upward import of any kind, and a cycle of types, fail the check', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'calendar-layers-'));
    dirs.push(dir);
    const file = (path: string, text: string) => {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    };
    copyFileSync(join(ROOT, '.dependency-cruiser.cjs'), join(dir, '.dependency-cruiser.cjs'));
    file('tsconfig.json', JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, verbatimModuleSyntax: true } }));
    file('src/resources/store.ts', 'export interface Store { a: number }\nexport const made = 1;\n');
    file('src/http/pipeline.ts', "import { made } from '../resources/store.js';\nexport const used = made;\n");
    file('src/php/typed.ts', "import type { Store } from '../resources/store.js';\nexport const read = (s: Store) => s.a;\n");
    file('src/dates/named.ts', "export type Named = import('../resources/store.js').Store;\n");
    file('src/text/a.ts', "export const a = 1;\nexport type FromB = import('./b.js').B;\n");
    file('src/text/b.ts', "import type { a } from './a.js';\nexport type B = typeof a;\n");
    const { code, output } = await depcruise(dir, ['src']);
    expect(code).not.toBe(0);
    expect(output).toContain('layer-2-imports-above: src/http/pipeline.ts → src/resources/store.ts');
    expect(output).toContain('layer-0-imports-above: src/php/typed.ts → src/resources/store.ts');
    expect(output).toContain('layer-0-imports-above: src/dates/named.ts → src/resources/store.ts');
    expect(output).toMatch(/no-cycles: src\/text\/a\.ts →\s+src\/text\/b\.ts →\s+src\/text\/a\.ts/);
  }, 120_000);
});
