import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { REPO } from '../cli/run-cli.js';

/** One fenced code block of a page. */
export interface CodeBlock {
  /** The page, relative to the repository (`docs/hosts/express.md`). */
  page: string;
  /** The line of the page the block's first line of code is on (1-based). */
  line: number;
  /** The fence's language (`ts`), and the words after it (`fragment`). */
  lang: string;
  attributes: string[];
  code: string;
}

/** README.md and every Markdown page under docs/ (not the site's build or cache). */
export function documentationPages(): string[] {
  const pages = ['README.md'];
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(REPO, dir), { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory() && !entry.name.startsWith('.') && entry.name !== 'public') walk(path);
      else if (entry.isFile() && entry.name.endsWith('.md')) pages.push(path);
    }
  };
  walk('docs');
  return pages.sort();
}

/** The fenced blocks of a page (``` or ~~~ fences; an indented fence inside a list counts too). */
export function codeBlocks(page: string): CodeBlock[] {
  const lines = readFileSync(join(REPO, page), 'utf8').split('\n');
  const blocks: CodeBlock[] = [];
  let open: { fence: string; indent: number; info: string; start: number; body: string[] } | undefined;
  lines.forEach((text, i) => {
    const fence = /^(\s*)(`{3,}|~{3,})(.*)$/.exec(text);
    if (open === undefined) {
      if (fence) open = { fence: fence[2] ?? '```', indent: fence[1]?.length ?? 0, info: (fence[3] ?? '').trim(), start: i + 2, body: [] };
      return;
    }
    if (fence && fence[2]?.startsWith(open.fence) && (fence[3] ?? '').trim() === '') {
      const [lang = '', ...attributes] = open.info.split(/\s+/).filter(Boolean);
      blocks.push({ page: relative(REPO, join(REPO, page)), line: open.start, lang, attributes, code: open.body.join('\n') });
      open = undefined;
      return;
    }
    open.body.push(text.slice(Math.min(open.indent, text.length - text.trimStart().length)));
  });
  return blocks;
}
