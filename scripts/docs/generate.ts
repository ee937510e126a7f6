/**
 * Writes the generated blocks of the reference pages: `npm run docs:options` (`options`),
 * `npm run docs:cli` (`cli`), or both without an argument. test/docs/reference.test.ts fails
 * while a page is behind its source.
 */
import { writeGeneratedBlock } from './generated-block.js';
import { GENERATED } from './pages.js';

const which = process.argv[2];
if (which !== undefined && !(which in GENERATED)) throw new Error(`usage: tsx scripts/docs/generate.ts [${Object.keys(GENERATED).join('|')}]`);
for (const [name, { file, render }] of Object.entries(GENERATED)) {
  if (which !== undefined && which !== name) continue;
  writeGeneratedBlock(file, name, render());
  console.log(`${name}: ${file}`);
}
