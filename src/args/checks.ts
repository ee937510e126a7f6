import { z } from 'zod';
import { phpInteger } from '../php/numeric.js';

/** A positive integer, as a number or digits (`1`, `"2"`; not `0`, `-1`, `1.5`, `""`). */
export const positiveInteger = z.union([
  z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  z
    .string()
    .regex(/^\d{1,15}$/)
    .refine((s) => Number(s) > 0),
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

/** Whether a value is a plain object (a JSON object, or a bracket-notation map). */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Whether a value is a scalar a client may send as a list element. */
export function isScalar(value: unknown): value is string | number {
  return typeof value === 'string' || typeof value === 'number';
}
