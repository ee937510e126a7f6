import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCli, REPO, type BuiltCli } from '../cli/run-cli.js';
import { codeBlocks, documentationPages, type CodeBlock } from './code-blocks.js';
import { compileBlocks, EXTENSIONS } from './compile.js';

// The documentation's code must work: every ts/js/tsx block compiles under strict against the
// package's own name, and every sh line that calls npm or the command line is either run here
// or listed with a reason in docs/.snippets-skip.json (docs/internals/tests.md, "Documentation").

const blocks = documentationPages().flatMap(codeBlocks);
/** A block marked ```ts fragment is a piece of a larger program (kept rare: listed in the output). */
const isFragment = (block: CodeBlock) => block.attributes.includes('fragment');
describe('code blocks of README.md and docs/', () => {
  const compiled = blocks.filter((b) => b.lang in EXTENSIONS && !isFragment(b));
  // A block that must not compile, checked in the same program (one program is most of the cost):
  // it shows that an error is found and named by its page and line.
  const bad: CodeBlock = {
    page: 'docs/bad.md',
    line: 10,
    lang: 'ts',
    attributes: [],
    code: "import { createCalendar } from 'calendar-events-rest';\ncreateCalendar({ db: 1 });",
  };
  let errors: string[] = [];
  beforeAll(() => {
    errors = compileBlocks([...compiled, bad]);
  });

  it('finds the pages and their TypeScript, with few fragments', () => {
    expect(compiled.length).toBeGreaterThan(20);
    const fragments = blocks.filter((b) => b.lang in EXTENSIONS && isFragment(b)).map((b) => `${b.page}:${b.line}`);
    expect(fragments.length, `blocks marked fragment (not compiled) should stay rare: ${fragments.join(', ')}`).toBeLessThanOrEqual(5);
  });

  it('compiles every ts, js and tsx block under strict against the package name', () => {
    expect(errors.filter((e) => !e.startsWith('docs/bad.md:'))).toEqual([]);
  });

  it('reports a block that does not compile, with its page and line', () => {
    expect(errors.filter((e) => e.startsWith('docs/bad.md:'))).toEqual([expect.stringMatching(/^docs\/bad\.md:11: Type 'number' is not assignable/)]);
  });
});

/** A line of an sh block that runs npm or the package's command line (environment assignments first are allowed). */
const COMMAND = /^(?:[A-Z_][A-Z0-9_]*=\S*\s+)*(npm\s|npx calendar-events-rest(?:\s|$))/;
/** The command as the skip file names it: without its comment, spaces collapsed. */
const commandOf = (line: string) =>
  line
    .replace(/\s+#.*$/, '')
    .replace(/\s+/g, ' ')
    .trim();
/** The arguments of `npx calendar-events-rest …` lines the tests run (cheap, on a temporary SQLite file). */
const RUNNABLE =
  /^npx calendar-events-rest( --help| migrate| migrate --dry-run| status| seed --events \d{1,4}| occurrences --until \d{4}-\d\d-\d\d| token --role [a-z]+)?$/;

const skips = JSON.parse(readFileSync(join(REPO, 'docs/.snippets-skip.json'), 'utf8')) as Record<string, string>;
const shellBlocks = blocks.filter((b) => ['sh', 'bash', 'shell'].includes(b.lang));
const commands = shellBlocks.flatMap((block) =>
  block.code.split('\n').flatMap((text, i) => (COMMAND.test(text.trim()) ? [{ block, line: block.line + i, command: commandOf(text) }] : [])),
);

describe('sh blocks of README.md and docs/', () => {
  let cli: BuiltCli;
  const dir = mkdtempSync(join(tmpdir(), 'calendar-docs-sh-'));
  beforeAll(async () => {
    cli = await buildCli();
  });
  afterAll(() => {
    cli.remove();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs every npm or npx calendar-events-rest line, or skips it with a reason', () => {
    const unlisted = commands.filter((c) => !RUNNABLE.test(c.command) && !(c.command in skips)).map((c) => `${c.block.page}:${c.line}: ${c.command}`);
    expect(unlisted, 'add each to docs/.snippets-skip.json with the reason it is not run, or make it cheap to run').toEqual([]);
    const stale = Object.keys(skips).filter((command) => !commands.some((c) => c.command === command));
    expect(stale, 'docs/.snippets-skip.json lists commands no page runs any more').toEqual([]);
    for (const [command, reason] of Object.entries(skips)) expect(reason.length, `a reason for skipping ${command}`).toBeGreaterThan(10);
  });

  // Each block's lines run in order on a SQLite file of the block's own (the command's default
  // store, as CALENDAR_DB names it), so that `status` after `migrate` sees what a reader would.
  for (const block of shellBlocks.filter((b) => commands.some((c) => c.block === b && RUNNABLE.test(c.command)))) {
    it(`runs the commands of ${block.page}:${block.line}`, async () => {
      const db = join(dir, `${block.page.replace(/\W+/g, '_')}_${block.line}.sqlite`);
      for (const { command, line } of commands.filter((c) => c.block === block && RUNNABLE.test(c.command))) {
        const args = command.split(' ').slice(2);
        const run = await cli.run(args, { CALENDAR_DB: db });
        expect(run.code, `${block.page}:${line}: ${command}\n${run.stderr}`).toBe(0);
      }
    });
  }
});
