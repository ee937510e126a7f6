import { INVALID_PARAMETER, type ParamFailure } from '../args/failure.js';
import type { PhpJsonError } from '../php/json-errors.js';

/** Data attached to an error; `status` sets the HTTP status. */
export type ErrorData = ({ status: number } & Record<string, unknown>) | null;

/**
 * An error answered as the API's JSON error body: `{code, message, data}`.
 * Thrown anywhere below the pipeline; the pipeline turns it into a response.
 */
export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly data: ErrorData,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }

  get status(): number {
    return this.data?.status ?? 500;
  }

  toJSON(): Record<string, unknown> {
    return { code: this.code, message: this.message, data: this.data, ...this.extra };
  }
}

/** A plain `{code, message, data: {status}}` error. */
export function apiError(code: string, message: string, status: number): ApiError {
  return new ApiError(code, message, { status });
}

/** 404 `rest_no_route`. */
export function noRoute(): ApiError {
  return apiError('rest_no_route', 'No route was found matching the URL and request method.', 404);
}

/** 400 `rest_invalid_json`, with the code and message PHP's decoder gave. */
export function invalidJson(error: PhpJsonError): ApiError {
  return new ApiError('rest_invalid_json', 'Invalid JSON body passed.', {
    status: 400,
    json_error_code: error.code,
    json_error_message: error.message,
  });
}

/** 400 `rest_missing_callback_param` listing the missing names. */
export function missingParams(names: string[]): ApiError {
  return new ApiError('rest_missing_callback_param', `Missing parameter(s): ${names.join(', ')}`, {
    status: 400,
    params: names,
  });
}

/** 400 `rest_invalid_param` for the failing parameters, in declaration order. */
export function invalidParams(failures: Map<string, ParamFailure>): ApiError {
  const params: Record<string, string> = {};
  const details: Record<string, unknown> = {};
  for (const [name, failure] of failures) {
    params[name] = failure.message;
    if (failure.detail) details[name] = failure.detail;
  }
  return new ApiError('rest_invalid_param', `Invalid parameter(s): ${[...failures.keys()].join(', ')}`, {
    status: 400,
    params,
    details: Object.keys(details).length ? details : [],
  });
}

/** 400 `rest_invalid_param` for a single parameter with the generic message. */
export function invalidParam(name: string): ApiError {
  return invalidParams(new Map([[name, { message: INVALID_PARAMETER }]]));
}

/** `rest_forbidden`: 401 for anonymous callers, 403 for signed-in ones. */
export function forbidden(signedIn: boolean): ApiError {
  return apiError('rest_forbidden', 'Sorry, you are not allowed to do that.', signedIn ? 403 : 401);
}
