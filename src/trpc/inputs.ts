import { isRecord } from '../args/checks.js';
import { z } from 'zod';
import { typeFailure, type Args, type Check, type WpType } from '../args/arg.js';
import { JSON_TYPES } from '../args/accepted.js';
import type { RequestContext } from '../http/context.js';
import { type ApiError, invalidParams, missingParams } from '../http/errors.js';
import { INVALID_PARAMETER, type ParamFailure } from '../args/failure.js';

export type { ArgsInput } from '../args/accepted.js';

/** One key of a procedure's input, as the runtime schema and the error mapping see it. */
export interface InputField {
  /** The argument's JSON type; none = any JSON value. */
  type?: WpType;
  required: boolean;
  /**
   * The argument has its own sanitiser instead of the type pass (`per_page`): like over
   * HTTP, a bad value is "Invalid parameter." (no type error) and `null` counts as absent.
   */
  plain: boolean;
  /** The argument's first-pass check, which decides the message of a bad value over HTTP. */
  check?: Check<RequestContext>;
  /** The shapes the argument accepts, when it declares them instead of a JSON type. */
  accepts?: z.ZodType;
}

/** Input fields by key, in declaration order. */
export type InputFields = Record<string, InputField>;

function fieldSchema(f: InputField): z.ZodType {
  const base = f.accepts ?? (f.type ? JSON_TYPES[f.type]() : z.unknown());
  if (f.required) return base;
  return f.plain ? base.nullish() : base.optional();
}

/**
 * The input fields of an endpoint: its route's path captures (required; `\d+` captures
 * are integers), then its declared arguments with their JSON types. `extra` adds keys
 * the handler reads without declaring them (`force` of deletes).
 */
export function inputFields(args: Args<RequestContext>, captures: Record<string, WpType>, extra: InputFields = {}): InputFields {
  const fields: InputFields = {};
  for (const [name, type] of Object.entries(captures)) {
    const declared = args[name]?.in === 'path' ? args[name] : undefined;
    fields[name] = { type: declared?.doc.type ?? type, required: true, plain: false, check: declared?.check };
  }
  for (const [name, a] of Object.entries(args)) {
    if (name in fields) continue;
    fields[name] = { type: a.doc.type, required: a.required, plain: a.sanitizes, check: a.check, accepts: a.accepts };
  }
  return { ...fields, ...extra };
}

/** The zod object of input fields; optional as a whole when no key is required. */
export function inputSchema(fields: InputFields): z.ZodType {
  const object = z.object(Object.fromEntries(Object.entries(fields).map(([name, f]) => [name, fieldSchema(f)])));
  return Object.values(fields).some((f) => f.required) ? object : object.optional();
}

/**
 * The API error a client would get over HTTP for an input that fails its schema, in the
 * pipeline's order: missing required arguments first (`rest_missing_callback_param`),
 * then bad values (`rest_invalid_param`, with `rest_invalid_type` details); `undefined`
 * when the input is valid.
 */
export function inputError(fields: InputFields, raw: unknown): ApiError | undefined {
  const input = raw === undefined ? {} : raw;
  const names = Object.keys(fields);
  if (!isRecord(input)) {
    const required = names.filter((n) => fields[n]?.required);
    return required.length ? missingParams(required) : invalidParams(new Map([['input', { message: INVALID_PARAMETER }]]));
  }
  // A JSON `null` counts as absent over HTTP, so a required argument sent as `null` is missing.
  const missing = names.filter((n) => fields[n]?.required && (input[n] === undefined || input[n] === null));
  if (missing.length) return missingParams(missing);
  // Over HTTP the checks run first ("Invalid parameter."); the type pass only if they all passed.
  const checks = new Map<string, ParamFailure>();
  const types = new Map<string, ParamFailure>();
  for (const name of names) {
    const f = fields[name];
    const value = input[name];
    if (!f || value === undefined || fieldSchema(f).safeParse(value).success) continue;
    if (f.plain || !f.type || failsCheck(f.check, value)) checks.set(name, { message: INVALID_PARAMETER });
    else types.set(name, typeFailure(name, f.type));
  }
  if (checks.size) return invalidParams(checks);
  return types.size ? invalidParams(types) : undefined;
}

/**
 * Whether a check rejects a value of the wrong type. A function check needs the request
 * (the store, the caller); a value of the wrong type is assumed to fail it.
 */
function failsCheck(check: Check<RequestContext> | undefined, value: unknown): boolean {
  if (check === undefined) return false;
  if (typeof check === 'function') return true;
  return !check.safeParse(value).success;
}
