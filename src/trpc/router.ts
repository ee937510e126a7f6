import { initTRPC } from '@trpc/server';
import { z } from 'zod';
import type { Calendar } from '../calendar.js';
import type { FieldsOption, HostFieldsOf } from '../fields/declare.js';
import { ApiError } from '../http/errors.js';
import type { Method, Route } from '../http/route.js';
import type { KindsOption } from '../host-kinds/declare.js';
import type { HostKind, KindRegistry } from '../host-kinds/registry.js';
import type { CalendarContext } from './context.js';
import { calendarErrorFormatter, toTRPCError } from './errors.js';
import { operation as operationOn, operationInputError, perform, type Operation } from './operations.js';
import type * as T from './types.js';

const t = initTRPC.context<CalendarContext>().create({ errorFormatter: calendarErrorFormatter });

/** The shared part of every procedure: API-shaped input errors, then the operation's zod input. */
function base<I>(op: Operation<I>) {
  return t.procedure
    .use(async ({ getRawInput, next }) => {
      // Checked before tRPC's own parse so that a bad input fails like it does over HTTP.
      const error = operationInputError(op, await getRawInput());
      if (error) throw toTRPCError(error);
      return next();
    })
    .input(op.schema);
}

/** A query running `op`; `O` is the JSON body's type. */
function query<I, O>(calendar: Pick<Calendar, 'call'>, op: Operation<I>) {
  return base(op).query(({ input, ctx }) => perform(calendar, op, input, ctx) as Promise<O>);
}

/** A mutation running `op`; `O` is the JSON body's type. */
function mutation<I, O>(calendar: Pick<Calendar, 'call'>, op: Operation<I>) {
  return base(op).mutation(({ input, ctx }) => perform(calendar, op, input, ctx) as Promise<O>);
}

const FORCE = { force: { type: 'boolean', required: false, plain: false } } as const;

/** An operation over the calendar's own routes (so that its host fields' arguments are inputs). */
type OperationOf = <I>(verb: Method, patterns: readonly string[], extra?: Parameters<typeof operationOn>[2]) => Operation<I>;

/** What the declared fields add to an item of a collection (`F`: the calendar's `fields` option). */
type Host<F, C extends string> = HostFieldsOf<F, C>;
/** What a write may send for them: any of them, or `''` to clear one. */
type HostInput<F, C extends string> = { [K in keyof HostFieldsOf<F, C>]?: HostFieldsOf<F, C>[K] | '' };
const single = (collection: string) => [`/${collection}/(?P<id>\\d+)`, `/${collection}/by-slug/(?P<slug>[^/]+)`];

/**
 * list/get/create/update/delete of a post collection (events, venues, organizers); `Written` is
 * the item as its writer sees it (a venue's or organizer's name shown even when protected).
 */
function postProcedures<K extends string, Item, ListI, GetI, CreateI, UpdateI, DeleteI, Written = Item>(
  calendar: Pick<Calendar, 'call'>,
  operation: OperationOf,
  collection: K,
) {
  return t.router({
    list: query<ListI, T.Archive<K, Item>>(calendar, operation('GET', [`/${collection}`])),
    get: query<GetI, Item>(calendar, operation('GET', single(collection))),
    create: mutation<CreateI, Written>(calendar, operation('POST', [`/${collection}`])),
    update: mutation<UpdateI, Written>(calendar, operation('PATCH', single(collection))),
    delete: mutation<DeleteI, T.Deleted<Item>>(calendar, operation('DELETE', single(collection), FORCE)),
  });
}

/** list/get/create/update/delete of a term collection (categories, tags): by id only; deletes are permanent. */
function termProcedures<K extends string, Item, ListI, CreateI, UpdateI>(calendar: Pick<Calendar, 'call'>, operation: OperationOf, collection: K) {
  const item = [`/${collection}/(?P<id>\\d+)`];
  return t.router({
    list: query<ListI, T.Archive<K, Item>>(calendar, operation('GET', [`/${collection}`])),
    get: query<T.TermKeyInput, Item>(calendar, operation('GET', item)),
    create: mutation<CreateI, Item>(calendar, operation('POST', [`/${collection}`])),
    update: mutation<UpdateI, Item>(calendar, operation('PATCH', item)),
    delete: mutation<T.TermKeyInput, Item>(calendar, operation('DELETE', item)),
  });
}

/** The procedures of one host's kind, collection `C` and noun `N` (`kinds` option), its fields `F[C]` typed in. */
type HostKindProcedures<F, C extends string, N extends string> = ReturnType<
  typeof postProcedures<
    C,
    T.HostItemOf<N> & Host<F, C>,
    T.HostListInput,
    T.LinkedGetInput,
    T.HostCreateInput<N> & HostInput<F, C>,
    T.HostUpdateInput<N> & HostInput<F, C>,
    T.LinkedDeleteInput
  >
>;

/** The procedures of every host's kind, by collection. */
type HostKindsProcedures<F, K> = { [C in keyof K & string]: HostKindProcedures<F, C, K[C] extends { readonly noun: infer N extends string } ? N : string> };

/**
 * list/get/create/update/delete of each host's kind, beside the API's own: the same shapes as
 * venues' and organizers', under the kind's collection.
 */
// The collections given are those of `K` (the `kinds` option, resolved), so the record built has
// the mapped type's keys; its procedures' types come from `K` and `F`, which no value carries.
function hostKindProcedures<F, K>(calendar: Pick<Calendar, 'call'>, operation: OperationOf, kinds: readonly HostKind[]): HostKindsProcedures<F, K>;
function hostKindProcedures(calendar: Pick<Calendar, 'call'>, operation: OperationOf, kinds: readonly HostKind[]): Record<string, unknown> {
  return Object.fromEntries(kinds.map((k) => [k.collection, postProcedures(calendar, operation, k.collection)]));
}

/** The input of the host routes' procedures: the route's path with its captures filled in, its verb, its parameters. */
const HOST_INPUT = z.object({
  path: z.string(),
  method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']).optional(),
  params: z.record(z.string(), z.unknown()).optional(),
});

/**
 * The host's own routes (`routes` of `createCalendar`): `query` runs a `GET`, `mutation` a write
 * (`POST` unless `method` says otherwise), through the same pipeline as over HTTP; only host
 * routes are reached this way (the API's own have their procedures). The answer is its JSON.
 */
function hostProcedures(calendar: Pick<Calendar, 'call'>, routes: readonly Route[]) {
  const hosts = routes.filter((r) => r.host);
  const run = (input: z.infer<typeof HOST_INPUT>, ctx: CalendarContext, verb: Method) => {
    const route = hosts.find((r) => r.regex.test(input.path));
    if (!route) throw toTRPCError(new ApiError('rest_no_route', 'No route was found matching the URL and request method.', { status: 404 }));
    const captures = route.regex.exec(input.path)?.groups ?? {};
    return perform(calendar, operationOn(verb, [route.pattern], {}, [route]), { ...input.params, ...captures }, ctx);
  };
  return t.router({
    query: t.procedure.input(HOST_INPUT).query(({ input, ctx }) => run(input, ctx, 'GET')),
    mutation: t.procedure.input(HOST_INPUT).mutation(({ input, ctx }) => run(input, ctx, input.method ?? 'POST')),
  });
}

/**
 * The calendar as a tRPC v11 router: one procedure per operation of the REST API, run
 * through the same pipeline (argument checks, permissions, handlers, errors) as the
 * context's user. Inputs are the routes' own argument declarations as zod objects (an
 * item is addressed by `{id}` or `{slug}`); outputs are the JSON bodies; API errors become
 * TRPCErrors whose `cause` is the API error (read it with `apiErrorOf`, or over HTTP in
 * `data.api` through `calendarErrorFormatter`).
 */
export function createCalendarRouter<F extends FieldsOption = FieldsOption, K extends KindsOption = Record<never, never>>(
  calendar: Pick<Calendar<F, K>, 'call' | '~fields' | '~kinds'> & { readonly routes?: readonly Route[]; readonly options?: { readonly kinds: KindRegistry } },
) {
  const { routes } = calendar;
  const operation: OperationOf = (verb, patterns, extra) => operationOn(verb, patterns, extra, routes);
  return t.router({
    index: query<T.IndexInput, T.JsonObject>(calendar, operation('GET', [''])),
    doc: query<T.DocInput, T.JsonObject>(calendar, operation('GET', ['/doc'])),
    // The complete OpenAPI document, whatever the `doc` option says.
    completeDoc: query<T.DocInput, T.JsonObject>(calendar, operation('GET', ['/doc/complete'])),
    changes: query<T.ChangesInput, T.ChangeFeed>(calendar, operation('GET', ['/changes'])),
    // Calendar files as their text (`text/calendar`).
    ical: t.router({
      feed: query<T.IcalFeedInput, string>(calendar, operation('GET', ['/ics/events'])),
      event: query<T.IcalEventInput, string>(calendar, operation('GET', ['/ics/events/(?P<id>\\d+)', '/ics/events/by-slug/(?P<slug>[^/]+)'])),
    }),
    events: postProcedures<
      'events',
      T.CalendarEvent & Host<F, 'events'>,
      T.EventListInput,
      T.EventGetInput,
      T.EventCreateInput & HostInput<F, 'events'>,
      T.EventUpdateInput & HostInput<F, 'events'>,
      T.EventDeleteInput
    >(calendar, operation, 'events'),
    // The occurrences of a recurring event, by its id or one of its occurrences'.
    occurrences: query<T.OccurrencesInput, T.Archive<'events', T.CalendarEvent & Host<F, 'events'>>>(
      calendar,
      operation('GET', ['/events/(?P<id>\\d+)/occurrences']),
    ),
    venues: postProcedures<
      'venues',
      T.Venue & Host<F, 'venues'>,
      T.LinkedListInput,
      T.LinkedGetInput,
      T.VenueCreateInput & HostInput<F, 'venues'>,
      T.VenueUpdateInput & HostInput<F, 'venues'>,
      T.LinkedDeleteInput,
      T.WrittenVenue & Host<F, 'venues'>
    >(calendar, operation, 'venues'),
    organizers: postProcedures<
      'organizers',
      T.Organizer & Host<F, 'organizers'>,
      T.LinkedListInput,
      T.LinkedGetInput,
      T.OrganizerCreateInput & HostInput<F, 'organizers'>,
      T.OrganizerUpdateInput & HostInput<F, 'organizers'>,
      T.LinkedDeleteInput,
      T.WrittenOrganizer & Host<F, 'organizers'>
    >(calendar, operation, 'organizers'),
    categories: termProcedures<
      'categories',
      T.Term & Host<F, 'categories'>,
      T.CategoryListInput,
      T.CategoryCreateInput & HostInput<F, 'categories'>,
      T.CategoryUpdateInput & HostInput<F, 'categories'>
    >(calendar, operation, 'categories'),
    tags: termProcedures<'tags', T.Term & Host<F, 'tags'>, T.TagListInput, T.TagCreateInput & HostInput<F, 'tags'>, T.TagUpdateInput & HostInput<F, 'tags'>>(
      calendar,
      operation,
      'tags',
    ),
    // The host's own kinds (`kinds` option), by collection.
    ...hostKindProcedures<F, K>(calendar, operation, calendar.options?.kinds.list ?? []),
    // The host's own routes, by path.
    routes: hostProcedures(calendar, routes ?? []),
  });
}

/** The router's type, for `createTRPCClient<CalendarRouter>` and `inferRouterInputs`; a calendar's own fields and kinds: `CalendarRouter<F, K>`. */
export type CalendarRouter<F extends FieldsOption = FieldsOption, K extends KindsOption = Record<never, never>> = ReturnType<typeof createCalendarRouter<F, K>>;
