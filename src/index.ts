export {
  createCalendar,
  ROUTES,
  type Calendar,
  type CallOptions,
  type CallResult,
  type EventOf,
  type VenueOf,
  type OrganizerOf,
  type CategoryOf,
  type TagOf,
  type CalendarSubscriptions,
} from './calendar.js';
export type { CalendarOptions, ResolvedOptions } from './options.js';
export { field, type FieldDeclaration, type FieldsOption, type FieldValues } from './fields/declare.js';
export { kind, type KindDeclaration, type KindsOption } from './host-kinds/declare.js';
export { calendarRoute, type HostRouteDeclaration, type HostEndpoint } from './http/host-routes.js';
export { arg, type Arg, type ArgDoc } from './args/arg.js';
export type { RequestContext, HandlerContext, Reply } from './http/context.js';
export type { CorsOptions } from './http/cors.js';
export type { CsrfOptions } from './http/csrf.js';
export type { Limits } from './http/limits.js';
export type { CoreRequest, CoreResponse, Headers } from './http/types.js';
export type { GeoOptions, Geocoder, VenueAddress } from './geo/options.js';
export { ApiError } from './http/errors.js';
export { ROLES, isRole, roleCapabilities, toPrincipal, can, has, type User, type Role, type Principal } from './auth/capabilities.js';
export { bearerTokens, type BearerTokenAuth } from './auth/bearer-tokens.js';
export type { RoleDefinition, RolesOption } from './auth/roles.js';
export { HookError } from './hooks/types.js';
export type {
  HooksOption,
  KindHooks,
  HookKind,
  HookItems,
  BeforeChangeArgs,
  AfterChangeArgs,
  AfterReadHook,
  ReadItem,
  StoredItem,
  WriteInput,
  WriteOperation,
} from './hooks/types.js';
export type { ChangeEvent, ChangeListener, Unsubscribe } from './hooks/change-events.js';
export { connectDatabase } from './store/connect.js';
export { namingStatements, type NamingPool, type NamingPoolClient } from './store/named-statements.js';
export type { MigrationStatus } from './store/migrate.js';
export type { Database } from './store/database.js';
export type { Dictionary, DescriptionKey } from './i18n/en.js';
export type {
  CalendarEvent,
  Venue,
  Organizer,
  Term,
  EventTerm,
  Image,
  ImageSize,
  DateDetails,
  CostDetails,
  EventList,
  VenueList,
  OrganizerList,
  CategoryList,
  TagList,
  ApiErrorJson,
  ResponseTypes,
  WrittenVenue,
  WrittenOrganizer,
  Deleted,
} from './schemas/types.js';
export { verifyWebhook, signWebhook, type VerifyOptions } from './webhooks/signature.js';
export type { WebhookEndpoint, WebhookOptions, WebhookPayload } from './webhooks/deliverer.js';
export type { ChangeKind, ChangeType } from './store/database.js';
export { importSite, importedIds, type StoreTarget, type ImportCalendarOptions, type ImportReport, type KindReport } from './import/index.js';
export type { ImportedKind } from './store/database.js';
export type { SubscriptionsOption, SubscriptionFeed, SubscriptionStatus, SubscriptionSettings } from './subscriptions/settings.js';
export type { FeedReport } from './feeds/apply.js';
