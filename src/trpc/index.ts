export { createCalendarRouter, type CalendarRouter } from './router.js';
export { createCalendarContext, type CalendarContext } from './context.js';
export { apiErrorOf, calendarErrorFormatter, trpcCode, type ApiErrorBody } from './errors.js';
export type * from './types.js';
