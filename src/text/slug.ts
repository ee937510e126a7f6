import slugify from 'slugify';
import { stripTags } from './sanitize.js';

/** Longest slug stored (the `slug` column), as WordPress' `utf8_uri_encode($title, 200)`. */
export const SLUG_MAX = 200;

/** Percent-encodes non-ASCII characters, stopping before the encoded text would exceed `max`. */
function encodeWithin(chars: string[], max: number): string {
  let out = '';
  for (const ch of chars) {
    const piece = /^[\x00-\x7f]$/.test(ch) ? ch : encodeURIComponent(ch).toLowerCase();
    if (out.length + piece.length > max) break;
    out += piece;
  }
  return out;
}

/**
 * `slug` shortened so that `slug + suffix` fits the slug column, without splitting a
 * percent-encoded octet (WordPress does the same for post slugs; unique term slugs that
 * outgrow the column would fail to insert there).
 */
export function fitSlug(slug: string, suffix: string): string {
  if (slug.length + suffix.length <= SLUG_MAX) return slug + suffix;
  let cut = slug.slice(0, Math.max(SLUG_MAX - suffix.length, 0)).replace(/%[0-9a-f]?$/, '');
  // Drop the octets of a character the cut split (a UTF-8 character has at most four).
  for (let i = 0; i < 3; i++) {
    const octets = /(?:%[0-9a-f]{2})+$/.exec(cut)?.[0];
    if (!octets) break;
    try {
      decodeURIComponent(octets);
      break;
    } catch {
      cut = cut.slice(0, -3);
    }
  }
  return cut.replace(/-+$/, '') + suffix;
}

/** Numbered slugs looked up in one query at most: the batches grow from 4 to this. */
const NUMBERED_BATCH = 256;

/**
 * The first of `numbered(2)`, `numbered(3)`… that `taken` does not return (it answers, in lower
 * case, which of a batch are used): what `wp_unique_post_slug` and `wp_unique_term_slug` give
 * once the slug itself is taken. The numbers are asked in growing batches, not one query each
 * as WordPress does: ten thousand namesakes cost some forty queries, not ten thousand (on
 * SQLite each query runs on the event loop).
 */
export async function firstFreeNumbered(numbered: (n: number) => string, taken: (candidates: string[]) => Promise<Set<string>>): Promise<string> {
  for (let first = 2, size = 4; ; first += size, size = Math.min(size * 4, NUMBERED_BATCH)) {
    const candidates = Array.from({ length: size }, (_, i) => numbered(first + i));
    const used = await taken(candidates);
    const free = candidates.find((c) => !used.has(c.toLowerCase()));
    if (free !== undefined) return free;
  }
}

/**
 * A slug as WordPress' `sanitize_title` makes it: accents transliterated, lower case,
 * white space and dots to `-`, anything but letters, digits, `_` and `-` removed, other
 * non-ASCII letters percent-encoded (`Été à Zürich` → `ete-a-zurich`), at most `SLUG_MAX` long.
 */
export function sanitizeTitle(title: string): string {
  // Lone surrogates would make `encodeURIComponent` throw; entity names are short (bounded
  // repetition keeps the scan linear on hostile input).
  let s = stripTags(title.toWellFormed())
    .replace(/&[^\s;&]{1,32};/g, '')
    .replace(/&/g, '');
  // Symbols go before transliteration: slugify would spell `$` as "dollar"; WordPress drops it.
  s = s.replace(/[^\p{L}\p{M}\p{N}\s_.%-]/gu, '').replace(/%(?![0-9a-f]{2})/gi, '');
  // Percent-encoded octets survive, as in WordPress (`---e6---` is its own placeholder), so
  // that a slug this function returned comes back unchanged (slugify would spell `%`).
  s = s.replace(/%([0-9a-f]{2})/gi, '---$1---');
  s = slugify(s, { replacement: ' ', lower: true, trim: true, remove: /[^\p{L}\p{M}\p{N}\s_.-]/gu });
  s = s.replace(/---([0-9a-f]{2})---/g, '%$1');
  s = s.replace(/\./g, '-');
  s = encodeWithin([...s], SLUG_MAX);
  return s
    .replace(/[^%a-z0-9 _-]/g, '')
    .replace(/\s+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-+|-+$/g, '');
}
