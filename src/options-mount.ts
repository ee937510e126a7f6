/**
 * The checks every adapter runs when it is mounted: that it was given a calendar, and options
 * it knows, of the right types. A wrong mount then fails where the host wrote it, with the
 * same kind of message `createCalendar` gives, instead of every request later.
 */
import type { Calendar } from './calendar.js';
import { invalidArgument, invalidOption } from './option-error.js';
import { aFunction, aText, checkShapes, isRecord, type OptionShapes } from './options-shape.js';

/** The options every mount takes: where it is, its language, and who is calling. */
export const MOUNT_SHAPES = {
  root: aText("a REST root such as '/wp-json'"),
  locale: aText("a locale such as 'fr'"),
  getUser: aFunction('a function (request) => user or null (or a promise of one)'),
} satisfies OptionShapes;

/**
 * Whether a value is a calendar `createCalendar` made, by what adapters use of it (the package
 * may be loaded twice, as ESM and as CommonJS, so no `instanceof`).
 */
export function isCalendar(value: unknown): value is Calendar {
  return isRecord(value) && typeof value.handle === 'function' && isRecord(value.options) && isRecord(value.options.limits);
}

/** What an adapter takes in place of a calendar, and what was given instead. */
function notACalendar(call: string, name: string, value: unknown): TypeError {
  // The options of a calendar, passed as the calendar: the commonest slip.
  const takes =
    isRecord(value) && 'db' in value ? "the calendar createCalendar(options) returns, not createCalendar's options" : 'the calendar createCalendar() returns';
  return invalidArgument(call, name, value, takes);
}

/**
 * Checks a calendar where an adapter is given one: `call` is the call as the host wrote it
 * (`calendarRouter(calendar, options)`), `name` the argument or option that should hold it.
 */
export function checkCalendar(call: string, name: string, value: unknown): asserts value is Calendar {
  if (!isCalendar(value)) throw notACalendar(call, name, value);
}

/**
 * Checks a mount's options against the adapter's shapes (`MOUNT_SHAPES` and its own): an
 * unknown key is refused with the nearest known one, a value of the wrong type names what it takes.
 */
export function checkMountOptions(where: string, options: unknown, shapes: OptionShapes): void {
  if (options === undefined) return;
  if (!isRecord(options)) throw invalidOption('options', options, 'an object', where);
  checkShapes(options, shapes, where);
}
