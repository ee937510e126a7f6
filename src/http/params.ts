import { isRecord } from '../args/checks.js';
import qs from 'qs';
import { invalidJson, type ApiError } from './errors.js';
import { headerValue } from './header-value.js';
import { mayFailInPhp, phpJsonError, SYNTAX } from '../php/json-errors.js';
import type { CoreRequest } from './types.js';

/** Parameter values as clients send them: strings, or arrays/objects from bracket notation or JSON. */
export type ParamMap = Record<string, unknown>;

/** Where a parameter value came from, highest precedence first (WordPress' order). */
export type ParamSource = 'json' | 'body' | 'query' | 'path' | 'defaults';

/** Options bounding what a client can make the parser build. */
export interface ParseLimits {
  /** Deepest bracket nesting kept (`a[b][c]` is depth 2). */
  depth: number;
  /** Most parameters read from one query string or form body. */
  parameters: number;
  /** Highest numeric bracket index kept as an array index. */
  arrayIndex: number;
  /** Largest request body accepted, in bytes (larger → 413). */
  bodyBytes: number;
  /** Longest string parameter (characters). */
  stringLength: number;
  /** Most elements in one list parameter (ids in a filter, organizers of an event…). */
  listItems: number;
}

/** The limits used when a calendar does not set its own. */
export const DEFAULT_PARSE_LIMITS: ParseLimits = {
  depth: 5,
  parameters: 1000,
  arrayIndex: 100,
  bodyBytes: 1024 * 1024,
  stringLength: 100_000,
  listItems: 200,
};

/**
 * Text as every store can hold it: NUL characters removed (PostgreSQL rejects them in text)
 * and lone surrogates replaced by U+FFFD (what UTF-8 drivers would store anyway).
 */
export function cleanText(text: string): string {
  return text.replace(/\u0000/g, '').toWellFormed();
}

function setOwn(target: Record<string, unknown> | unknown[], key: string, value: unknown): void {
  // A plain assignment to `__proto__` would change the prototype instead of adding a key.
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}

/**
 * A copy of a parsed value with `cleanText` applied to every string. Iterative, because a
 * client chooses how deep its JSON nests (JSON.parse copes with depths that recursion does not).
 */
export function cleanStrings(value: unknown): unknown {
  if (typeof value === 'string') return cleanText(value);
  if (typeof value !== 'object' || value === null) return value;
  const copy = (v: object) => (Array.isArray(v) ? [...v] : { ...v }) as Record<string, unknown>;
  const root = copy(value);
  const stack = [root];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    for (const key of Object.keys(node)) {
      const v = node[key];
      if (typeof v === 'string') {
        const cleaned = cleanText(v);
        if (cleaned !== v) setOwn(node, key, cleaned);
      } else if (typeof v === 'object' && v !== null) {
        const child = copy(v);
        setOwn(node, key, child);
        stack.push(child);
      }
    }
  }
  return root;
}

function qsOptions(limits: ParseLimits): qs.IParseOptions {
  // PHP keeps the last of repeated plain keys (`a=1&a=2` → `2`); brackets build arrays.
  return {
    depth: limits.depth,
    parameterLimit: limits.parameters,
    arrayLimit: limits.arrayIndex,
    duplicates: 'last',
    allowPrototypes: false,
    allowDots: false,
    charset: 'utf-8',
    decoder: (text, decode, charset) => cleanText(decode(text, decode, charset)),
  };
}

/** Parses a query string or form body in PHP bracket notation (`tags[]=a`, `venue[venue]=Hall`). */
export function parseBracketString(text: string, limits: ParseLimits = DEFAULT_PARSE_LIMITS): ParamMap {
  return qs.parse(text, qsOptions(limits));
}

/** The media type of the request body, lower-cased, without parameters. */
export function mediaType(req: CoreRequest): string {
  const [type = ''] = (headerValue(req.headers, 'content-type') ?? '').split(';');
  return type.trim().toLowerCase();
}

/** Whether a media type is JSON (`application/json`, `application/…+json`). */
export function isJsonType(type: string): boolean {
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Parameters read from the body, plus a deferred JSON error (reported after routing). */
export interface BodyParams {
  json: ParamMap;
  body: ParamMap;
  jsonError?: ApiError;
}

function toText(body: Uint8Array | string): string {
  return typeof body === 'string' ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
}

async function parseMultipart(req: CoreRequest, body: Uint8Array | string, limits: ParseLimits): Promise<ParamMap> {
  // undici's multipart parser (Node's own fetch implementation) reads the fields; the
  // bracket names are then interpreted exactly as a form body would be.
  const request = new Request('http://localhost/', {
    method: 'POST',
    headers: { 'content-type': headerValue(req.headers, 'content-type') ?? '' },
    body: typeof body === 'string' ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength),
  });
  const form = await request.formData();
  const pairs = new URLSearchParams();
  for (const [name, value] of form) if (typeof value === 'string') pairs.append(name, value);
  return parseBracketString(pairs.toString(), limits);
}

/**
 * A form a host body parser already read. With `extended: false` bracket names are still
 * unparsed (`{"tags[]": ["a", "b"]}`), and are parsed here as in a raw body; nested values
 * (`extended: true`) keep their shape. Repeated plain keys stay a list here (`a=1&a=2`),
 * where a raw body keeps the last one: the parser left no way to tell them from `a[]=`.
 */
function parsePreParsedForm(raw: unknown, limits: ParseLimits): ParamMap {
  if (!isRecord(raw)) return {};
  return cleanStrings(qs.parse(raw as Record<string, string>, qsOptions(limits))) as ParamMap;
}

/** Reads JSON and form parameters from the body according to its `Content-Type`. */
export async function readBody(req: CoreRequest, method: string, limits: ParseLimits = DEFAULT_PARSE_LIMITS): Promise<BodyParams> {
  const result: BodyParams = { json: {}, body: {} };
  const type = mediaType(req);
  const raw = req.body;
  // A bare number or flag from a host's parser (or a JavaScript caller) is no body at all, as the
  // same JSON text unparsed would give no parameters: never a 500.
  if (raw === undefined || raw === null || (typeof raw !== 'string' && typeof raw !== 'object')) return result;
  const preParsed = typeof raw === 'object' && !(raw instanceof Uint8Array);

  if (isJsonType(type)) {
    let value: unknown = raw;
    if (!preParsed) {
      const text = toText(raw);
      // PHP's `empty()`: no body at all (white space alone is a syntax error there too).
      if (text === '') return result;
      let parsed = true;
      try {
        value = JSON.parse(text);
      } catch {
        parsed = false;
      }
      // The error PHP would report: JSON.parse knows no codes, and accepts
      // some bodies PHP refuses (bytes that are not UTF-8, lone surrogate escapes, depth).
      const refused = !parsed || mayFailInPhp(text) ? (phpJsonError(raw) ?? (parsed ? undefined : SYNTAX)) : undefined;
      if (refused) {
        result.jsonError = invalidJson(refused);
        return result;
      }
    }
    if (isRecord(value)) result.json = cleanStrings(value) as ParamMap;
    return result;
  }

  if (!BODY_METHODS.has(method)) return result;
  if (type === 'application/x-www-form-urlencoded') {
    if (preParsed) result.body = parsePreParsedForm(raw, limits);
    else result.body = parseBracketString(toText(raw), limits);
  } else if (type === 'multipart/form-data') {
    if (preParsed) {
      result.body = parsePreParsedForm(raw, limits);
    } else {
      try {
        result.body = await parseMultipart(req, raw, limits);
      } catch {
        result.body = {};
      }
    }
  }
  return result;
}
