/** A failure the user can act on: its message is printed as is, without a stack trace. */
export class CliError extends Error {
  override name = 'CliError';
}

/** One line saying what went wrong, from any thrown value (driver errors included). */
export function failureLine(error: unknown): string {
  let message = error instanceof Error ? error.message : String(error);
  // Node reports a refused connection to every address of a host as an AggregateError with no message of its own.
  if (!message && error instanceof AggregateError) message = error.errors.map((e: unknown) => (e instanceof Error ? e.message : String(e))).join('; ');
  if (!message && error instanceof Error) message = (error as NodeJS.ErrnoException).code ?? error.name;
  // The library's own messages (a missing driver) already name the package, as the CLI's prefix does.
  const [firstLine = ''] = message.split('\n');
  return firstLine.replace(/^calendar-events-rest:\s*/, '').trim();
}
