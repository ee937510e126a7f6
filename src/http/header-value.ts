import type { Headers } from './types.js';

/** The first value of a request header (the core's header names are lower case). */
export function headerValue(headers: Headers, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}
