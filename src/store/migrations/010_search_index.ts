import { sql, type Kysely, type RawBuilder } from 'kysely';
import { dialectOf } from '../dialects/index.js';
import { searchIndexNames } from '../search-index.js';
import type { MigrationContext } from './001_init.js';

/** The columns indexed, in the order the index holds them. */
const COLUMNS = ['title', 'excerpt', 'content'] as const;

/** Warns the host (Node's process warnings) that searches scan, and why. */
function warnScanning(reason: string, error: unknown): void {
  const detail = error instanceof Error ? error.message : String(error);
  process.emitWarning(`calendar-events-rest: no search index (${reason}: ${detail}); event searches read every post. See docs/concepts/search.md.`, {
    code: 'CALENDAR_SEARCH_INDEX',
  });
}

/**
 * The posts' search index (`store/search-index.ts`): a trigram index over every post's title,
 * excerpt and content, from which an events search takes its candidates before the exact
 * test. SQLite: an FTS5 table with the `trigram` tokenizer over `posts` (external content,
 * no positions), kept by triggers. PostgreSQL: `pg_trgm` (created when missing, which a database owner may do
 * since PostgreSQL 13) and a GIN index on the lower-cased text. MySQL and MariaDB: a side table
 * of (trigram, post) rows of the lower-cased columns, kept by triggers. Triggers keep the index
 * whatever writes `posts` (the API, imports, seeding, SQL by hand). Where the database cannot
 * have the index (no FTS5, no `pg_trgm`, no right to create triggers) the migration warns and
 * searches scan as before. The posts already stored are indexed by the database, never read
 * all at once (`rebuild`, `create index`, a procedure on MySQL).
 */
export async function up({ db, prefix }: MigrationContext): Promise<void> {
  const name = dialectOf(db).name;
  if (name === 'sqlite') await upSqlite(db, prefix);
  else if (name === 'postgres') await upPostgres(db, prefix);
  else await upMysql(db, prefix);
}

async function upSqlite(db: Kysely<unknown>, prefix: string): Promise<void> {
  const { table, triggers } = searchIndexNames(prefix);
  const posts = `${prefix}posts`;
  const fts = sql.table(table);
  try {
    // `content=` takes the table's name as a string literal. `detail=none`: no positions, a
    // seventh of the size (the bench's texts) and a quarter of the time to build; a word is
    // looked up as all of its trigrams rather than as a phrase, and the exact test follows.
    await sql`create virtual table ${fts} using fts5(title, excerpt, content, content=${sql.lit(posts)}, content_rowid='id', tokenize='trigram', detail=none)`.execute(
      db,
    );
  } catch (error) {
    // An SQLite built without FTS5 (better-sqlite3's has it): searches scan.
    warnScanning('SQLite has no FTS5 trigram tokenizer', error);
    return;
  }
  const add = sql`insert into ${fts} (rowid, title, excerpt, content) values (new.id, new.title, new.excerpt, new.content);`;
  // An external-content table forgets a row by being given its old values.
  const remove = sql`insert into ${fts} (${fts}, rowid, title, excerpt, content) values ('delete', old.id, old.title, old.excerpt, old.content);`;
  await sql`create trigger ${sql.id(triggers.insert)} after insert on ${sql.table(posts)} begin ${add} end`.execute(db);
  await sql`create trigger ${sql.id(triggers.delete)} after delete on ${sql.table(posts)} begin ${remove} end`.execute(db);
  // Status, trash and date changes leave the text alone: only a changed text is indexed again.
  await sql`create trigger ${sql.id(triggers.update)} after update of title, excerpt, content on ${sql.table(posts)}
    when old.title is not new.title or old.excerpt is not new.excerpt or old.content is not new.content
    begin ${remove} ${add} end`.execute(db);
  await sql`insert into ${fts} (${fts}) values ('rebuild')`.execute(db);
}

async function upPostgres(db: Kysely<unknown>, prefix: string): Promise<void> {
  const { index } = searchIndexNames(prefix);
  const text = (value: string) => `'${value.replace(/'/g, "''")}'`;
  // One block whose failure is caught inside it (a subtransaction): the migration's transaction
  // goes on without the index, and a script of `migrate --dry-run` runs the same outside one.
  // The expression is the one `SearchIndex.candidates` compares: the planner matches it to the index.
  const body = [
    'begin',
    'create extension if not exists pg_trgm;',
    `execute format('create index %I on %I using gin (lower(title || '' '' || excerpt || '' '' || content) gin_trgm_ops)', ${text(index)}, ${text(`${prefix}posts`)});`,
    `exception when others then raise warning 'calendar-events-rest: no search index: %', sqlerrm;`,
    'end',
  ].join(' ');
  await sql`do ${sql.raw(`$calendar$ ${body} $calendar$`)}`.execute(db);
  const { rows } = await sql<{ found: boolean }>`select to_regclass(quote_ident(${index})) is not null as found`.execute(db);
  // No row in a dry run, which creates nothing.
  if (rows[0]?.found === false) warnScanning('pg_trgm could not be used', 'see the database warning above');
}

/**
 * The statements of a MySQL trigger or procedure that add the trigrams of `text` (of the post
 * `id`) to the side table, with the variables `s` and `n`: the lower-cased text is cut 100
 * characters at a time (`substring` counts from the start of a UTF-8 text, so positions far in
 * would make the work grow with the square of it), each cut's trigrams inserted by one statement
 * over the numbers 1 to 100.
 */
function addTrigrams(table: string, text: RawBuilder<unknown>, id: RawBuilder<unknown>): RawBuilder<unknown> {
  const digits = sql.raw(Array.from({ length: 10 }, (_, i) => `select ${i} as k`).join(' union all '));
  // One line: a script of `migrate --dry-run` ends a statement with a line ending in `;`.
  return sql`set s = lower(${text}); set n = char_length(s); while n >= 3 do insert ignore into ${sql.table(table)} (trigram, post_id) select substring(s, d.k, 3), ${id} from (select a.k * 10 + b.k + 1 as k from (${digits}) a cross join (${digits}) b) d where d.k <= n - 2; set s = substring(s, 101); set n = char_length(s); end while;`;
}

async function upMysql(db: Kysely<unknown>, prefix: string): Promise<void> {
  const { table, triggers } = searchIndexNames(prefix);
  const posts = sql.table(`${prefix}posts`);
  const side = sql.table(table);
  // Same character set and binary collation as `posts` (`tableOptions`): the trigrams compare as the texts do.
  await sql`create table ${side} (trigram varchar(3) not null, post_id integer not null, primary key (trigram, post_id), key ${sql.id(`${table}_post`)} (post_id)) engine=InnoDB default charset=utf8mb4 collate=utf8mb4_bin`.execute(
    db,
  );
  const declare = sql`declare s longtext character set utf8mb4 collate utf8mb4_bin; declare n integer;`;
  const addAll = sql.join(
    COLUMNS.map((c) => addTrigrams(table, sql`new.${sql.id(c)}`, sql`new.id`)),
    sql` `,
  );
  // Binary comparisons: the collation pads with spaces, and a trailing space is a trigram.
  const changed = sql.join(
    COLUMNS.map((c) => sql`cast(old.${sql.id(c)} as binary) <> cast(new.${sql.id(c)} as binary)`),
    sql` or `,
  );
  try {
    await sql`create trigger ${sql.id(triggers.insert)} after insert on ${posts} for each row begin ${declare} ${addAll} end`.execute(db);
    await sql`create trigger ${sql.id(triggers.update)} after update on ${posts} for each row begin ${declare} if ${changed} then delete from ${side} where post_id = old.id; ${addAll} end if; end`.execute(
      db,
    );
    await sql`create trigger ${sql.id(triggers.delete)} after delete on ${posts} for each row delete from ${side} where post_id = old.id`.execute(db);
  } catch (error) {
    // Creating a trigger needs the TRIGGER privilege, and with binary logging SUPER or
    // log_bin_trust_function_creators: without them, no index rather than one that goes stale.
    await downMysql(db, prefix);
    warnScanning('the triggers that keep it could not be created', error);
    return;
  }
  try {
    await fillMysql(db, prefix);
  } catch (error) {
    await downMysql(db, prefix);
    warnScanning('the posts already stored could not be indexed', error);
  }
}

/**
 * Adds the trigrams of the posts already stored, one post at a time in id order, by a procedure
 * that is created, called and dropped: the statements are the same whatever the store holds, so
 * that a script of `migrate --dry-run` run by hand indexes them too.
 */
async function fillMysql(db: Kysely<unknown>, prefix: string): Promise<void> {
  const { table, fill } = { ...searchIndexNames(prefix), fill: sql.id(`${prefix}posts_search_fill`) };
  const addAll = sql.join(
    COLUMNS.map((c) => addTrigrams(table, sql.id(`p_${c}`), sql`p_id`)),
    sql` `,
  );
  const text = sql`longtext character set utf8mb4 collate utf8mb4_bin`;
  // A `select … into` that finds no row leaves the variables as they were: `p_title` stays null.
  await sql`create procedure ${fill}() begin declare p_id integer default 0; declare p_title, p_excerpt, p_content, s ${text}; declare n integer; fill: loop set p_title = null; select id, title, excerpt, content into p_id, p_title, p_excerpt, p_content from ${sql.table(`${prefix}posts`)} where id > p_id order by id limit 1; if p_title is null then leave fill; end if; ${addAll} end loop; end`.execute(
    db,
  );
  try {
    await sql`call ${fill}()`.execute(db);
  } finally {
    await sql`drop procedure if exists ${fill}`.execute(db);
  }
}

async function downMysql(db: Kysely<unknown>, prefix: string): Promise<void> {
  const { table, triggers } = searchIndexNames(prefix);
  for (const trigger of Object.values(triggers)) await sql`drop trigger if exists ${sql.id(trigger)}`.execute(db);
  await sql`drop table if exists ${sql.table(table)}`.execute(db);
}

/** Drops the search index (and its triggers); `pg_trgm` stays, as other tables may use it. */
export async function down({ db, prefix }: MigrationContext): Promise<void> {
  const name = dialectOf(db).name;
  const { table, index, triggers } = searchIndexNames(prefix);
  if (name === 'mysql') return downMysql(db, prefix);
  if (name === 'postgres') {
    await sql`drop index if exists ${sql.id(index)}`.execute(db);
    return;
  }
  for (const trigger of Object.values(triggers)) await sql`drop trigger if exists ${sql.id(trigger)}`.execute(db);
  await sql`drop table if exists ${sql.table(table)}`.execute(db);
}
