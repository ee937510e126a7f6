import { createCalendar, type Calendar, type CalendarOptions } from '../../src/index.js';
import { tokensFromEnv } from './auth.js';

/** What the example apps read from their environment. */
export interface ExampleSetup {
  calendar: Calendar;
  port: number;
  /** The administrator token made up at start when `CALENDAR_TOKENS` is unset. */
  generatedToken?: string;
}

/**
 * The calendar every example serves, configured by the environment the README documents:
 * `PORT`, `CALENDAR_DB` / `CALENDAR_DB_URL`, `CALENDAR_DB_REPLICA_URLS` (comma-separated
 * `postgres://…` URLs of streaming replicas of `CALENDAR_DB_URL`), `CALENDAR_TOKENS`, `CALENDAR_NAMESPACE`,
 * `CALENDAR_BASE_URL`, `CALENDAR_IMAGE_HOSTS` (comma-separated; `host:port` for a port other than
 * 80 and 443), `CALENDAR_DOC` (`complete` to serve the OpenAPI document clients are generated from).
 * `extend`: options an example adds to these.
 */
export function calendarFromEnv(env: NodeJS.ProcessEnv = process.env, defaultPort = 8080, extend: Partial<CalendarOptions> = {}): ExampleSetup {
  const { auth, generated } = tokensFromEnv(env.CALENDAR_TOKENS);
  const calendar = createCalendar({
    db: env.CALENDAR_DB_URL || env.CALENDAR_DB || 'data/calendar.sqlite',
    replicas: env.CALENDAR_DB_REPLICA_URLS?.split(',')
      .map((u) => u.trim())
      .filter(Boolean),
    namespace: env.CALENDAR_NAMESPACE || undefined,
    baseUrl: env.CALENDAR_BASE_URL || undefined,
    imageHosts: env.CALENDAR_IMAGE_HOSTS?.split(',')
      .map((h) => h.trim())
      .filter(Boolean),
    doc: env.CALENDAR_DOC === 'complete' ? 'complete' : undefined,
    // getUser and userExists for the bearer tokens.
    ...auth,
    // What an example adds (examples/extensions: fields, hooks, routes).
    ...extend,
  });
  return { calendar, port: Number(env.PORT ?? defaultPort), generatedToken: generated };
}

/** The start-up lines of an example server. */
export function announce({ calendar, port, generatedToken }: ExampleSetup): void {
  console.log(`Calendar API listening on http://127.0.0.1:${port}/wp-json/${calendar.options.namespace}`);
  if (generatedToken) console.log(`Administrator token (set CALENDAR_TOKENS to choose your own): ${generatedToken}`);
}

/** Runs `close` on SIGINT/SIGTERM, then exits. */
export function closeOnSignal(close: () => Promise<void>): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => void close().then(() => process.exit(0)));
  }
}
