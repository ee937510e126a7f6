export { createCalendar, ROUTES, type Calendar, type CallOptions, type CallResult } from './calendar.js';
export type { CalendarOptions, ResolvedOptions } from './options.js';
export type { CoreRequest, CoreResponse, Headers } from './http/types.js';
export { ApiError } from './http/errors.js';
export { roleCapabilities, toPrincipal, can, has, type User, type Role, type Principal } from './auth/capabilities.js';
export { connectDatabase } from './store/connect.js';
export type { Database } from './store/database.js';
export type { Dictionary, DescriptionKey } from './i18n/en.js';
