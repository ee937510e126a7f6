import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { ciNodeVersions, declaredLines, enginesGaps, installedPackage, runtimeDependencies } from './runtime-dependencies.js';

// The Node versions the package declares (package.json `engines.node`) are the ones it is tested
// on, and every package it loads at run time accepts all of them: an install on any of them
// prints no EBADENGINE and `--engine-strict` does not refuse it (issue 31: ical-generator 11
// needed Node 22 while the package said >=20).

const REPO = resolve(import.meta.dirname, '../..');
const manifest = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as {
  engines: { node: string };
  peerDependencies: Record<string, string>;
};
const declared = manifest.engines.node;
const tested = ciNodeVersions(REPO);
/** The declared versions line by line, up to the newest line .ci/run tests (later ones are not out yet). */
const lines = declaredLines(declared, Math.max(...tested.map((t) => semver.major(t.version))) + 1);

describe('engines.node', () => {
  it('holds every version .ci/run tests, and the Node running this test', () => {
    expect(tested.length).toBeGreaterThan(0);
    for (const { version, suite } of tested) expect(['full', 'smoke'], `${version}: ${suite}`).toContain(suite);
    for (const { version } of tested) expect(semver.satisfies(version, declared), `${version} in "${declared}"`).toBe(true);
    expect(semver.satisfies(process.version, declared), `${process.version} in "${declared}"`).toBe(true);
  });

  it('is accepted by every runtime dependency, all the way down', () => {
    const packages = runtimeDependencies(REPO);
    expect(packages.map((p) => p.name)).toContain('ical-generator');
    expect(enginesGaps(lines, packages)).toEqual([]);
  });

  it('is matched by the drivers and frameworks installed beside it here (optional peers), on this Node', () => {
    // A host gets the version that fits its Node (npm skips the others: better-sqlite3 13 on Node
    // 22 and later, 12 on Node 20), so each tested Node checks the ones installed for it.
    const here = [process.version.slice(1)];
    const peers = Object.keys(manifest.peerDependencies).map((name) => installedPackage(join(REPO, 'node_modules', name)));
    expect(enginesGaps(here, peers)).toEqual([]);
  });

  it('is checked: a dependency that needs a newer Node is reported with what it leaves out', () => {
    const ours = declaredLines('^20.19.0 || ^22.12.0 || >=24', 27);
    expect(ours).toEqual(['>=20.19.0 <21.0.0-0', '>=22.12.0 <23.0.0-0', '>=24.0.0 <25.0.0-0', '>=25.0.0 <26.0.0-0', '>=26.0.0 <27.0.0-0']);
    const gaps = enginesGaps(ours, [
      { name: 'ical-generator', version: '11.1.2', dir: '', engines: '22 || >=24.0.0' },
      { name: 'ical-generator', version: '10.2.0', dir: '', engines: '20 || 22 || >=24' },
      { name: 'better-sqlite3', version: '12.11.1', dir: '', engines: '20.x || 22.x || 23.x || 24.x || 25.x || 26.x' },
      { name: 'html-to-text', version: '10.0.1', dir: '', engines: '>=20.19.0' },
      { name: 'lru-cache', version: '11.5.3', dir: '' },
    ]);
    expect(gaps).toEqual(['ical-generator@11.1.2 (engines.node "22 || >=24.0.0") leaves out >=20.19.0 <21.0.0-0']);
    // The package's first range, `>=20`, held Node 20.0–20.18, 21 and 23, which its dependencies leave out.
    expect(enginesGaps(declaredLines('>=20', 27), [{ name: 'html-to-text', version: '10.0.1', dir: '', engines: '>=20.19.0' }])).toEqual([
      'html-to-text@10.0.1 (engines.node ">=20.19.0") leaves out >=20.0.0 <21.0.0-0',
    ]);
  });
});
