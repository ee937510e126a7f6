import { isRecord } from '../args/checks.js';
import { z } from 'zod';
import type { WpType } from '../args/arg.js';
import { ROUTES, type Calendar } from '../calendar.js';
import type { ApiError } from '../http/errors.js';
import type { Method, Route } from '../http/route.js';
import type { CalendarContext } from './context.js';
import { errorFromResponse } from './errors.js';
import { inputError, inputFields, inputSchema, type InputFields } from './inputs.js';

/** One way to address an operation: a route, the verb that selects its endpoint, and its input. */
interface Variant {
  route: Route;
  verb: Method;
  /** Input keys that fill the route's path instead of being sent as parameters. */
  captures: readonly string[];
  fields: InputFields;
  schema: z.ZodType;
}

/**
 * An operation of the API as a procedure runs it: its input schema and its variants
 * (an item by `id` or by `slug`). `I` is the input type the schema stands for.
 */
export interface Operation<I> {
  schema: z.ZodType<I, I>;
  variants: readonly Variant[];
}

const CAPTURE = /\(\?P<(\w+)>([^)]*)\)/g;

/** The path captures of a route pattern and their JSON types (`\d+` → integer). */
function capturesOf(pattern: string): Record<string, WpType> {
  return Object.fromEntries([...pattern.matchAll(CAPTURE)].map(([, name, body]) => [name, body === '\\d+' ? 'integer' : 'string']));
}

/**
 * The operation `verb` selects on each of `patterns` (route patterns of `routes`, the calendar's, relative
 * to the namespace): its input comes from the very argument declarations the HTTP pipeline
 * validates. `extra` declares keys a handler reads without declaring them.
 */
export function operation<I>(verb: Method, patterns: readonly string[], extra: InputFields = {}, routes: readonly Route[] = ROUTES): Operation<I> {
  const variants = patterns.map((pattern): Variant => {
    const route = routes.find((r) => r.pattern === pattern);
    const endpoint = route?.endpoints.find((e) => (e.methods as readonly string[]).includes(verb));
    if (!route || !endpoint) throw new Error(`calendar tRPC router: no ${verb} ${pattern} in ROUTES`);
    const captures = capturesOf(pattern);
    const fields = inputFields(endpoint.args, captures, extra);
    return { route, verb, captures: Object.keys(captures), fields, schema: inputSchema(fields) };
  });
  const schemas = variants.map((v) => v.schema);
  const schema = schemas.length === 1 ? schemas[0] : z.union(schemas);
  return { schema: schema as z.ZodType<I, I>, variants };
}

/** The variant an input addresses: the first whose path keys it all has (else the first, to report them missing). */
function variantFor(op: Operation<unknown>, input: unknown): Variant {
  const values = isRecord(input) ? input : {};
  const variant = op.variants.find((v) => v.captures.every((c) => values[c] !== undefined && values[c] !== null)) ?? op.variants[0];
  if (!variant) throw new Error('calendar tRPC router: an operation without routes');
  return variant;
}

/** The API error an HTTP client would get for this input's shape, if it is wrong. */
export function operationInputError(op: Operation<unknown>, raw: unknown): ApiError | undefined {
  return inputError(variantFor(op, raw).fields, raw);
}

/**
 * Runs an operation through the calendar's pipeline (validation, permissions, handler)
 * as the context's user, and returns the JSON body; an error answer becomes a TRPCError.
 */
export async function perform(calendar: Pick<Calendar, 'call'>, op: Operation<unknown>, input: unknown, ctx: CalendarContext): Promise<unknown> {
  const variant = variantFor(op, input);
  const values = isRecord(input) ? input : {};
  const path = variant.route.pattern.replace(CAPTURE, (_, name: string) => encodeURIComponent(String(values[name])));
  const params = Object.fromEntries(Object.entries(values).filter(([key, value]) => value !== undefined && !variant.captures.includes(key)));
  const result = await calendar.call(variant.verb, path, {
    params,
    user: ctx.user ?? null,
    locale: ctx.locale,
    root: ctx.root,
    headers: ctx.headers,
    protocol: ctx.protocol,
  });
  if (result.status >= 400) throw errorFromResponse(result.status, result.body);
  return result.body;
}
