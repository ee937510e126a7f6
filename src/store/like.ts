import { sql, type Expression, type RawBuilder } from 'kysely';

/**
 * Needles longer than this (in bytes) are looked for with `replace()` instead of `LIKE`:
 * SQLite refuses LIKE patterns over 50,000 bytes ("pattern too complex").
 */
const LONGEST_LIKE_NEEDLE = 10_000;

/** `lower(column) LIKE '%text%'`, case-insensitive on every dialect, with `%`/`_` in `text` taken literally. */
export function containsIgnoringCase(column: Expression<unknown>, text: string): RawBuilder<boolean> {
  const needle = text.toLowerCase();
  if (Buffer.byteLength(needle) > LONGEST_LIKE_NEEDLE) {
    // Same meaning, no pattern: the text occurs when removing it changes the value.
    return sql<boolean>`replace(lower(${column}), ${needle}, '') <> lower(${column})`;
  }
  const pattern = `%${needle.replace(/[!%_]/g, (c) => `!${c}`)}%`;
  return sql<boolean>`lower(${column}) like ${pattern} escape '!'`;
}
