import { z } from 'zod';
import { phpInteger } from '../php/numeric.js';

/** Largest id the store can hold (32-bit on PostgreSQL and MySQL). */
export const MAX_ID = 2_147_483_647;

/** A positive integer, as a number or digits (`1`, `"2"`; not `0`, `-1`, `1.5`, `""`). */
export const positiveInteger = z.union([
  z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  z.string().regex(/^\d{1,15}$/).refine((s) => Number(s) > 0),
]);

/**
 * A positive integer as TEC's `is_positive_int` reads it: PHP-numeric with a whole value
 * above zero (`1`, `"2"`, `" 1"`, `"+1"`, `"1e0"`; not `0`, `-1`, `1.5`, `""`).
 */
export const phpPositiveInteger = z.custom<unknown>((v) => (phpInteger(v) ?? 0) > 0);

/** A non-empty string (PHP's `empty()` also rejects `"0"`). */
export const nonEmptyString = z.string().refine((s) => s !== '' && s !== '0');

/** A boolean as WordPress accepts it (used where a check, not the type pass, decides). */
export const booleanLike = z.union([z.boolean(), z.literal(0), z.literal(1), z.string().regex(/^(true|false|1|0)$/i)]);

/** Splits a CSV string or array parameter into its elements (`wp_parse_list`). */
export function parseList(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value;
  if (typeof value === 'string') return value.split(/[\s,]+/).filter((s) => s !== '');
  if (typeof value === 'number') return [value];
  if (typeof value === 'object' && value !== null) {
    // `include[0]=1&include[200]=2` arrives as an object with numeric keys.
    const entries = Object.entries(value);
    return entries.every(([k]) => /^\d+$/.test(k)) ? entries.map(([, v]) => v) : undefined;
  }
  return undefined;
}

/** An id from a number or a digit string, or `undefined` when it cannot be a stored id. */
export function toId(value: unknown): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\d{1,10}$/.test(value.trim()) ? Number(value) : NaN;
  return Number.isInteger(n) && n > 0 && n <= MAX_ID ? n : undefined;
}

/** Whether a value is a scalar a client may send as a list element. */
export function isScalar(value: unknown): value is string | number {
  return typeof value === 'string' || typeof value === 'number';
}
