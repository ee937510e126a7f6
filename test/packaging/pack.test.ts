import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, normalize, resolve } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';

// What `npm publish` would ship (issue 31, trap 15): `dist` (the build, its ESM source maps with
// the TypeScript embedded), the README and the licence; not `src/` or `adapters/` (1.7 MB the
// trial found beside `dist`, into which stack traces then pointed). Read from `npm pack
// --dry-run --json`, without its `prepack` build: the list comes from `files` and the build
// already in `dist/` (made here first when there is none).

const run = promisify(execFile);
const REPO = resolve(import.meta.dirname, '../..');

interface Packed {
  files: { path: string; size: number }[];
  unpackedSize: number;
}

const manifest = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as {
  main: string;
  module: string;
  types: string;
  bin: Record<string, string>;
  exports: unknown;
};

/** Every file path the manifest points at (main, module, types, bin and each export condition). */
function pointedAt(): string[] {
  const paths = [manifest.main, manifest.module, manifest.types, ...Object.values(manifest.bin)];
  const walk = (value: unknown) => {
    if (typeof value === 'string') paths.push(value);
    else if (value && typeof value === 'object') Object.values(value).forEach(walk);
  };
  walk(manifest.exports);
  return [...new Set(paths.map((p) => normalize(p)))].filter((p) => p !== 'package.json');
}

describe('the published package', () => {
  let files: string[] = [];

  beforeAll(async () => {
    if (!existsSync(join(REPO, 'dist/index.js'))) await run('npm', ['run', 'build'], { cwd: REPO, maxBuffer: 64 << 20 });
    const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: REPO, maxBuffer: 64 << 20 });
    const [packed] = JSON.parse(stdout) as Packed[];
    files = (packed?.files ?? []).map((f) => f.path);
  }, 600_000);

  it('holds dist, the README, the licence and package.json, nothing else', () => {
    expect(files).toEqual(expect.arrayContaining(['package.json', 'README.md', 'LICENSE', 'dist/index.js', 'dist/index.cjs']));
    expect(files.filter((f) => !['package.json', 'README.md', 'LICENSE'].includes(f) && !f.startsWith('dist/'))).toEqual([]);
  });

  it('holds every file package.json points at', () => {
    expect(pointedAt().filter((p) => !files.includes(p))).toEqual([]);
  });

  it('maps its ESM files to the TypeScript, carried inside the maps', () => {
    const scripts = files.filter((f) => f.endsWith('.js'));
    expect(scripts.length).toBeGreaterThan(5);
    for (const script of scripts) {
      expect(files, `${script} has no map`).toContain(`${script}.map`);
      expect(readFileSync(join(REPO, script), 'utf8')).toContain(`//# sourceMappingURL=${script.split('/').pop()}.map`);
      const map = JSON.parse(readFileSync(join(REPO, `${script}.map`), 'utf8')) as { sources: string[]; sourcesContent?: (string | null)[] };
      expect(map.sourcesContent?.length, `${script}.map: sourcesContent`).toBe(map.sources.length);
      map.sources.forEach((source, i) => {
        // Relative to the map, inside the repository's own sources: no path of the build machine.
        expect(isAbsolute(source), `${script}.map: ${source}`).toBe(false);
        const file = resolve(REPO, dirname(script), source);
        expect(file.startsWith(join(REPO, 'src')) || file.startsWith(join(REPO, 'adapters')), `${script}.map: ${source}`).toBe(true);
        expect(map.sourcesContent?.[i], `${script}.map: the text of ${source}`).toEqual(expect.stringMatching(/\S/));
      });
    }
  });
});
