import { calendarHandlers } from '../../../../../../adapters/next.js';
import { getCalendar } from '../../../../lib/calendar.js';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = calendarHandlers(getCalendar, { root: '/fr/wp-json', locale: 'fr' });
