/** The generated part of a docs page: the text between its two marker comments. */
import { readFileSync, writeFileSync } from 'node:fs';

const start = (name: string) => `<!-- ${name}:start -->`;
const end = (name: string) => `<!-- ${name}:end -->`;

/** The text between the markers `<!-- {name}:start -->` and `<!-- {name}:end -->` of a page. */
export function readGeneratedBlock(file: string, name: string): string {
  const text = readFileSync(file, 'utf8');
  const from = text.indexOf(start(name));
  const to = text.indexOf(end(name));
  if (from < 0 || to < from) throw new Error(`${file} has no ${start(name)} … ${end(name)} block`);
  return text.slice(from + start(name).length, to).trim();
}

/** Replaces the text between the markers of a page (the rest of the page is written by hand). */
export function writeGeneratedBlock(file: string, name: string, content: string): void {
  const text = readFileSync(file, 'utf8');
  const from = text.indexOf(start(name));
  const to = text.indexOf(end(name));
  if (from < 0 || to < from) throw new Error(`${file} has no ${start(name)} … ${end(name)} block`);
  writeFileSync(file, `${text.slice(0, from + start(name).length)}\n${content.trim()}\n${text.slice(to)}`);
}
