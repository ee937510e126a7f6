/** The docs pages with a generated block: the file, its block's marker name, and how the block is made. */
import { fileURLToPath } from 'node:url';
import { renderCli } from './cli-reference.js';
import { renderOptions } from './options-reference.js';

export const GENERATED = {
  options: { file: fileURLToPath(new URL('../../docs/reference/options.md', import.meta.url)), render: renderOptions },
  cli: { file: fileURLToPath(new URL('../../docs/reference/cli.md', import.meta.url)), render: renderCli },
} as const;
