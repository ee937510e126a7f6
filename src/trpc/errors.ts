import { isRecord } from '../args/checks.js';
import { TRPCError, type TRPC_ERROR_CODE_KEY } from '@trpc/server';
import { ApiError, type ErrorData } from '../http/errors.js';

/** The API's JSON error body (`{code, message, data: {status, params?, details?}}`). */
export interface ApiErrorBody {
  code: string;
  message: string;
  data: ErrorData;
  [key: string]: unknown;
}

/**
 * tRPC codes by the API's HTTP status. tRPC has no GONE: 410 (trashing what is already in
 * the trash) becomes PRECONDITION_FAILED, because the item still exists (it can be read
 * by an editor or deleted with `force`), so NOT_FOUND would mislead.
 */
const BY_STATUS: Record<number, TRPC_ERROR_CODE_KEY> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_SUPPORTED',
  409: 'CONFLICT',
  410: 'PRECONDITION_FAILED',
  412: 'PRECONDITION_FAILED',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  422: 'UNPROCESSABLE_CONTENT',
  429: 'TOO_MANY_REQUESTS',
  503: 'SERVICE_UNAVAILABLE',
};

/** The tRPC code of an API status: other 4xx are BAD_REQUEST, other 5xx INTERNAL_SERVER_ERROR. */
export function trpcCode(status: number): TRPC_ERROR_CODE_KEY {
  return BY_STATUS[status] ?? (status >= 500 ? 'INTERNAL_SERVER_ERROR' : 'BAD_REQUEST');
}

/** Whether a value has the API error body's shape. */
function isApiErrorBody(v: unknown): v is ApiErrorBody {
  return isRecord(v) && typeof v.code === 'string' && typeof v.message === 'string' && 'data' in v;
}

/** A TRPCError for an API error; the API error stays reachable as its `cause` (see {@link apiErrorOf}). */
export function toTRPCError(error: ApiError, status = error.status): TRPCError {
  return new TRPCError({ code: trpcCode(status), message: error.message, cause: error });
}

/** The TRPCError for an API error response (status ≥ 400), its body kept as is. */
export function errorFromResponse(status: number, body: unknown): TRPCError {
  const api = isApiErrorBody(body) ? apiErrorFromBody(body) : new ApiError('rest_internal_error', 'The server could not complete the request.', { status });
  return toTRPCError(api, status);
}

/** Rebuilds an {@link ApiError} from a response body (extra top-level keys kept). */
export function apiErrorFromBody(body: ApiErrorBody): ApiError {
  const { code, message, data, ...extra } = body;
  return new ApiError(code, message, data, extra);
}

/**
 * The API error behind a tRPC error (`{code, message, data}`, as the HTTP API answers it),
 * or `undefined` when the error did not come from the calendar. Duck-typed, so that it
 * works across copies of the library (ESM and CJS builds).
 */
export function apiErrorOf(error: unknown): ApiErrorBody | undefined {
  const cause = isRecord(error) ? error.cause : undefined;
  if (!isRecord(cause) || typeof cause.toJSON !== 'function') return undefined;
  const json: unknown = cause.toJSON();
  return isApiErrorBody(json) ? json : undefined;
}

/**
 * An `errorFormatter` for `initTRPC.create({ errorFormatter })`: adds the API error to the
 * shape's `data.api` (`null` for errors that are not the calendar's), so that a client
 * over HTTP can read `rest_invalid_param` and its `params`.
 */
export function calendarErrorFormatter<S extends { data: object }>(opts: { shape: S; error: unknown }): S & { data: S['data'] & { api: ApiErrorBody | null } } {
  return { ...opts.shape, data: { ...opts.shape.data, api: apiErrorOf(opts.error) ?? null } };
}
