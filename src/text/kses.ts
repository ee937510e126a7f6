/**
 * WordPress' KSES HTML filter (`wp_kses`), as applied to what callers without the
 * `unfiltered_html` capability write: disallowed elements lose their tags but keep their
 * text (`<script>alert(1)</script>` → `alert(1)`), allowed elements keep only allowed
 * attributes, URL attributes keep only allowed protocols.
 *
 * It is a port of the upstream token filter (not a DOM sanitiser), so that the output
 * stays byte-compatible with WordPress for ordinary input. The pipeline:
 *  1. control characters removed (`wp_kses_no_null`);
 *  2. entities normalised: every `&` starts a valid reference (`wp_kses_normalize_entities`);
 *  3. a `<` with no `>` before the next `<` (or the end) is escaped (`wp_pre_kses_less_than`);
 *  4. every remaining `<…>` is rebuilt from its parsed name and attributes, or dropped;
 *     a lone `>` becomes `&gt;`.
 * So the output has no raw `<` outside rebuilt allowed tags, and attribute values are
 * always double-quoted, with `"` escaped and `<`, `>` removed.
 *
 * Deliberately stricter than upstream: HTML comments and bogus comments (`<!…>`,
 * `</1…>`) are removed instead of kept, attribute values are always re-quoted with `"`,
 * a URL attribute with a disallowed scheme is removed (upstream strips the scheme and
 * keeps the rest), and the allow-lists are smaller (see `kses-allowed.ts`).
 */
import { decodeNormalizedEntities, escapeHtml, normalizeEntities } from './entities.js';
import { type AllowedHtml, POST_ALLOWED_HTML, TITLE_ALLOWED_HTML, URL_ATTRIBUTES } from './kses-allowed.js';
import { ALLOWED_PROTOCOLS } from './url.js';

/** Filters post content or an excerpt as WordPress' `wp_filter_post_kses` (see the module comment). */
export function ksesPost(html: string): string {
  return kses(html, POST_ALLOWED_HTML);
}

/** Filters a title as WordPress' `wp_filter_kses` (`$allowedtags`: `a`, `b`, `em`, `strong`, …). */
export function ksesTitle(html: string): string {
  return kses(html, TITLE_ALLOWED_HTML);
}

/** Runs the KSES pipeline with the given allow-list. */
export function kses(html: string, allowed: AllowedHtml): string {
  let s = html.replace(/[\x00-\x08\x0B\x0C\x0E-\x1F]/g, '');
  s = normalizeEntities(s);
  s = escapeUnclosedLessThan(s);
  return s.replace(/<!--[\s\S]*?(?:-->|$)|<[^>]*(?:>|$)|>/g, (token) => filterToken(token, allowed));
}

/** `wp_pre_kses_less_than`: a `<` that does not start a `<…>` span is text, so it is escaped. */
function escapeUnclosedLessThan(text: string): string {
  if (!text.includes('<')) return text;
  return text.replace(/<[^>]*?(?:(?=<)|>|$)/g, (span) => {
    if (span === '<') return '&lt;';
    return span.includes('>') ? span : escapeHtml(span, 'both');
  });
}

/** PCRE's `\s` (ASCII only: NBSP and other Unicode spaces are not white space to upstream). */
const WS = '[\\t\\n\\v\\f\\r ]';
const TAG = new RegExp(`^<${WS}*(/${WS}*)?([a-zA-Z0-9-]+)([^>]*)>?$`);

/** `wp_kses_split2` for one token: a comment, a tag, or a lone `>`. */
function filterToken(token: string, allowed: AllowedHtml): string {
  if (token === '>') return '&gt;';
  if (token.startsWith('<!--')) return '';
  // wp_kses_stripslashes: undo the slashing of quotes that WordPress' input layer adds.
  const m = TAG.exec(token.replace(/\\"/g, '"'));
  if (m === null) return ''; // "seriously malformed" (`<!DOCTYPE…>`, `<?php…>`, `< >`…)
  const [, slash, name = '', attributes = ''] = m;
  const attributeNames = allowed.get(name.toLowerCase());
  if (attributeNames === undefined) return '';
  if (slash !== undefined) return `</${name}>`;
  return buildTag(name, attributes, attributeNames);
}

/** `wp_kses_attr`: the opening tag rebuilt with the allowed attributes only. */
function buildTag(name: string, attributes: string, attributeNames: ReadonlySet<string>): string {
  // `<br/>`, `<img … />`: keep the XHTML slash.
  const xhtmlSlash = trimTrailingWhitespace(attributes).endsWith('/') ? ' /' : '';
  if (attributeNames.size === 0) return `<${name}${xhtmlSlash}>`;
  let kept = '';
  for (const attribute of parseAttributes(attributes)) {
    if (!attributeNames.has(attribute.name)) continue;
    if (attribute.value === undefined) {
      kept += ` ${attribute.name}`;
      continue;
    }
    if (URL_ATTRIBUTES.has(attribute.name) && !hasAllowedScheme(attribute.value)) continue;
    kept += ` ${attribute.name}="${attribute.value.replace(/"/g, '&quot;').replace(/[<>]/g, '')}"`;
  }
  return `<${name}${kept}${xhtmlSlash}>`;
}

function trimTrailingWhitespace(text: string): string {
  let end = text.length;
  while (end > 0 && '\t\n\v\f\r '.includes(text.charAt(end - 1))) end--;
  return text.slice(0, end);
}

/** One parsed attribute: lower-cased name, raw value (`undefined` when valueless). */
interface Attribute {
  name: string;
  value: string | undefined;
}

const ATTR_NAME = /[_a-zA-Z][-_a-zA-Z0-9:.]*/y;
const EQUALS = new RegExp(`${WS}*=${WS}*`, 'y');
const SPACES = new RegExp(`${WS}+`, 'y');
// A value must be followed by white space, or by an optional `/` and the end.
const DOUBLE_QUOTED = new RegExp(`"([^"]*)"(${WS}+|/?$)`, 'y');
const SINGLE_QUOTED = new RegExp(`'([^']*)'(${WS}+|/?$)`, 'y');
const UNQUOTED = new RegExp(`([^\\t\\n\\v\\f\\r "']+)(${WS}+|/?$)`, 'y');
// `wp_kses_html_error`: skip a malformed stretch (quoted strings and non-blanks), then blanks.
const MALFORMED = new RegExp(`(?:"[^"]*(?:"|$)|'[^']*(?:'|$)|[^\\t\\n\\v\\f\\r ])*${WS}*`, 'y');

/**
 * `wp_kses_hair`: the attribute list parsed by upstream's state machine — name, then
 * `=`, then a double-quoted, single-quoted or bare value; malformed stretches skipped.
 * The first occurrence of a name wins. Walks with a cursor: upstream re-slices the
 * string per attribute, which is quadratic on a tag with many attributes.
 */
function parseAttributes(text: string): Attribute[] {
  const found = new Map<string, Attribute>();
  const add = (name: string, value: string | undefined): void => {
    const key = name.toLowerCase();
    if (!found.has(key)) found.set(key, { name: key, value });
  };
  const at = (re: RegExp, pos: number): RegExpExecArray | null => {
    re.lastIndex = pos;
    return re.exec(text);
  };
  let pos = 0;
  let mode: 'name' | 'equals' | 'value' = 'name';
  let name = '';
  while (pos < text.length) {
    let m: RegExpExecArray | null = null;
    if (mode === 'name') {
      m = at(ATTR_NAME, pos);
      if (m !== null) {
        name = m[0];
        mode = 'equals';
      }
    } else if (mode === 'equals') {
      m = at(EQUALS, pos);
      if (m !== null) mode = 'value';
      else if ((m = at(SPACES, pos)) !== null) {
        add(name, undefined);
        mode = 'name';
      }
    } else {
      m = at(DOUBLE_QUOTED, pos) ?? at(SINGLE_QUOTED, pos) ?? at(UNQUOTED, pos);
      if (m !== null) {
        add(name, m[1]);
        mode = 'name';
      }
    }
    if (m === null) {
      // Not well-formed: skip to the next plausible attribute.
      const skipped = at(MALFORMED, pos)?.[0].length ?? 0;
      pos += Math.max(skipped, 1);
      mode = 'name';
    } else {
      pos += m[0].length;
    }
  }
  if (mode === 'equals') add(name, undefined);
  return [...found.values()];
}

/**
 * Whether a browser would see an allowed scheme (or none) in this attribute value:
 * references decoded once (the value is entity-normalised, so that is what a browser
 * sees), leading controls and spaces skipped, tabs and newlines removed (the URL parser
 * ignores them: `java&#9;script:` is `javascript:`); text before the first `:` that comes
 * before any `/`, `?` or `#` must be an allowed protocol.
 */
function hasAllowedScheme(value: string): boolean {
  const url = decodeNormalizedEntities(value)
    .replace(/^[\x00-\x20]+/, '')
    .replace(/[\t\n\r]/g, '');
  const m = /^([^:/?#]*):/.exec(url);
  if (m === null) return true;
  const [, scheme = ''] = m;
  return ALLOWED_PROTOCOLS.has(scheme.toLowerCase());
}
