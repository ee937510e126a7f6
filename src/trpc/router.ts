import { initTRPC } from '@trpc/server';
import type { Calendar } from '../calendar.js';
import type { CalendarContext } from './context.js';
import { calendarErrorFormatter, toTRPCError } from './errors.js';
import { operation, operationInputError, perform, type Operation } from './operations.js';
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
const single = (collection: string) => [`/${collection}/(?P<id>\\d+)`, `/${collection}/by-slug/(?P<slug>[^/]+)`];

/**
 * list/get/create/update/delete of a post collection (events, venues, organizers); `Written` is
 * the item as its writer sees it (a venue's or organizer's name shown even when protected).
 */
function postProcedures<K extends string, Item, ListI, GetI, CreateI, UpdateI, DeleteI, Written = Item>(calendar: Pick<Calendar, 'call'>, collection: K) {
  return t.router({
    list: query<ListI, T.Archive<K, Item>>(calendar, operation('GET', [`/${collection}`])),
    get: query<GetI, Item>(calendar, operation('GET', single(collection))),
    create: mutation<CreateI, Written>(calendar, operation('POST', [`/${collection}`])),
    update: mutation<UpdateI, Written>(calendar, operation('PATCH', single(collection))),
    delete: mutation<DeleteI, T.Deleted<Item>>(calendar, operation('DELETE', single(collection), FORCE)),
  });
}

/** list/get/create/update/delete of a term collection (categories, tags): by id only; deletes are permanent. */
function termProcedures<K extends string, ListI, CreateI, UpdateI>(calendar: Pick<Calendar, 'call'>, collection: K) {
  const item = [`/${collection}/(?P<id>\\d+)`];
  return t.router({
    list: query<ListI, T.Archive<K, T.Term>>(calendar, operation('GET', [`/${collection}`])),
    get: query<T.TermKeyInput, T.Term>(calendar, operation('GET', item)),
    create: mutation<CreateI, T.Term>(calendar, operation('POST', [`/${collection}`])),
    update: mutation<UpdateI, T.Term>(calendar, operation('PATCH', item)),
    delete: mutation<T.TermKeyInput, T.Term>(calendar, operation('DELETE', item)),
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
export function createCalendarRouter(calendar: Pick<Calendar, 'call'>) {
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
    events: postProcedures<'events', T.CalendarEvent, T.EventListInput, T.EventGetInput, T.EventCreateInput, T.EventUpdateInput, T.EventDeleteInput>(
      calendar,
      'events',
    ),
    // The occurrences of a recurring event, by its id or one of its occurrences'.
    occurrences: query<T.OccurrencesInput, T.Archive<'events', T.CalendarEvent>>(calendar, operation('GET', ['/events/(?P<id>\\d+)/occurrences'])),
    venues: postProcedures<'venues', T.Venue, T.LinkedListInput, T.LinkedGetInput, T.VenueCreateInput, T.VenueUpdateInput, T.LinkedDeleteInput, T.WrittenVenue>(
      calendar,
      'venues',
    ),
    organizers: postProcedures<
      'organizers',
      T.Organizer,
      T.LinkedListInput,
      T.LinkedGetInput,
      T.OrganizerCreateInput,
      T.OrganizerUpdateInput,
      T.LinkedDeleteInput,
      T.WrittenOrganizer
    >(calendar, 'organizers'),
    categories: termProcedures<'categories', T.CategoryListInput, T.CategoryCreateInput, T.CategoryUpdateInput>(calendar, 'categories'),
    tags: termProcedures<'tags', T.TagListInput, T.TagCreateInput, T.TagUpdateInput>(calendar, 'tags'),
  });
}

/** The router's type, for `createTRPCClient<CalendarRouter>` and `inferRouterInputs`. */
export type CalendarRouter = ReturnType<typeof createCalendarRouter>;
