import { createCalendar, type Calendar } from 'calendar-events-rest';

// The app's own authentication: one fixed administrator token.
function lookUpUser(authorization: string | string[] | undefined) {
  return authorization === 'Bearer consumer-admin-token' ? { id: 1, roles: ['administrator' as const] } : null;
}

let calendar: Promise<Calendar> | undefined;

/**
 * The calendar, created and migrated on the first request rather than at import (README
 * "Next.js": `next build` imports route modules, and must not open the database).
 */
export function getCalendar(): Promise<Calendar> {
  calendar ??= (async () => {
    const created = createCalendar({
      db: process.env.CALENDAR_DB ?? 'data/calendar.sqlite',
      getUser: (req) => lookUpUser(req.headers.authorization),
    });
    await created.migrate();
    return created;
  })().catch((error: unknown) => {
    calendar = undefined;
    throw error;
  });
  return calendar;
}
