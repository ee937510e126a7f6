import { beforeAll, describe, expect, it } from 'vitest';
import { readCommands, renderCli } from '../../scripts/docs/cli-reference.js';
import { readGeneratedBlock } from '../../scripts/docs/generated-block.js';
import { readOptions, renderOptions, type OptionDoc } from '../../scripts/docs/options-reference.js';
import { GENERATED } from '../../scripts/docs/pages.js';

// The reference pages are generated from the declarations (scripts/docs/): they must name exactly
// what the code declares, and be what the generator writes now (`npm run docs:options`, `docs:cli`).

/** The `### \`name\`` headings of a generated block, with the text under each. */
function sections(block: string): Map<string, string> {
  const parts = block.split(/^### `([^`]+)`$/m);
  const found = new Map<string, string>();
  for (let i = 1; i < parts.length; i += 2) found.set(parts[i] ?? '', parts[i + 1] ?? '');
  return found;
}

describe('docs/reference/options.md', () => {
  let options: OptionDoc[] = [];
  let block = '';
  beforeAll(() => {
    options = readOptions();
    block = readGeneratedBlock(GENERATED.options.file, 'options');
  });

  it('documents every option of CalendarOptions, and none that does not exist', () => {
    const declared = options.map((o) => o.name);
    const documented = [...sections(block).keys()];
    expect(
      declared.filter((name) => !documented.includes(name)),
      'options missing from the page: run npm run docs:options',
    ).toEqual([]);
    expect(
      documented.filter((name) => !declared.includes(name)),
      'options on the page that CalendarOptions does not declare: run npm run docs:options',
    ).toEqual([]);
    expect(declared.length).toBeGreaterThan(30);
  });

  it('documents the keys of each object option', () => {
    const missing = options.flatMap((o) => o.keys.filter((k) => !sections(block).get(o.name)?.includes(`| \`${k.name}\` |`)).map((k) => `${o.name}.${k.name}`));
    expect(missing, 'run npm run docs:options').toEqual([]);
  });

  it('is what npm run docs:options writes', () => {
    expect(block, 'the page is behind src/options.ts: run npm run docs:options').toBe(renderOptions(options).trim());
  });
});

describe('docs/reference/cli.md', () => {
  const block = readGeneratedBlock(GENERATED.cli.file, 'cli');

  it('documents every command and option flag of the command line, and none that does not exist', () => {
    const documented = [...sections(block)].map(([name, text]) => ({ name, flags: [...text.matchAll(/^ {2}(?:-\w, )?(--[\w-]+)/gm)].map((m) => m[1] ?? '') }));
    const declared = readCommands();
    expect(
      documented.map((c) => c.name),
      'run npm run docs:cli',
    ).toEqual(declared.map((c) => c.name));
    for (const command of declared) {
      const page = documented.find((c) => c.name === command.name)?.flags ?? [];
      expect(
        command.flags.filter((f) => !page.includes(f)),
        `flags of ${command.name} missing from the page: run npm run docs:cli`,
      ).toEqual([]);
      expect(
        page.filter((f) => !command.flags.includes(f) && f !== '--help'),
        `flags of ${command.name} on the page that it does not take`,
      ).toEqual([]);
    }
  });

  it('is what npm run docs:cli writes', () => {
    expect(block, 'the page is behind src/cli/program.ts: run npm run docs:cli').toBe(renderCli().trim());
  });
});
