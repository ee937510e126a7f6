export { createCalendarRouter, type CalendarRouter } from './router.js';
export { createCalendarContext, type CalendarContext } from './context.js';
export { createNodeContext, createFetchContext, type RequestContextOptions, type NodeRequestLike } from './request-context.js';
export { apiErrorOf, calendarErrorFormatter, trpcCode, type ApiErrorBody } from './errors.js';
export type * from './types.js';
