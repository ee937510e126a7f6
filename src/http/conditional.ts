/**
 * Conditional requests (RFC 9110 §13): entity tags and dates on successful reads, `304 Not
 * Modified` for a client that already holds the answer, `412 Precondition Failed` for a write
 * whose client holds a stale one. Additions of this library: the original sends none of them.
 */
import { ApiError } from './errors.js';
import { headerValue } from './header-value.js';
import { sha1 } from './raw-json.js';
import type { Headers } from './types.js';

/**
 * The strong entity tag of an answer: a digest of its exact bytes, so that it differs
 * whenever what the caller is shown differs (their own drafts, a redacted password, the mount's
 * URLs), and two instances give equal answers equal tags. JSON that keeps its digest (a page of
 * kept items, `RawJson`) gives it, computed from its parts.
 */
export function entityTag(body: Uint8Array | { digest(): string }): string {
  return `"${body instanceof Uint8Array ? sha1(body) : body.digest()}"`;
}

/** The tags of an `If-Match` / `If-None-Match` value: `*`, or the listed tags (weak ones with `W/`). */
function listedTags(value: string): '*' | string[] {
  if (value.trim() === '*') return '*';
  return [...value.matchAll(/(W\/)?"[^"]*"/g)].map((m) => m[0]);
}

/** Weak comparison (RFC 9110 §8.8.3.2): the opaque tags are equal, `W/` or not. */
const weakly = (a: string, b: string) => a.replace(/^W\//, '') === b.replace(/^W\//, '');

/** An HTTP date's instant in whole seconds, or `undefined` when the value is not one. */
function httpSeconds(value: string | undefined): number | undefined {
  if (!value) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : Math.floor(ms / 1000);
}

/**
 * Whether a read may answer `304 Not Modified` (RFC 9110 §13.1.2, §13.1.3): an `If-None-Match`
 * that lists the answer's tag, or, without one, an `If-Modified-Since` not before its
 * `Last-Modified`.
 */
export function notModified(request: Headers, etag: string, lastModified: string | undefined): boolean {
  const noneMatch = headerValue(request, 'if-none-match');
  if (noneMatch !== undefined) {
    const tags = listedTags(noneMatch);
    return tags === '*' || tags.some((t) => weakly(t, etag));
  }
  const since = httpSeconds(headerValue(request, 'if-modified-since'));
  const modified = httpSeconds(lastModified);
  return since !== undefined && modified !== undefined && modified <= since;
}

/** The headers of a `304` for an answer's headers: all but those that describe a body. */
export function notModifiedHeaders(headers: Record<string, string>): Record<string, string> {
  const { 'Content-Type': _type, ...rest } = headers;
  return rest;
}

/** Whether a write carries a precondition (`If-Match`, `If-Unmodified-Since`, `If-None-Match`). */
export function hasPrecondition(request: Headers): boolean {
  return ['if-match', 'if-unmodified-since', 'if-none-match'].some((name) => headerValue(request, name) !== undefined);
}

/** What a read of a write's URL answers its caller now: its status, and its tag and date when 200. */
export interface CurrentRepresentation {
  status: number;
  etag?: string;
  lastModified?: string;
}

/**
 * Checks a write's preconditions (RFC 9110 §13.2.2: `If-Match`, else `If-Unmodified-Since`,
 * then `If-None-Match`) against the item as a read by the same caller answers now: a stale tag
 * or date is a `412` in the API's error shape, and nothing is written. An item that does not
 * exist (404, 410) is left to the write's own answer (§13.2.1: preconditions are ignored when
 * the request would fail without them).
 */
export function checkPreconditions(request: Headers, current: CurrentRepresentation): void {
  if (current.status === 404 || current.status === 410) return;
  const etag = current.status === 200 ? current.etag : undefined;
  const match = headerValue(request, 'if-match');
  if (match !== undefined) {
    const tags = listedTags(match);
    // Strong comparison: a weak tag never matches (§13.1.1).
    if (etag === undefined || (tags !== '*' && !tags.some((t) => !t.startsWith('W/') && t === etag))) throw preconditionFailed();
  } else {
    const since = httpSeconds(headerValue(request, 'if-unmodified-since'));
    // Ignored where the item has no modification date (§13.1.4): events and terms.
    const modified = httpSeconds(current.lastModified);
    if (since !== undefined && modified !== undefined && modified > since) throw preconditionFailed();
  }
  const noneMatch = headerValue(request, 'if-none-match');
  if (noneMatch !== undefined && etag !== undefined) {
    const tags = listedTags(noneMatch);
    if (tags === '*' || tags.some((t) => weakly(t, etag))) throw preconditionFailed();
  }
}

/** The `412` of a write whose precondition does not hold. */
export function preconditionFailed(): ApiError {
  return new ApiError(
    'rest_precondition_failed',
    'The item has changed since the version the request is based on (If-Match, If-Unmodified-Since): read it again.',
    {
      status: 412,
    },
  );
}

/** An instant as an HTTP date (`Last-Modified`). */
export function httpDate(utc: Date): string {
  return utc.toUTCString();
}
