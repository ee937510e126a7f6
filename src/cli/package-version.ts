import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_NAME = 'calendar-events-rest';

/**
 * The version in the package's own package.json. It is looked up from this file upwards: the
 * built CLI (dist/cli.js or a chunk beside it) is one level below it, the sources two.
 */
export function packageVersion(from: string = import.meta.url): string {
  let dir = dirname(fileURLToPath(from));
  for (;;) {
    try {
      const manifest: unknown = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      if (isOwnManifest(manifest)) return manifest.version;
    } catch {
      // No package.json here (or not JSON): keep looking above.
    }
    const parent = dirname(dir);
    if (parent === dir) return 'unknown';
    dir = parent;
  }
}

function isOwnManifest(value: unknown): value is { name: string; version: string } {
  if (typeof value !== 'object' || value === null) return false;
  const { name, version } = value as Record<string, unknown>;
  return name === PACKAGE_NAME && typeof version === 'string';
}
