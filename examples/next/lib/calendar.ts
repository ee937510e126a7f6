import type { Calendar } from '../../../src/index.js';
import { calendarFromEnv } from '../../shared/env.js';

const KEY = Symbol.for('calendar-events-rest/examples/next');
type Holder = { [KEY]?: Promise<Calendar> };

/**
 * The example's calendar, created and migrated on the first request rather than at import:
 * `next build` imports route modules, and must not open the database. Kept on `globalThis`
 * so that every route module (each root) shares one calendar.
 */
export function getCalendar(): Promise<Calendar> {
  const holder = globalThis as Holder;
  holder[KEY] ??= (async () => {
    const { calendar, generatedToken } = calendarFromEnv(process.env, 3000);
    await calendar.migrate();
    if (generatedToken) console.log(`Administrator token (set CALENDAR_TOKENS to choose your own): ${generatedToken}`);
    return calendar;
  })().catch((error: unknown) => {
    delete holder[KEY];
    throw error;
  });
  return holder[KEY];
}
