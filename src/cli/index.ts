#!/usr/bin/env node
/** `calendar-events-rest`: the package's command line (`npx calendar-events-rest --help`). */
import { createProgram } from './program.js';
import { failureLine } from './failure.js';
import { printNote } from './output.js';

try {
  await createProgram().parseAsync(process.argv);
} catch (error) {
  // One line a user can act on; a stack trace would only bury it.
  printNote(`calendar-events-rest: ${failureLine(error)}`);
  process.exitCode = 1;
}
