/**
 * Reading numbers out of raw cost strings, as tribe-common's `Cost_Utils` does
 * (`get_cost_regex`, `parse_separators`, `parse_cost_range`). Pure helpers shared by
 * the save-time inference and the read-time formatting in `cost.ts`.
 *
 * Everything here must stay linear in the input length: cost is an unvalidated
 * parameter, so a client can send megabytes. Checks that could backtrack
 * quadratically are written as loops instead of regular expressions.
 */
import { sanitizeTitle } from '../../text/slug.js';
import { phpTrim } from '../../php/string.js';

/**
 * Upstream's number pattern: optional `,`/`.`, digits, optional `,`/`.`, optional digits.
 * The minus sign is not part of it, so `$10 - $20` yields `10` and `20`.
 */
const NUMBER_PATTERN = /[,.]?\d+[,.]?\d*/g;

/** Every number found in one raw cost string, in order (`"$10 - $20"` → `["10", "20"]`). */
export function findNumbers(text: string): string[] {
  return text.match(NUMBER_PATTERN) ?? [];
}

/** The same numbers one at a time, for callers that may stop early. */
export function* eachNumber(text: string): Generator<string> {
  // `matchAll` copies the pattern, so the shared /g object's `lastIndex` is never touched.
  for (const [number] of text.matchAll(NUMBER_PATTERN)) yield number;
}

/** Whether the text has an ASCII digit (the only digits of the pattern); without one nothing in it is numeric. */
export function hasDigit(text: string): boolean {
  return /\d/.test(text);
}

/**
 * A matched number with the separators resolved: with both
 * `,` and `.` the last one is the decimal separator; with one kind followed by exactly
 * three digits the reading is ambiguous, and the site locale decides — it is a
 * thousands separator only if it is the locale's one (`"1,000"` → `"1000"` with the
 * default `,`). Thousands separators are dropped, the decimal one becomes `.`. Only
 * the last separator can be the decimal one, so a run such as `,5,50` (two of a kind)
 * gives `5.50`: the result is always digits with at most one `.`.
 */
export function normalizeSeparators(match: string, thousandsSeparator: string): string {
  const lastComma = match.lastIndexOf(',');
  const lastDot = match.lastIndexOf('.');
  const last = Math.max(lastComma, lastDot);
  if (last < 0) return match;
  const oneKind = lastComma < 0 || lastDot < 0;
  const thousandsOnly = oneKind && match.length - 1 - last === 3 && match[last] === thousandsSeparator;
  const decimalAt = thousandsOnly ? -1 : last;
  let out = '';
  for (let i = 0; i < match.length; i++) {
    const ch = match[i];
    if (ch !== ',' && ch !== '.') out += ch;
    else if (i === decimalAt) out += '.';
  }
  return out;
}

/**
 * Longest text handed to `sanitizeTitle`. Its entity and tag regular expressions are
 * quadratic on hostile input (a megabyte of `&` would take minutes); a cost text longer
 * than this has no meaningful slug anyway, so only its start is slugified.
 */
const SLUG_SOURCE_LIMIT = 1000;

/** The slug key of a non-numeric cost (`"Free"` → `"free"`), safe for any input. */
export function costSlug(text: string): string {
  let source = text;
  if (source.length > SLUG_SOURCE_LIMIT) {
    // Do not cut a surrogate pair in half.
    const cut = /[\uD800-\uDBFF]/.test(source.charAt(SLUG_SOURCE_LIMIT - 1)) ? SLUG_SOURCE_LIMIT - 1 : SLUG_SOURCE_LIMIT;
    source = source.slice(0, cut);
  }
  // Lone surrogates would make `encodeURIComponent` (inside `sanitizeTitle`) throw.
  return sanitizeTitle(source.toWellFormed());
}

/** A plain decimal split for exact comparison: integer part without leading zeros, fraction without trailing zeros. */
function decimalParts(text: string): [string, string] {
  const dot = text.indexOf('.');
  let int = dot < 0 ? text : text.slice(0, dot);
  let frac = dot < 0 ? '' : text.slice(dot + 1);
  let i = 0;
  while (i < int.length && int[i] === '0') i++;
  int = int.slice(i);
  let j = frac.length;
  while (j > 0 && frac[j - 1] === '0') j--;
  frac = frac.slice(0, j);
  return [int, frac];
}

/**
 * Exact numeric order of two plain decimal strings. Strings rather than floats, so
 * that 400-digit costs neither become `Infinity` nor collapse into each other.
 */
export function compareDecimals(a: string, b: string): number {
  const [ai, af] = decimalParts(a);
  const [bi, bf] = decimalParts(b);
  if (ai.length !== bi.length) return ai.length - bi.length;
  if (ai !== bi) return ai < bi ? -1 : 1;
  // Without trailing zeros, fractions compare lexicographically ("5" > "45", as 0.5 > 0.45).
  return af === bf ? 0 : af < bf ? -1 : 1;
}

/** One entry of a parsed cost: its `cost_details` key and the text it was read from. */
export interface CostEntry {
  /** A plain decimal string (`"6.50"`, `"1000"`) or, for a string without digits, its slug (`"free"`). */
  key: string;
  /** Whether `key` is a plain decimal. */
  numeric: boolean;
  /** The original text: the matched number (`"25,55"`, `"0"`) or the whole digit-free string (`"Donation"`). */
  text: string;
}

/**
 * What PHP's `ksort(SORT_NUMERIC)` sees of a key: a slug counts as its leading digits,
 * usually none, i.e. 0 (so `free` sorts before `15`).
 */
function sortValue(entry: CostEntry): string {
  if (entry.numeric) return entry.key;
  let i = 0;
  while (i < entry.key.length && entry.key.charCodeAt(i) >= 48 && entry.key.charCodeAt(i) <= 57) i++;
  return i > 0 ? entry.key.slice(0, i) : '0';
}

/**
 * All stored cost strings parsed into entries (`parse_cost_range`): numbers found in
 * each string, or one slug entry for a string without digits; duplicates by numeric
 * value (or equal slug) collapse to the first; sorted ascending, stably.
 */
export function parseCostEntries(values: readonly string[], thousandsSeparator: string): CostEntry[] {
  const byIdentity = new Map<string, CostEntry>();
  const slugs = new Map<string, string>();
  // Repeated texts (an array of identical strings) are slugified once.
  const slugOf = (text: string): string => {
    let slug = slugs.get(text);
    if (slug === undefined) {
      slug = costSlug(text);
      slugs.set(text, slug);
    }
    return slug;
  };
  const add = (entry: CostEntry): void => {
    const [int, frac] = entry.numeric ? decimalParts(entry.key) : ['', ''];
    const identity = entry.numeric ? `n:${int}.${frac}` : `s:${entry.key}`;
    if (!byIdentity.has(identity)) byIdentity.set(identity, entry);
  };
  for (const value of values) {
    // Blank strings are not costs ("every non-empty stored cost string"); a blank slug key would be noise.
    if (phpTrim(value) === '') continue;
    const numbers = findNumbers(value);
    if (numbers.length === 0) {
      add({ key: slugOf(value), numeric: false, text: value });
      continue;
    }
    for (const match of numbers) add({ key: normalizeSeparators(match, thousandsSeparator), numeric: true, text: match });
  }
  // Each sort value computed once; equal values keep their first-seen order (the sort is stable).
  const sorted = [...byIdentity.values()].map((entry) => ({ entry, value: sortValue(entry) }));
  sorted.sort((a, b) => compareDecimals(a.value, b.value));
  return sorted.map(({ entry }) => entry);
}
