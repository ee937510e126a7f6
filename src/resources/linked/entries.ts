import { phpEmpty } from '../../php/empty.js';
import { isRecord, isScalar } from '../../args/checks.js';
import { toId } from '../../ids.js';
import { MemoKey, type RequestContext } from '../../http/context.js';
import { limitFailure } from '../../http/limits.js';
import type { PostType } from '../../store/database.js';
import { isUrlOrEmpty } from '../../text/url.js';
import { existingUser } from '../../posts/args.js';
import { namedAuthor } from '../../posts/author.js';
import { MAX_LAT, MAX_LNG, readCoordinate } from '../../geo/coordinates.js';

/** One linked venue/organizer of an event write: an existing id, or data for a new item. */
export type LinkedEntry = { id: number } | { data: Record<string, unknown> };

/** The kinds an event links by value. */
export type LinkedType = 'venue' | 'organizer';

/**
 * Whether a field of an entry is blank: PHP-empty, but not an object. `{"id": {}}` is a bad
 * id (400), not a missing one that would unlink the venue.
 */
const blankField = (v: unknown) => phpEmpty(v) && !isRecord(v);

/** PHP-empty, or an object/array whose values are all blank. */
export function isEmptyEntry(value: unknown): boolean {
  if (phpEmpty(value)) return true;
  if (isRecord(value) || Array.isArray(value)) return Object.values(value).every(blankField);
  return false;
}

const STRING_FIELDS: Record<LinkedType, string[]> = {
  // `show_map` and `show_map_link` have no check upstream (only a type, which nested data skips).
  venue: ['description', 'address', 'city', 'country', 'province', 'state', 'zip', 'phone', 'stateprovince', 'status'],
  organizer: ['description', 'phone', 'email', 'status'],
};

/** Whether a data object would pass the venue/organizer create validation. */
function validData(type: LinkedType, data: Record<string, unknown>): boolean {
  const name = data[type];
  if (typeof name !== 'string' || name.trim() === '' || name === '0') return false;
  if (!isUrlOrEmpty(data.website ?? '')) return false;
  // An author, unless null, is a user id as the `author` parameter is: a number no column holds is a 400, not a 500.
  if (data.author !== undefined && data.author !== null && namedAuthor(data) === undefined) return false;
  if (type === 'venue' && !validCoordinates(data)) return false;
  return STRING_FIELDS[type].every((f) => data[f] === undefined || blankField(data[f]) || typeof data[f] === 'string');
}

/** A new venue's `geo_lat` and `geo_lng`: both or neither, each a coordinate or `""` (none), as a venue write takes them. */
function validCoordinates(data: Record<string, unknown>): boolean {
  const { geo_lat: lat, geo_lng: lng } = data;
  if (lat === undefined && lng === undefined) return true;
  const valid = (v: unknown, most: number) => v === '' || readCoordinate(v, most) !== undefined;
  return valid(lat, MAX_LAT) && valid(lng, MAX_LNG);
}

/**
 * The entries of an event's `venue` or `organizer` value: a scalar id
 * or comma list, a list of ids / `{id}` / data objects, or a single object; `[]` when empty.
 * `undefined` when an element is neither.
 */
export function parseLinkedEntries(type: LinkedType, value: unknown): LinkedEntry[] | undefined {
  if (isEmptyEntry(value)) return [];
  const elements = Array.isArray(value)
    ? value
    : typeof value === 'string'
      ? value.split(',').map((s) => s.trim())
      : isRecord(value) && Object.keys(value).every((k) => /^\d+$/.test(k))
        ? Object.values(value)
        : [value];
  const entries: LinkedEntry[] = [];
  for (const element of elements) {
    if (isEmptyEntry(element)) continue;
    if (isScalar(element)) {
      const id = toId(element);
      if (id === undefined) return undefined;
      entries.push({ id });
    } else if (isRecord(element)) {
      if (element.id !== undefined && !blankField(element.id)) {
        const id = toId(element.id);
        if (id === undefined) return undefined;
        entries.push({ id });
      } else if (validData(type, element)) entries.push({ data: element });
      else return undefined;
    } else return undefined;
  }
  return entries;
}

/** Reads a `venue` or `organizer` value as {@link parseLinkedEntries} does. */
export type EntryParser = (type: LinkedType, value: unknown) => LinkedEntry[] | undefined;

/** The entries each `venue` (`organizer`) value of a request parsed to. */
const PARSED: Record<LinkedType, MemoKey<Map<unknown, LinkedEntry[] | undefined>>> = {
  venue: new MemoKey('venue values parsed'),
  organizer: new MemoKey('organizer values parsed'),
};

/** A parser that reads each value once per request: the write gets the entries its argument check parsed. */
export function requestEntryParser(ctx: Pick<RequestContext, 'memo'>): EntryParser {
  return (type, value) => {
    const parsed = ctx.memo.get(PARSED[type], () => new Map());
    if (!parsed.has(value)) parsed.set(value, parseLinkedEntries(type, value));
    return parsed.get(value);
  };
}

/** The arguments an event write links by, both lists of ids or data. */
const LINKED: readonly LinkedType[] = ['venue', 'organizer'];
const LINKED_TYPES = new MemoKey<Promise<Map<number, PostType | undefined>>>('types of the ids venue and organizer name');

/**
 * The types of the posts that the request's `venue` and `organizer` name by id, read in one
 * query by the first check that needs one: a create with a venue and an organizer looks both up
 * in one round trip instead of two. A value over the size limits is left out, as its own check
 * refuses it before looking anything up (`limitFailure`, as the argument checks apply it).
 */
function linkedTypes(ctx: RequestContext): Promise<Map<number, PostType | undefined>> {
  return ctx.memo.get(LINKED_TYPES, () => {
    const parse = requestEntryParser(ctx);
    const ids = LINKED.flatMap((type) => {
      const value = ctx.input(type);
      if (value === undefined || limitFailure(type, value, ctx.options.limits, true)) return [];
      return (parse(type, value) ?? []).flatMap((e) => ('id' in e ? [e.id] : []));
    });
    return ctx.services.posts.typesOf(ids);
  });
}

/** The type of the post with this id, from the request's lookup of its linked ids when it made one for it. */
async function typeOf(id: number, ctx: RequestContext): Promise<PostType | undefined> {
  const types = await linkedTypes(ctx);
  return types.has(id) ? types.get(id) : ctx.services.posts.typeOf(id);
}

/** First-pass check of `venue`/`organizer`: every id names an existing item of the type, every author given an existing user. */
export function linkedEntryCheck(type: LinkedType) {
  return async (value: unknown, ctx: RequestContext): Promise<boolean> => {
    const entries = requestEntryParser(ctx)(type, value);
    if (!entries) return false;
    for (const e of entries) {
      if ('id' in e ? (await typeOf(e.id, ctx)) !== type : namedAuthor(e.data) !== undefined && !(await existingUser(e.data.author, ctx))) return false;
    }
    return true;
  };
}
