/**
 * Check: an endpoint's declared arguments against what the request sent, in the order of
 * WordPress' REST server: defaults, required, size limits and declared checks, then types.
 */
import { runCheck, typeFailure, type Arg } from '../../args/arg.js';
import { INVALID_PARAMETER, type ParamFailure } from '../../args/failure.js';
import type { Endpoint, RequestContext } from '../context.js';
import { invalidParams, missingParams, type ApiError } from '../errors.js';
import { limitFailure } from '../limits.js';
import { ORDER, type Sources } from './request-context.js';

type Declared = [name: string, arg: Arg<unknown, boolean, RequestContext>][];

/** Fills `sources.defaults` from the declarations (a default may be computed from the context). */
function addDefaults(args: Declared, ctx: RequestContext, sources: Sources): void {
  for (const [name, a] of args) {
    const d = a.doc.default;
    const value = typeof d === 'function' ? d(ctx) : d;
    if (value !== undefined && value !== null) sources.defaults[name] = value;
  }
}

/** Size limits, then the declared checks, of every value sent (`failures` collects what fails). */
async function checkValues(args: Declared, ctx: RequestContext, failures: Map<string, ParamFailure>): Promise<void> {
  for (const [name, a] of args) {
    const value = ctx.input(name);
    if (value === undefined) continue;
    // Oversized values are refused before any check looks at them (or the store does).
    const tooLarge = limitFailure(name, value, ctx.options.limits, a.doc.items !== undefined);
    if (tooLarge) {
      failures.set(name, tooLarge);
      continue;
    }
    if (!a.check) continue;
    const f = await runCheck(a.check, value, ctx);
    if (f) failures.set(name, f);
  }
}

function safeCoerce(a: Arg<unknown, boolean, RequestContext>, value: unknown): { value: unknown } | undefined {
  try {
    return a.coerce(value);
  } catch {
    return undefined;
  }
}

/** The values as their declared types (`failures` collects what fails). */
function typedValues(args: Declared, ctx: RequestContext, sources: Sources, failures: Map<string, ParamFailure>): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  for (const [name, a] of args) {
    // WordPress type-checks the value of every source, not only the one looked up: a JSON
    // `null` (absent for lookup) still fails a typed argument, even when a lower source has a value.
    const type = a.sanitizes ? undefined : a.doc.type;
    if (type && ORDER.some((s) => Object.hasOwn(sources[s], name) && sources[s][name] !== undefined && !safeCoerce(a, sources[s][name]))) {
      failures.set(name, typeFailure(name, type));
      continue;
    }
    const value = ctx.input(name);
    if (value === undefined) continue;
    const coerced = safeCoerce(a, value);
    if (coerced) params[name] = coerced.value;
    else failures.set(name, { message: INVALID_PARAMETER });
  }
  return params;
}

/**
 * The endpoint's parameters, or the error that refuses them: a body that is not JSON (after the
 * defaults are filled in, which the `Allow` header's permission checks may read), missing
 * required ones, then invalid ones.
 */
export async function checkParams(
  endpoint: Endpoint,
  ctx: RequestContext,
  sources: Sources,
  bodyError: ApiError | undefined,
): Promise<Record<string, unknown> | ApiError> {
  const args: Declared = Object.entries(endpoint.args);
  addDefaults(args, ctx, sources);
  if (bodyError) return bodyError;
  const missing = args.filter(([name, a]) => a.required && ctx.input(name) === undefined).map(([name]) => name);
  if (missing.length) return missingParams(missing);
  const failures = new Map<string, ParamFailure>();
  await checkValues(args, ctx, failures);
  if (failures.size) return invalidParams(failures);
  const params = typedValues(args, ctx, sources, failures);
  return failures.size ? invalidParams(failures) : params;
}
