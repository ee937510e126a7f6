import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../dialects/index.js';
import { searchIndexNames } from '../search-index.js';
import type { MigrationContext } from './001_init.js';

/** Segments of one level SQLite's search index merges at once (FTS5's default: 4). */
export const AUTOMERGE = 8;

/**
 * SQLite's search index merges its segments eight at a time rather than four (FTS5's
 * `automerge`): a trigram index of short texts gets a segment per post written, and each merge
 * level rewrites what it holds, so fewer levels mean less writing per post. Measured on the
 * bench's calendars (docs/concepts/search.md): SQLite's time per `POST /events` 1.09 → 0.49 ms
 * over 8,000 posts on a million events, with fewer writes held up by a merge unit, and
 * 0.64 → 0.55 ms over 20,000 on 100,000 events; searches as fast. The setting is stored
 * in the index itself. No-op where SQLite has no FTS5 (010 then made no index) and on the
 * other databases, whose indexes have no such merges.
 */
export async function up({ db, prefix }: MigrationContext): Promise<void> {
  if (dialectOf(db).name === 'sqlite') await setAutomerge(db, prefix, AUTOMERGE);
}

/** Gives FTS5 its default back. */
export async function down({ db, prefix }: MigrationContext): Promise<void> {
  if (dialectOf(db).name === 'sqlite') await setAutomerge(db, prefix, 4);
}

/** Sets the index's `automerge`, if there is an index (none where this SQLite has no FTS5). */
async function setAutomerge(db: Kysely<unknown>, prefix: string, segments: number): Promise<void> {
  const fts = sql.table(searchIndexNames(prefix).table);
  try {
    await sql`insert into ${fts} (${fts}, rank) values ('automerge', ${sql.lit(segments)})`.execute(db);
  } catch (error) {
    if (!(error instanceof Error && /no such table/i.test(error.message))) throw error;
  }
}
