import { calendarHandlers } from '../../../../../adapters/next.js';
import { getCalendar } from '../../../lib/calendar.js';

// Node, not the Edge runtime: the calendar's SQLite driver is a native module.
export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = calendarHandlers(getCalendar, { root: '/wp-json' });
