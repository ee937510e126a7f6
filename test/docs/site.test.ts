import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../cli/run-cli.js';
import { documentationPages } from './code-blocks.js';

// What the VitePress build does not check: that every page can be found from the sidebar, that
// the sidebar names no page that is missing, and that README.md (read on the repository's host,
// not built into the site) links to files that exist.

const config = readFileSync(join(REPO, 'docs/.vitepress/config.ts'), 'utf8');
const sidebarLinks = [...config.matchAll(/link: '([^']+)'/g)].map((m) => m[1] ?? '');
/** The page a site link names: `/hosts/` is docs/hosts/index.md, `/security` docs/security.md. */
const pageOf = (link: string) => join('docs', link.endsWith('/') ? `${link}index.md` : `${link}.md`);

describe('the docs site', () => {
  it('links every page from the sidebar', () => {
    const linked = new Set(sidebarLinks.map(pageOf));
    const pages = documentationPages().filter((page) => page.startsWith('docs/') && page !== 'docs/index.md');
    expect(
      pages.filter((page) => !linked.has(page)),
      'add these pages to the sidebar in docs/.vitepress/config.ts',
    ).toEqual([]);
  });

  it('names no page in the sidebar or the nav that does not exist', () => {
    expect(sidebarLinks.length).toBeGreaterThan(20);
    expect(sidebarLinks.filter((link) => !existsSync(join(REPO, pageOf(link))))).toEqual([]);
  });

  it('README.md links to files that exist', () => {
    const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
    const targets = [...readme.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)].map((m) => m[1] ?? '').filter((t) => !/^[a-z]+:/.test(t));
    expect(targets.length).toBeGreaterThan(20);
    expect(targets.filter((target) => !existsSync(join(REPO, target)))).toEqual([]);
  });
});
