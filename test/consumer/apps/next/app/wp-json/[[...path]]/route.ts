// app/wp-json/[...path]/route.ts, as README "Next.js" shows.
import { calendarHandlers } from 'calendar-events-rest/next';
import { getCalendar } from '../../../lib/calendar';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = calendarHandlers(getCalendar, { root: '/wp-json' });
