/**
 * The posts' search index (migration `010_search_index`): a trigram index over the title,
 * excerpt and content of every post, which an events search asks for candidates before the
 * exact test (`like.ts`) decides, so that a search word of three characters or more reads the
 * posts that may hold it instead of every post. One per database: an FTS5 table with the
 * `trigram` tokenizer on SQLite, a `pg_trgm` GIN index on PostgreSQL, a side table of
 * (post, trigram) rows on MySQL and MariaDB; the first and last are kept by triggers on
 * `posts`, the second by PostgreSQL itself. See docs/concepts/search.md.
 */
import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely';
import type { Database } from './database.js';
import type { StoreDialect } from './dialects/dialect.js';

/** A trigram index finds a text of at least this many characters. */
export const TRIGRAM_LENGTH = 3;

/** Most characters of a search word the index is asked for (more narrow the candidates no further). */
const LONGEST_PART = 64;

/** Most trigrams the MySQL side table is asked for per search (each is one more join). */
const MOST_TRIGRAMS = 8;

/** Most trigrams the SQLite FTS5 table is asked for per search (a phrase of 10,000 characters has as many). */
const MOST_FTS_TRIGRAMS = 16;

/** How long a store found without its index is believed so before it is looked at again. */
const RECHECK_MS = 60_000;

/** The names of the index's objects for the tables prefixed `prefix`. */
export function searchIndexNames(prefix: string): { table: string; index: string; triggers: { insert: string; update: string; delete: string } } {
  const name = `${prefix}posts_search`;
  return { table: name, index: name, triggers: { insert: `${name}_insert`, update: `${name}_update`, delete: `${name}_delete` } };
}

/**
 * Runs of characters of a lower-cased search word that match, in every database's
 * case-insensitive test, only themselves and (for an ASCII letter) their capital: ASCII, or
 * characters no case mapping changes. A letter such as `é` also matches `É` through
 * `foldCase`'s `replace()`, which no index holds.
 */
const PLAIN_RUN = /(?:[\0-\x7f]|\P{Changes_When_Casemapped})+/gu;

/**
 * The part of a search word the index is asked for: the longest of its {@link PLAIN_RUN}s (the
 * first of 64 characters, when there is one), when it has at least three; `undefined` for a word
 * the index cannot narrow (shorter, or mostly letters such as `é`), which is then tested on
 * every post.
 */
export function indexedPart(word: string): string | undefined {
  // A search may be one phrase of 100,000 characters: one pass of a regular expression.
  let best: string[] = [];
  for (const [run] of word.toLowerCase().matchAll(PLAIN_RUN)) {
    const chars = [...run];
    if (chars.length >= LONGEST_PART) return chars.slice(0, LONGEST_PART).join('');
    if (chars.length > best.length) best = chars;
  }
  return best.length >= TRIGRAM_LENGTH ? best.join('') : undefined;
}

/** The distinct {@link indexedPart}s of search words: what the index is asked for. */
export function indexedParts(words: readonly string[]): string[] {
  return [...new Set(words.flatMap((w) => indexedPart(w) ?? []))];
}

/** The distinct trigrams (runs of three code points) of `text`, in order of first occurrence. */
export function trigramsOf(text: string): string[] {
  const chars = [...text];
  const out = new Set<string>();
  for (let i = 0; i + TRIGRAM_LENGTH <= chars.length; i++) out.add(chars.slice(i, i + TRIGRAM_LENGTH).join(''));
  return [...out];
}

/** At most `most` of `items`, spread evenly over them (first and last kept). */
function spread<T>(items: readonly T[], most: number): T[] {
  if (items.length <= most) return [...items];
  return Array.from({ length: most }, (_, i) => items[Math.round((i * (items.length - 1)) / (most - 1))] as T);
}

/** The FTS5 query for `parts`: every trigram (up to a bound), each a string of one token (the table keeps no positions for phrases). */
function ftsMatch(parts: readonly string[]): string {
  return spread([...new Set(parts.flatMap(trigramsOf))], MOST_FTS_TRIGRAMS)
    .map((g) => `"${g.replace(/"/g, '""')}"`)
    .join(' AND ');
}

/** A `LIKE` pattern (backslash escapes, PostgreSQL's default) for a text anywhere in a value. */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The store's search index: whether it is there (a store migrated where the database lacks FTS5,
 * or where `pg_trgm` could not be created, has none and searches by scanning), and the
 * condition on `posts.id` that its candidates give.
 */
export class SearchIndex {
  #found: Promise<boolean> | undefined;
  #missingSince = 0;

  constructor(
    private readonly dialect: StoreDialect,
    private readonly prefix: string,
  ) {}

  /** Whether the store has its search index; looked up once, and again a minute after it was found missing. */
  available(db: Kysely<Database>): Promise<boolean> {
    if (this.#found && (this.#missingSince === 0 || Date.now() - this.#missingSince < RECHECK_MS)) return this.#found;
    this.#found = this.#lookUp(db).then(
      (found) => {
        this.#missingSince = found ? 0 : Date.now();
        return found;
      },
      () => {
        this.#missingSince = Date.now();
        return false;
      },
    );
    return this.#found;
  }

  async #lookUp(db: Kysely<Database>): Promise<boolean> {
    const { table, index } = searchIndexNames(this.prefix);
    const query = {
      sqlite: sql<{ found: number }>`select 1 as found from sqlite_master where type = 'table' and name = ${table}`,
      postgres: sql<{ found: number }>`select 1 as found from pg_class where oid = to_regclass(quote_ident(${index}))`,
      mysql: sql<{ found: number }>`select 1 as found from information_schema.tables where table_schema = database() and table_name = ${table}`,
    }[this.dialect.name];
    return (await query.execute(db)).rows.length > 0;
  }

  /** How many posts the index gives as candidates for `parts` (SQLite, whose planner cannot tell). */
  async count(db: Kysely<Database>, parts: readonly string[]): Promise<number> {
    const { table } = searchIndexNames(this.prefix);
    const { rows } = await sql<{ n: number }>`select count(*) as n from ${sql.table(table)} where ${sql.table(table)} match ${ftsMatch(parts)}`.execute(db);
    return Number(rows[0]?.n ?? 0);
  }

  /**
   * The condition that a post may hold every one of `parts` (from {@link indexedParts}) in its
   * title, excerpt or content, from the index: a superset of the posts that hold the words they
   * come from, which the exact test then narrows.
   */
  candidates(eb: ExpressionBuilder<Database, 'posts'>, parts: readonly string[]): Expression<SqlBool> {
    const { table } = searchIndexNames(this.prefix);
    const id = eb.ref('posts.id');
    switch (this.dialect.name) {
      case 'sqlite': {
        return sql<SqlBool>`${id} in (select rowid from ${sql.table(table)} where ${sql.table(table)} match ${ftsMatch(parts)})`;
      }
      case 'postgres': {
        // The indexed expression exactly (migration 010), so that the GIN index serves the LIKE.
        const text = sql`lower(${eb.ref('posts.title')} || ' ' || ${eb.ref('posts.excerpt')} || ' ' || ${eb.ref('posts.content')})`;
        // The longest part only: the planner multiplies the estimates of several into far too few
        // rows, and then prefers the index to a filter that reads fewer (a venue's events).
        const longest = parts.reduce((a, b) => ([...b].length > [...a].length ? b : a));
        return sql<SqlBool>`${text} like ${containsPattern(longest)}`;
      }
      case 'mysql': {
        // Posts holding every chosen trigram: one row of the side table per trigram, joined on the post.
        const grams = spread([...new Set(parts.flatMap(trigramsOf))], MOST_TRIGRAMS);
        const [first, ...rest] = grams;
        const joins = rest.map((g, i) => {
          const alias = `g${i + 1}`;
          return sql`join ${sql.table(table)} as ${sql.id(alias)} on ${sql.id(alias, 'post_id')} = g0.post_id and ${sql.id(alias, 'trigram')} = ${g}`;
        });
        return sql<SqlBool>`${id} in (select g0.post_id from ${sql.table(table)} as g0 ${sql.join(joins, sql` `)} where g0.trigram = ${first})`;
      }
    }
  }
}
