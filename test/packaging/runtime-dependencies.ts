/**
 * What a package needs at run time, as installed, and whether those packages accept every Node
 * version the package declares: the check behind package.json `engines` (test/packaging/engines
 * .test.ts) and behind the consumer test's look at EBADENGINE warnings.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import semver from 'semver';

/** A package as installed in a node_modules folder. */
export interface InstalledPackage {
  name: string;
  version: string;
  dir: string;
  /** Its `engines.node`, if it declares one. */
  engines?: string | undefined;
}

interface Manifest {
  name: string;
  version: string;
  engines?: { node?: string };
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

// Read from the file: some packages leave `./package.json` out of their `exports`.
const manifestOf = (dir: string) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;

/** The folder Node's resolution from `from` finds package `name` in, if it is installed. */
function resolvePackage(from: string, name: string): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}

/** The installed package in `dir`. */
export function installedPackage(dir: string): InstalledPackage {
  const manifest = manifestOf(dir);
  return { name: manifest.name, version: manifest.version, dir, engines: manifest.engines?.node };
}

/**
 * Every package the package in `root` loads at run time: its dependencies and optional
 * dependencies, and theirs, as Node resolves them from where each is installed. An optional
 * dependency that is not installed (another platform's) is left out; a missing required one
 * throws.
 */
export function runtimeDependencies(root: string): InstalledPackage[] {
  const found = new Map<string, InstalledPackage>();
  const visit = (dir: string) => {
    const manifest = manifestOf(dir);
    const optional = new Set(Object.keys(manifest.optionalDependencies ?? {}));
    for (const name of new Set([...Object.keys(manifest.dependencies ?? {}), ...optional])) {
      const at = resolvePackage(dir, name);
      if (!at) {
        if (optional.has(name)) continue;
        throw new Error(`${manifest.name} depends on ${name}, which is not installed (from ${dir})`);
      }
      if (found.has(at)) continue;
      found.set(at, installedPackage(at));
      visit(at);
    }
  };
  visit(root);
  return [...found.values()].sort((a, b) => a.name.localeCompare(b.name) || a.dir.localeCompare(b.dir));
}

/**
 * The versions `declared` (an `engines.node` range) holds, one range per major line up to Node
 * `untilMajor` (exclusive), such as `>=20.19.0 <21.0.0-0`: an open range (`>=24`) also holds
 * majors not released yet, which no dependency can vouch for, and a dependency may accept a
 * span of lines only as a list of them (`24.x || 25.x`), which semver compares line by line.
 */
export function declaredLines(declared: string, untilMajor: number): string[] {
  const sets = new semver.Range(declared).set.map((comparators) => comparators.map((c) => c.value).join(' '));
  const lines: string[] = [];
  for (let major = 0; major < untilMajor; major++) {
    const lowest = sets
      .map((set) => semver.minVersion(`${set} >=${major}.0.0 <${major + 1}.0.0-0`))
      .filter((v): v is semver.SemVer => v !== null)
      .sort(semver.compare)[0];
    if (lowest) lines.push(`>=${lowest.version} <${major + 1}.0.0-0`);
  }
  return lines;
}

/**
 * One line for each package whose `engines.node` leaves out some of `lines` (declaredLines),
 * naming those; empty when every package accepts all of them (a package without `engines.node`
 * accepts any version).
 */
export function enginesGaps(lines: readonly string[], packages: readonly InstalledPackage[]): string[] {
  const gaps: string[] = [];
  for (const { name, version, engines } of packages) {
    const left = engines ? lines.filter((line) => !semver.subset(line, engines)) : [];
    if (left.length) gaps.push(`${name}@${version} (engines.node "${engines}") leaves out ${left.join(' and ')}`);
  }
  return gaps;
}

/** The versions in `.ci/node-versions` (the ones .ci/run tests besides the machine's own). */
export function ciNodeVersions(repo: string): { version: string; suite: string }[] {
  return readFileSync(join(repo, '.ci/node-versions'), 'utf8')
    .split('\n')
    .map((line) => line.replace(/#.*/, '').trim())
    .filter(Boolean)
    .map((line) => {
      const [version = '', suite = ''] = line.split(/\s+/);
      return { version, suite };
    });
}
