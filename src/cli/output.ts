/** Writes one line of a command's result to stdout. */
export function printLine(text = ''): void {
  process.stdout.write(`${text}\n`);
}

/** Writes one line for the person at the terminal (hints, failures) to stderr, so that stdout stays the result. */
export function printNote(text: string): void {
  process.stderr.write(`${text}\n`);
}
