import { sql, type Expression, type RawBuilder } from 'kysely';

/** `lower(column) LIKE '%text%'`, case-insensitive on every dialect, with `%`/`_` in `text` taken literally. */
export function containsIgnoringCase(column: Expression<unknown>, text: string): RawBuilder<boolean> {
  const pattern = `%${text.toLowerCase().replace(/[!%_]/g, (c) => `!${c}`)}%`;
  return sql<boolean>`lower(${column}) like ${pattern} escape '!'`;
}
