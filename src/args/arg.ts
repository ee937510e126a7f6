import { z } from 'zod';
import { isPhpNumeric, phpInteger } from '../php/numeric.js';
import { INVALID_PARAMETER, type ParamFailure } from './failure.js';
import type { Description } from '../i18n/index.js';

/** The JSON types WordPress knows for request arguments. */
export type WpType = 'integer' | 'number' | 'boolean' | 'string' | 'array' | 'object';

/**
 * What the namespace index shows of an argument, in the order it shows it. A function
 * `default` is computed per request (the events archive's date window).
 */
export interface ArgDoc {
  default?: unknown;
  description?: Description;
  type?: WpType;
  format?: string;
  items?: { type: WpType };
  enum?: readonly string[];
}

/** Outcome of a first-pass check: `true` passes, `false` is the generic failure. */
export type CheckResult = boolean | ParamFailure;

/**
 * A first-pass check ("validate callback"): a zod schema, or a function when the answer
 * needs the store or the caller.
 */
export type Check<C> = z.ZodType | ((value: unknown, ctx: C) => CheckResult | Promise<CheckResult>);

type TypeOf<D extends ArgDoc> = D['type'] extends 'integer' | 'number'
  ? number
  : D['type'] extends 'boolean'
    ? boolean
    : D['type'] extends 'string'
      ? string
      : unknown;

/**
 * One declared argument: its documentation, its check, and its coercion. `T` is what a handler
 * receives; `I` what a typed client sends (see `accepts`).
 */
export interface Arg<T = unknown, Required extends boolean = boolean, C = unknown, I = T> {
  readonly doc: ArgDoc;
  readonly required: Required;
  readonly check?: Check<C>;
  /** Second pass: `type` coercion, or the argument's own sanitiser. `undefined` = failed. */
  readonly coerce: (value: unknown) => { value: T } | undefined;
  /** Whether `coerce` is the argument's own sanitiser (it then reports no type error). */
  readonly sanitizes: boolean;
  /** Where `/doc` says the argument goes (`path` for captures; else by operation). */
  readonly in?: 'path' | 'query';
  /** Comma-list arguments are documented with `style: form`. */
  readonly style?: 'form';
  /** The type `/doc` shows when it differs from the checked one (upstream's `swagger_type`). */
  readonly swaggerType?: WpType;
  /**
   * The JSON values a typed client sends, for an argument without a JSON type whose check lets
   * several shapes through (a venue id or the fields of a new venue): the tRPC input and the
   * complete `/doc` describe it with this. The check and the handler still see any value.
   */
  readonly accepts?: z.ZodType<I>;
  /**
   * An argument of this library's own on one of upstream's routes (`recurrence`, `scope`): the
   * namespace index and the original `/doc` show upstream's routes as upstream does, so they
   * leave it out; it is checked like any other, and the complete `/doc` and tRPC show it.
   */
  readonly addition?: boolean;
}

/** A record of declared arguments, keyed by name, in declaration order. */
export type Args<C = unknown> = Record<string, Arg<unknown, boolean, C>>;

/** The values a handler receives for its declared arguments. */
export type ParamsOf<A> = {
  [K in keyof A]: A[K] extends Arg<infer T, infer R, infer _C, infer _I> ? (R extends true ? T : T | undefined) : never;
};

/** zod coercions for WordPress' `type` pass (`rest_sanitize_value_from_schema`). */
export const typeSchemas = {
  // `rest_is_integer`: a number or PHP-numeric string with a whole value (`" 1"`, `"1e0"`).
  integer: z
    .union([z.number(), z.string()])
    .transform((v) => phpInteger(v))
    .pipe(z.number()),
  // `rest_is_number`: PHP's `is_numeric`.
  number: z.union([z.number(), z.string().refine(isPhpNumeric).transform(Number)]).pipe(z.number().refine(Number.isFinite)),
  boolean: z.union([
    z.boolean(),
    z.literal(0).transform(() => false),
    z.literal(1).transform(() => true),
    z
      .string()
      .toLowerCase()
      .pipe(z.enum(['true', 'false', '1', '0']))
      .transform((s) => s === 'true' || s === '1'),
  ]),
  string: z.string(),
} satisfies Partial<Record<WpType, z.ZodType>>;

interface ArgOptions<T, R extends boolean, C, I> {
  required?: R;
  check?: Check<C>;
  /** The argument's own sanitiser: replaces the type pass (and its errors). */
  sanitize?: (value: unknown) => T;
  in?: 'path' | 'query';
  style?: 'form';
  swaggerType?: WpType;
  accepts?: z.ZodType<I>;
  addition?: boolean;
}

/** Declares an argument: `doc` is what the index shows, `options` how it is checked. */
export function arg<const D extends ArgDoc, T = TypeOf<D>, R extends boolean = false, C = unknown, I = T>(
  doc: D,
  options: ArgOptions<T, R, C, I> = {},
): Arg<T, R, C, I> {
  const schema = doc.type ? (typeSchemas as Record<string, z.ZodType | undefined>)[doc.type] : undefined;
  const sanitize = options.sanitize;
  const coerce = sanitize
    ? (value: unknown) => ({ value: sanitize(value) })
    : schema
      ? (value: unknown) => {
          const r = schema.safeParse(value);
          return r.success ? { value: r.data as T } : undefined;
        }
      : (value: unknown) => ({ value: value as T });
  return {
    doc,
    required: (options.required ?? false) as R,
    check: options.check,
    coerce,
    sanitizes: sanitize !== undefined,
    in: options.in,
    style: options.style,
    swaggerType: options.swaggerType,
    accepts: options.accepts,
    addition: options.addition,
  };
}

/** Runs a first-pass check. */
export async function runCheck<C>(check: Check<C>, value: unknown, ctx: C): Promise<ParamFailure | undefined> {
  let result: CheckResult;
  if (typeof check === 'function') result = await check(value, ctx);
  else result = (await check.safeParseAsync(value)).success;
  if (result === true) return undefined;
  if (result === false) return { message: INVALID_PARAMETER };
  return result;
}

/** The failure reported by the type pass (`<name> is not of type <type>.`). */
export function typeFailure(name: string, type: WpType): ParamFailure {
  const message = `${name} is not of type ${type}.`;
  return { message, detail: { code: 'rest_invalid_type', message, data: { param: name } } };
}
