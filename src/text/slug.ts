import slugify from 'slugify';
import { stripTags } from './sanitize.js';

/**
 * A slug as WordPress' `sanitize_title` makes it: accents transliterated, lower case,
 * white space and dots to `-`, anything but letters, digits, `_` and `-` removed, other
 * non-ASCII letters percent-encoded (`Été à Zürich` → `ete-a-zurich`).
 */
export function sanitizeTitle(title: string): string {
  // Lone surrogates would make `encodeURIComponent` throw; entity names are short (bounded
  // repetition keeps the scan linear on hostile input).
  let s = stripTags(title.toWellFormed()).replace(/&[^\s;&]{1,32};/g, '').replace(/&/g, '');
  // Symbols go before transliteration: slugify would spell `$` as "dollar"; WordPress drops it.
  s = s.replace(/[^\p{L}\p{M}\p{N}\s_.%-]/gu, '').replace(/%(?![0-9a-f]{2})/gi, '');
  s = slugify(s, { replacement: ' ', lower: true, trim: true, remove: /[^\p{L}\p{M}\p{N}\s_.%-]/gu });
  s = s.replace(/\./g, '-');
  s = [...s].map((ch) => (/^[\x00-\x7f]$/.test(ch) ? ch : encodeURIComponent(ch).toLowerCase())).join('');
  return s
    .replace(/[^%a-z0-9 _-]/g, '')
    .replace(/\s+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-+|-+$/g, '');
}
