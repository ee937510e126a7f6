import qs from 'qs';
import { invalidJson, type ApiError } from './errors.js';
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
}

/** The limits used when a calendar does not set its own. */
export const DEFAULT_PARSE_LIMITS: ParseLimits = { depth: 5, parameters: 1000, arrayIndex: 100, bodyBytes: 1024 * 1024 };

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
  };
}

/** Parses a query string or form body in PHP bracket notation (`tags[]=a`, `venue[venue]=Hall`). */
export function parseBracketString(text: string, limits: ParseLimits = DEFAULT_PARSE_LIMITS): ParamMap {
  return qs.parse(text, qsOptions(limits)) as ParamMap;
}

function headerValue(req: CoreRequest, name: string): string {
  const v = req.headers[name];
  return (Array.isArray(v) ? v[0] : v) ?? '';
}

/** The media type of the request body, lower-cased, without parameters. */
export function mediaType(req: CoreRequest): string {
  return headerValue(req, 'content-type').split(';')[0].trim().toLowerCase();
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
  /** Keys whose JSON value was an explicit `null`. */
  jsonNulls: Set<string>;
}

function toText(body: Uint8Array | string): string {
  return typeof body === 'string' ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

async function parseMultipart(req: CoreRequest, body: Uint8Array | string, limits: ParseLimits): Promise<ParamMap> {
  // undici's multipart parser (Node's own fetch implementation) reads the fields; the
  // bracket names are then interpreted exactly as a form body would be.
  const request = new Request('http://localhost/', {
    method: 'POST',
    headers: { 'content-type': headerValue(req, 'content-type') },
    body: typeof body === 'string' ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength),
  });
  const form = await request.formData();
  const pairs = new URLSearchParams();
  for (const [name, value] of form) if (typeof value === 'string') pairs.append(name, value);
  return parseBracketString(pairs.toString(), limits);
}

/** Reads JSON and form parameters from the body according to its `Content-Type`. */
export async function readBody(req: CoreRequest, method: string, limits: ParseLimits = DEFAULT_PARSE_LIMITS): Promise<BodyParams> {
  const result: BodyParams = { json: {}, body: {}, jsonNulls: new Set() };
  const type = mediaType(req);
  const raw = req.body;
  if (raw === undefined || raw === null) return result;
  const preParsed = typeof raw === 'object' && !(raw instanceof Uint8Array);

  if (isJsonType(type)) {
    let value: unknown = raw;
    if (!preParsed) {
      const text = toText(raw as Uint8Array | string);
      if (text.trim() === '') return result;
      try {
        value = JSON.parse(text);
      } catch (e) {
        result.jsonError = invalidJson('Syntax error');
        return result;
      }
    }
    if (isRecord(value)) {
      for (const [k, v] of Object.entries(value)) if (v === null) result.jsonNulls.add(k);
      result.json = value;
    }
    return result;
  }

  if (!BODY_METHODS.has(method)) return result;
  if (type === 'application/x-www-form-urlencoded') {
    if (preParsed) {
      // A host body parser may have left bracket names unparsed (`extended: false`).
      result.body = isRecord(raw) ? (qs.parse(raw as Record<string, string>, qsOptions(limits)) as ParamMap) : {};
    } else {
      result.body = parseBracketString(toText(raw as Uint8Array | string), limits);
    }
  } else if (type === 'multipart/form-data') {
    if (preParsed) {
      result.body = isRecord(raw) ? (qs.parse(raw as Record<string, string>, qsOptions(limits)) as ParamMap) : {};
    } else {
      try {
        result.body = await parseMultipart(req, raw as Uint8Array | string, limits);
      } catch {
        result.body = {};
      }
    }
  }
  return result;
}
