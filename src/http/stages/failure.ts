/**
 * The error path: whatever a stage threw, answered in the API's error shape. An `ApiError` as
 * it is, a store that cannot be reached as `503`, anything else as `500` reported to `onError`.
 */
import { isDatabaseUnavailable } from '../../store/unavailable.js';
import type { ContextOptions } from '../context.js';
import { callerHeaders } from '../cors.js';
import { explainRefusal } from '../csrf.js';
import { ApiError } from '../errors.js';
import { commonHeaders } from '../headers.js';
import type { CoreRequest, CoreResponse } from '../types.js';
import type { Exchange } from './exchange.js';
import { callerHeadersOf, respond } from './render.js';
import { underNamespace } from './route-match.js';

/** Answers that say the store could not be reached (`isUnavailableAnswer`). */
const UNAVAILABLE = new WeakSet<CoreResponse>();

/** Whether `dispatch` answered 503 because the store of its node could not be reached (another node may answer). */
export function isUnavailableAnswer(response: CoreResponse | null): boolean {
  return response !== null && UNAVAILABLE.has(response);
}

function errorBody(error: unknown, options: ContextOptions): ApiError {
  if (error instanceof ApiError) return error;
  if (isDatabaseUnavailable(error)) {
    return new ApiError('rest_service_unavailable', 'The calendar store is unavailable; try again shortly.', { status: 503 });
  }
  options.onError(error);
  return new ApiError('rest_internal_error', 'The server could not complete the request.', { status: 500 });
}

/** The answer to a request a stage threw on: with what the stages had learnt (mount URLs, `Allow`, caller). */
export function failure(x: Exchange, error: unknown): CoreResponse {
  const { options } = x.core;
  const e = explainRefusal(errorBody(error, options), x.csrfRefusal);
  const headers = commonHeaders(x.urls, options.cors);
  if (x.allow !== undefined) headers.Allow = x.allow;
  Object.assign(headers, callerHeadersOf(x));
  const answer = respond(e.status, headers, e.toJSON(), x.method === 'HEAD');
  if (!(error instanceof ApiError) && isDatabaseUnavailable(error)) UNAVAILABLE.add(answer);
  return answer;
}

/**
 * The answer to a request the calendar cannot serve at all (its store did not open, or its
 * tables are not set up): the error in the API's shape; `null` outside the namespace.
 */
export function failedStart(options: ContextOptions, req: CoreRequest, error: unknown): CoreResponse | null {
  if (underNamespace(req.path, options.namespace) === null) return null;
  const e = errorBody(error, options);
  const method = req.method.toUpperCase();
  const headers = { ...commonHeaders(undefined, options.cors), ...callerHeaders(req.headers, method, null, options.cors) };
  return respond(e.status, headers, e.toJSON(), method === 'HEAD');
}
