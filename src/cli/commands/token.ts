import { randomBytes } from 'node:crypto';
import { printLine, printNote } from '../output.js';

/** Where the example servers listen by default (examples/shared/env.ts, and the default namespace). */
const EXAMPLE_EVENTS_URL = 'http://127.0.0.1:8080/wp-json/calendar/events/v1/events';

/**
 * `token`: prints a new `role:token` entry, the form the library's `bearerTokens()` reads (a
 * host's own server) and the example servers' `CALENDAR_TOKENS` too. The entry alone goes to
 * stdout (so that `$(calendar-events-rest token)` captures just it), how to use it to stderr.
 */
export function runToken({ role }: { role: string }): number {
  // 24 random bytes, as unguessable as a token needs, in characters that need no quoting in a shell or a header.
  const token = randomBytes(24).toString('base64url');
  const entry = `${role}:${token}`;
  printLine(entry);
  printNote(
    `In your server: createCalendar({ db, ...bearerTokens(process.env.CALENDAR_TOKENS) }) with CALENDAR_TOKENS='${entry}' (separate several entries with commas)`,
  );
  printNote(`Or start this repository's example server with it: CALENDAR_TOKENS='${entry}' npm start`);
  printNote(`Then call the API as ${role}: curl -H 'Authorization: Bearer ${token}' ${EXAMPLE_EVENTS_URL}`);
  return 0;
}
