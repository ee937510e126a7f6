import type { ParamFailure } from './errors.js';

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
