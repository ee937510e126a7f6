import type { ParamFailure } from '../args/failure.js';
import { DEFAULT_PARSE_LIMITS, type ParseLimits } from './params.js';
import { invalidOption } from '../option-error.js';

/**
 * Every bound a calendar puts on what one request can make it do (docs/security.md, "Limits"):
 * what request parsing builds, the size of one value, and the work a value multiplies.
 */
export interface Limits extends ParseLimits {
  /** Most words (events) or fragments (venues, organizers) one `search` is cut into. */
  searchTerms: number;
  /**
   * Most events one events `search` may test on SQLite, where the test runs on the server's own
   * thread: the search index's candidates, or, for words it cannot look up (under three
   * characters) or too common, every event of the window asked, up to half as many (each is
   * read twice: counted, then tested). A search beyond it is refused (400).
   */
  searchTests: number;
  /**
   * Longest an events archive may take to count its matches (its total), in milliseconds,
   * waiting included, where the count runs beside the event loop (a SQLite file the calendar
   * opened itself): the count is then stopped and the request answered 503
   * `rest_count_too_slow`. A count on the calendar's own connection cannot be stopped.
   */
  countMs: number;
  /** Largest image side-loaded from a URL, in bytes. */
  imageBytes: number;
  /** Bytes of images being side-loaded at once, all requests together (bodies wait their turn). */
  imageBytesInFlight: number;
  /** Most images one write may side-load (its own, and those of the venue and organizers it creates). */
  imagesPerRequest: number;
}

/** The limits used when a calendar does not set its own. */
export const DEFAULT_LIMITS: Limits = {
  ...DEFAULT_PARSE_LIMITS,
  searchTerms: 32,
  searchTests: 5_000,
  countMs: 30_000,
  imageBytes: 10 * 1024 * 1024,
  imageBytesInFlight: 32 * 1024 * 1024,
  imagesPerRequest: 10,
};

/** A calendar's limits: the defaults with the host's own; a limit that is not a whole number ≥ 0 is refused at once. */
export function resolveLimits(given: Partial<Limits> = {}): Limits {
  for (const name of Object.keys(given)) {
    if (!Object.hasOwn(DEFAULT_LIMITS, name))
      throw invalidOption(
        `limits.${name}`,
        given[name as keyof Limits],
        `nothing: it is not a limit (the limits are ${Object.keys(DEFAULT_LIMITS).join(', ')})`,
      );
  }
  const limits = { ...DEFAULT_LIMITS, ...given };
  for (const [name, value] of Object.entries(limits)) {
    if (!Number.isSafeInteger(value) || value < 0) throw invalidOption(`limits.${name}`, value, 'a whole number of at least 0 (a count, or bytes)');
  }
  return limits;
}

/** Bounds on any one parameter value, whatever its source (part of the calendar's `limits`). */
export interface ValueLimits {
  /** Longest string (characters). */
  stringLength: number;
  /** Most elements in one list (also the elements of a comma-separated list). */
  listItems: number;
  /**
   * Deepest nesting of arrays and objects in one value: bracket notation deeper than this
   * (`a[b][c]…`) leaves its remainder in one extra level, and JSON may nest as deep as it
   * likes, so both are refused here alike.
   */
  depth: number;
}

/** How `wp_parse_list` splits a string list (commas and white space), for counting its items. */
const LIST_SEPARATOR = /[\s,]+/;

/** Whether a value (and everything inside it) stays within the limits. */
function within(value: unknown, limits: ValueLimits, depth: number, list: boolean): boolean {
  if (depth > limits.depth) return false;
  if (typeof value === 'string') return value.length <= limits.stringLength && (!list || value.split(LIST_SEPARATOR).length <= limits.listItems);
  if (Array.isArray(value)) return value.length <= limits.listItems && value.every((v) => within(v, limits, depth + 1, false));
  if (typeof value === 'object' && value !== null) {
    const entries = Object.values(value);
    return entries.length <= limits.listItems && entries.every((v) => within(v, limits, depth + 1, false));
  }
  return true;
}

/** A failure for a parameter over the limits, or `undefined`; `list` args also count comma-separated items. */
export function limitFailure(name: string, value: unknown, limits: ValueLimits, list: boolean): ParamFailure | undefined {
  if (within(value, limits, 0, list)) return undefined;
  const message = `${name} is too large.`;
  return { message, detail: { code: 'rest_param_too_large', message, data: { param: name } } };
}
