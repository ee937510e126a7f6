import { sql, type Expression, type RawBuilder } from 'kysely';

/**
 * Needles longer than this (in bytes) are looked for with `replace()` instead of `LIKE`:
 * SQLite refuses LIKE patterns over 50,000 bytes ("pattern too complex").
 */
const LONGEST_LIKE_NEEDLE = 10_000;

/** Most distinct non-ASCII letters {@link foldCase} folds (each one nests a `replace()`). */
const MAX_FOLDED_LETTERS = 32;

/**
 * `column` with the upper-case forms of the non-ASCII letters of `text` replaced by their
 * lower-case forms. `lower()` folds only ASCII on SQLite (and on PostgreSQL under the C
 * collation): without this, `ÉTÉ` would not find `Été`.
 */
export function foldCase(column: Expression<unknown>, text: string): Expression<unknown> {
  // Only letters that have a case count: other characters (`«`, `—`, CJK) need no folding.
  const letters = new Set([...text.toLowerCase()].filter((ch) => ch > '\x7f' && ch.toUpperCase() !== ch));
  if (letters.size > MAX_FOLDED_LETTERS) return column;
  let folded = column;
  for (const lower of letters) {
    const upper = lower.toUpperCase();
    if (upper !== lower && [...upper].length === 1 && upper.toLowerCase() === lower) folded = sql`replace(${folded}, ${upper}, ${lower})`;
  }
  return folded;
}

/** `lower(column) LIKE '%text%'`, case-insensitive on every dialect (non-ASCII letters too), with `%`/`_` in `text` taken literally. */
export function containsIgnoringCase(plain: Expression<unknown>, text: string): RawBuilder<boolean> {
  const column = foldCase(plain, text);
  const needle = text.toLowerCase();
  if (Buffer.byteLength(needle) > LONGEST_LIKE_NEEDLE) {
    // Same meaning, no pattern: the text occurs when removing it changes the value.
    return sql<boolean>`replace(lower(${column}), ${needle}, '') <> lower(${column})`;
  }
  const pattern = `%${needle.replace(/[!%_]/g, (c) => `!${c}`)}%`;
  return sql<boolean>`lower(${column}) like ${pattern} escape '!'`;
}
