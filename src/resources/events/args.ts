import { isTruthy, phpEmpty } from '../../php/empty.js';
import { z } from 'zod';
import { arg, type ParamsOf } from '../../args/arg.js';
import { isScalar, nonEmptyString, parseList, positiveInteger } from '../../args/checks.js';
import { toId } from '../../ids.js';
import type { RequestContext } from '../../http/context.js';
import { isTime, isTimeThisSecond, isValidTimezone, rawDefaultEnd, rawDefaultStart } from '../../dates/index.js';
import type { ParamFailure } from '../../args/failure.js';
import { EVENT } from '../../posts/kinds.js';
import { imageCheck } from '../../images/args.js';
import { pageArg, perPageArg } from '../../archive/args.js';
import { linkedEntryCheck } from '../linked/entries.js';
import { archiveStatusCheck, existingEvent, existingUser, registeredStatus, urlOrEmpty } from '../../posts/args.js';
import { eventSearchCheck } from '../../args/search.js';
import { sanitizeTermName } from '../../text/sanitize.js';
import { CATEGORIES, TAGS } from '../terms/args.js';
import { existingTermList, termList } from './term-lists.js';
import { organizerWriteArgs, venueWriteArgs } from '../linked/args.js';
import { acceptedObject } from '../../args/accepted.js';
import { geolocArgs } from '../venues/geoloc.js';

type Ctx = RequestContext;

/** A date the events API accepts: a number, or a string `strtotime` reads (not the epoch). */
const time = (value: unknown, ctx: Ctx) => isTimeThisSecond(value, ctx.now());

/** A date an event write accepts at `now`: as {@link time}, but a date that does not exist (`2026-02-30`) fails. */
export const isWriteTime = (value: unknown, now: Date) => isTime(value, now, { strictCalendar: true });

const writeTime = (value: unknown, ctx: Ctx) => isWriteTime(value, ctx.now());

/** Width of the `timezone` column. */
const TIMEZONE_COLUMN = 64;

/** A `timezone` an event write accepts: empty (the site's), or a zone name that fits the column. */
export const isEventTimezone = (v: unknown) => v === '' || (typeof v === 'string' && v.length <= TIMEZONE_COLUMN && isValidTimezone(v));

/** Width of a term name (WordPress' and the store's `name` column). */
const TERM_NAME_MAX = 200;

/** A non-empty list of ids of existing posts of one type. */
function existingPostList(type: 'venue' | 'organizer') {
  return async (value: unknown, ctx: Ctx) => {
    const list = parseList(value);
    if (!list?.length) return false;
    for (const item of list) {
      const id = toId(item);
      if (id === undefined || (await ctx.services.posts.typeOf(id)) !== type) return false;
    }
    return true;
  };
}

/** `ticketed` asks for the Event Tickets add-on, which this API does not have. */
function ticketedCheck(value: unknown): true | ParamFailure {
  if (!isTruthy(value) && value !== true) return true;
  const message = 'Event Tickets plugin is not activated.';
  return { message, detail: { code: 'event-tickets-not-active', message, data: { status: 400 } } };
}

/** Arguments of the events archive, in upstream order. */
export const eventArchiveArgs = {
  page: pageArg,
  per_page: perPageArg,
  start_date: arg({ default: (ctx: Ctx) => rawDefaultStart(ctx.options.timezone, ctx.now()), description: 'events.start_date' }, { check: time }),
  end_date: arg({ default: (ctx: Ctx) => rawDefaultEnd(ctx.now()), description: 'events.end_date' }, { check: time }),
  starts_before: arg({ description: 'events.starts_before' }, { check: time }),
  starts_after: arg({ description: 'events.starts_after' }, { check: time }),
  ends_before: arg({ description: 'events.ends_before' }, { check: time }),
  ends_after: arg({ description: 'events.ends_after' }, { check: time }),
  strict_dates: arg({ default: 'false', description: 'events.strict_dates' }, { check: nonEmptyString }),
  search: arg({ description: 'events.search', type: 'string' }, { check: eventSearchCheck }),
  categories: arg({ description: 'events.categories', items: { type: 'integer' } }, { check: existingTermList(CATEGORIES), style: 'form' }),
  tags: arg({ description: 'events.tags', items: { type: 'integer' } }, { check: existingTermList(TAGS), style: 'form' }),
  venue: arg({ description: 'events.venue', items: { type: 'integer' } }, { check: existingPostList('venue'), style: 'form' }),
  organizer: arg({ description: 'events.organizer', items: { type: 'integer' } }, { check: existingPostList('organizer'), style: 'form' }),
  featured: arg({ type: 'boolean', description: 'events.featured' }),
  status: arg({ format: 'string', description: 'events.status' }, { check: archiveStatusCheck(EVENT) }),
  ...geolocArgs('events'),
  include: arg(
    { description: 'events.include', items: { type: 'integer' } },
    {
      style: 'form',
      check: (value: unknown) => {
        const list = parseList(value);
        return !!list?.length && list.every((v) => positiveInteger.safeParse(typeof v === 'string' ? v.trim() : v).success);
      },
    },
  ),
  post_parent: arg({ type: 'integer', description: 'events.post_parent' }, { check: existingEvent }),
  ticketed: arg({ type: 'boolean', description: 'events.ticketed' }, { check: ticketedCheck }),
};

// What a typed client sends for the arguments whose checks let several shapes through. They
// stay narrower than the checks (which also read bracket-notation maps and PHP's empty values).

/** A venue or organizer id: a number, or digits (a comma list of them; `""` for none). */
const LINKED_ID = z.union([z.number().int().nonnegative(), z.string().regex(/^[\d\s,]*$/)]);

/** One venue or organizer of an event write: an id, `{id}` (other keys ignored), or the fields of a new one. */
const linkedEntry = <T>(fields: z.ZodType<T>) => z.union([LINKED_ID, z.object({ id: LINKED_ID }), fields]);

const VENUE_ENTRY = linkedEntry(acceptedObject(venueWriteArgs(true)));
const ORGANIZER_ENTRY = linkedEntry(acceptedObject(organizerWriteArgs(true)));

/** `venue`: one entry, or a list of at most one. */
const VENUE_INPUT = z.union([VENUE_ENTRY, z.array(VENUE_ENTRY).max(1)]);

/** `organizer`: one entry or a list of them, linked in that order. */
const ORGANIZER_INPUT = z.union([ORGANIZER_ENTRY, z.array(ORGANIZER_ENTRY)]);

/** `categories`/`tags`: term ids, names or slugs, as a list or a comma-separated string. */
const TERMS_INPUT = z.union([z.string(), z.number().int(), z.array(z.union([z.string(), z.number().int()]))]);

/** `cost`: a text (`"$10 - $20"`), a number, or a list of costs. */
const COST_INPUT = z.union([z.string(), z.number(), z.array(z.union([z.string(), z.number()]))]);

/** `recurrence`: RFC 5545 lines as a list (or one text of lines); `[]`, `""` or `null` for none. */
const RECURRENCE_INPUT = z.union([z.array(z.string()), z.string(), z.null()]);

const SCOPES = ['this', 'following', 'all'] as const;

/** What updates and deletes of a recurring event apply to (README "Recurring events"). */
export const eventScopeArgs = {
  scope: arg(
    { type: 'string', description: 'event.scope', enum: SCOPES },
    { check: z.enum(SCOPES), sanitize: (value: unknown) => SCOPES.find((s) => s === value) ?? 'this', addition: true },
  ),
  reset_overrides: arg({ type: 'boolean', description: 'event.reset_overrides' }, { addition: true }),
};

/** Event create arguments, in upstream order; none required on update. */
export function eventWriteArgs<R extends boolean>(required: R) {
  return {
    author: arg({ type: 'integer', description: 'event.author' }, { check: existingUser }),
    date: arg({ type: 'string', description: 'event.date' }, { check: writeTime }),
    date_utc: arg({ type: 'string', description: 'event.date_utc' }, { check: writeTime }),
    title: arg({ type: 'string', description: 'event.title' }, { required, check: nonEmptyString }),
    description: arg({ type: 'string', description: 'event.description' }, { check: nonEmptyString }),
    slug: arg({ type: 'string', description: 'event.slug' }, { check: nonEmptyString }),
    excerpt: arg({ type: 'string', description: 'event.excerpt' }, { check: nonEmptyString }),
    status: arg({ type: 'string', description: 'event.status' }, { check: registeredStatus }),
    timezone: arg({ type: 'string', description: 'event.timezone' }, { check: isEventTimezone }),
    all_day: arg({ default: false, type: 'boolean', description: 'event.all_day' }),
    start_date: arg({ type: 'string', description: 'event.start_date' }, { required, check: writeTime }),
    end_date: arg({ type: 'string', description: 'event.end_date' }, { required, check: writeTime }),
    image: arg({ type: 'string', description: 'event.image' }, { check: imageCheck({ allowEmpty: false }) }),
    cost: arg({ description: 'event.cost' }, { accepts: COST_INPUT }),
    website: arg({ default: null, description: 'event.website' }, { check: urlOrEmpty, accepts: z.string() }),
    show_map: arg({ type: 'boolean', description: 'event.show_map' }),
    show_map_link: arg({ type: 'boolean', description: 'event.show_map_link' }),
    hide_from_listings: arg({ type: 'boolean', description: 'event.hide_from_listings' }),
    sticky: arg({ type: 'boolean', description: 'event.sticky' }),
    featured: arg({ type: 'boolean', description: 'event.featured' }),
    categories: arg({ default: null, items: { type: 'integer' }, description: 'event.categories' }, { check: termInput, accepts: TERMS_INPUT }),
    tags: arg({ default: null, items: { type: 'integer' }, description: 'event.tags' }, { check: termInput, accepts: TERMS_INPUT }),
    venue: arg({ default: null, items: { type: 'integer' }, description: 'event.venue' }, { check: linkedEntryCheck('venue'), accepts: VENUE_INPUT }),
    organizer: arg(
      { default: null, items: { type: 'integer' }, description: 'event.organizer' },
      { check: linkedEntryCheck('organizer'), accepts: ORGANIZER_INPUT },
    ),
    // This library's own, after upstream's (README "Recurring events"): not in the index nor the original /doc.
    recurrence: arg({ items: { type: 'string' }, description: 'event.recurrence' }, { check: RECURRENCE_INPUT, accepts: RECURRENCE_INPUT, addition: true }),
  };
}

/**
 * `categories`/`tags` of a write: a CSV string or a list of ids and names (no nesting), each
 * name short enough to be a term name once sanitised.
 */
function termInput(value: unknown): boolean {
  if (phpEmpty(value)) return true;
  const list = termList(value);
  return !!list && list.every((e) => isScalar(e) && sanitizeTermName(String(e)).length <= TERM_NAME_MAX);
}

/**
 * The `id` of `/events/{id}`: digits by route; existence is the handler's (404/400). Its own
 * sanitiser, so that ids too long for a number are "not found" rather than a type error.
 */
export const eventIdArg = arg({ type: 'integer', description: 'event.id' }, { required: true, in: 'path', sanitize: (v) => Number(v) });

/** Arguments of `/events/{id}/occurrences`. */
export const occurrencesArgs = {
  id: arg({ type: 'integer', description: 'occurrences.id' }, { required: true, in: 'path', sanitize: (v: unknown) => Number(v) }),
  page: pageArg,
  per_page: perPageArg,
  start_date: arg({ description: 'occurrences.start_date' }, { check: time }),
  end_date: arg({ description: 'occurrences.end_date' }, { check: time }),
};

/** The `slug` of `/events/by-slug/{slug}` reads: an existing event slug (else 400). */
export const eventSlugArg = arg(
  { type: 'string', description: 'event.slug_path' },
  {
    required: true,
    in: 'path',
    check: async (value: unknown, ctx: Ctx) => typeof value === 'string' && value !== '' && (await ctx.services.events.bySlug(value)) !== undefined,
  },
);
/** An event write's parameters, after validation: what the write arguments declare (none required on update). */
export type EventInput = Partial<ParamsOf<ReturnType<typeof eventWriteArgs<false>>> & ParamsOf<typeof eventScopeArgs>>;
