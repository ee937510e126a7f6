/**
 * Text helpers of the `json_ld` objects: WordPress' `esc_js`, The
 * Events Calendar's event excerpt (`tribe_events_get_the_excerpt`) and `antispambot`.
 */
import { BoundedCache } from '../cache/bounded-cache.js';
import { wpautop } from './autop.js';
import { escapeHtml } from './entities.js';
import { kses } from './kses.js';
import type { AllowedHtml } from './kses-allowed.js';
import { phpAddslashes, phpStripslashes, phpTrim } from '../php/string.js';
import { MEMO_BOUNDS, MEMO_LONGEST, renderTitle } from './render.js';

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * WordPress' `esc_js`: `<`, `>`, `"` become `&lt;`, `&gt;`, `&quot;` (a bare `&` becomes
 * `&amp;`, existing references stay), `'` is backslash-escaped, `\r` dropped and a
 * newline becomes a literal backslash + `n`. Text with unpaired surrogates (invalid
 * UTF-8 upstream) becomes `""`.
 */
export function escapeJsString(text: string): string {
  if (text === '' || LONE_SURROGATE.test(text)) return '';
  let s = escapeHtml(text, 'double');
  s = phpStripslashes(s).replace(/&#(?:x0*27|0*39);?/gi, "'");
  s = phpAddslashes(s.replace(/\r/g, ''));
  return s.replace(/\n/g, '\\n');
}

/** The json_ld `name` of a post: its rendered title (§1.6), escaped by `escapeJsString`. */
export function jsonLdName(rawTitle: string): string {
  return escapeJsString(renderTitle(rawTitle));
}

/**
 * The json_ld `description`: the stored excerpt, or else the automatic excerpt of the
 * content (`autoExcerpt`, 30 words), wrapped in paragraphs and escaped — content
 * `An evening of chamber music.` → `&lt;p&gt;An evening of chamber music.&lt;/p&gt;\n`
 * with a literal backslash + `n`; empty excerpt and content → `""`.
 */
export function jsonLdDescription(excerpt: string, content: string): string {
  const key = hasExcerpt(excerpt) ? `e${excerpt}` : `c${content}`;
  let out = descriptions.get(key);
  if (out === undefined) {
    const text = hasExcerpt(excerpt) ? excerptHtml(excerpt) : autoExcerpt(content);
    out = escapeJsString(wpautop(text));
    if (key.length <= MEMO_LONGEST) descriptions.set(key, out);
  }
  return out;
}

/** Descriptions by source text, within the render memos' bounds (longer texts are described every time): they are pure, and the same posts are shown again and again. */
const descriptions = new BoundedCache<string, string>(MEMO_BOUNDS);

/** `has_excerpt`: PHP's `empty()`, so `"0"` counts as no excerpt. */
function hasExcerpt(excerpt: string): boolean {
  return excerpt !== '' && excerpt !== '0';
}

/**
 * An automatic excerpt as The Events Calendar makes it: bracketed `[…]` spans
 * (shortcodes) removed, HTML stripped, then the first `words` words (white space
 * folded) followed by ` [&hellip;]` when there were more.
 */
export function autoExcerpt(content: string, words = 30): string {
  const text = phpTrim(excerptHtml(content).replace(/<[^>]*>/g, ''));
  return trimWords(text, words, ' [&hellip;]');
}

/** The HTML `tribe_events_get_the_excerpt` keeps in an excerpt. */
const EXCERPT_ALLOWED_HTML: AllowedHtml = new Map(
  Object.entries({
    a: ['class', 'id', 'style', 'href', 'rel', 'target'],
    b: ['class', 'id', 'style'],
    strong: ['class', 'id', 'style'],
    em: ['class', 'id', 'style'],
    span: ['class', 'id', 'style'],
    ul: ['class', 'id', 'style'],
    li: ['class', 'id', 'style'],
    ol: ['class', 'id', 'style'],
  }).map(([name, attributes]) => [name, new Set(attributes)]),
);

/** Upstream's excerpt clean-up: `[…]` spans removed, then KSES with the excerpt allow-list. */
function excerptHtml(text: string): string {
  return kses(removeBracketed(text), EXCERPT_ALLOWED_HTML);
}

/**
 * Upstream's `preg_replace('#\[.+\]#U', '', …)`: removes every `[` … `]` span (at least
 * one character inside, shortest match, not across lines). Scanned by hand: the regex
 * retries every `[` of a line that has no `]`, which is quadratic.
 */
function removeBracketed(text: string): string {
  if (!text.includes('[')) return text;
  let out = '';
  let copied = 0;
  let from = 0;
  let nextClose = -1;
  for (;;) {
    const open = text.indexOf('[', from);
    if (open === -1) break;
    const newline = text.indexOf('\n', open);
    const lineEnd = newline === -1 ? text.length : newline;
    // The next `]` is cached: later `[`s only ever look further right.
    if (nextClose < open + 2) nextClose = text.indexOf(']', open + 2);
    if (nextClose === -1) break;
    if (nextClose >= lineEnd) {
      from = lineEnd;
      continue;
    }
    out += text.slice(copied, open);
    copied = nextClose + 1;
    from = copied;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/** WordPress' `wp_trim_words` on already tag-free text. */
function trimWords(text: string, count: number, more: string): string {
  const words = text.split(/[\n\r\t ]+/).filter((word) => word !== '');
  if (words.length <= count) return words.join(' ');
  return words.slice(0, count).join(' ') + more;
}

/**
 * WordPress' `antispambot`: each character randomly kept or written as a decimal
 * reference, and `@` always as `&#64;`; the result decodes back to the address.
 * (Upstream works on bytes, which garbles non-ASCII addresses; this works on characters.)
 */
export function antispambot(email: string, random: () => number = Math.random): string {
  let out = '';
  for (const ch of email) out += random() < 0.5 ? `&#${ch.codePointAt(0) ?? 0};` : ch;
  return out.replace(/@/g, '&#64;');
}
