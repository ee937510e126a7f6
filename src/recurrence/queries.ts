import { sql, type Insertable, type Kysely, type Selectable, type Updateable } from 'kysely';
import type { Database, OccurrencesTable, SeriesTable } from '../store/database.js';
import type { StoreDialect } from '../store/dialects/dialect.js';
import { isStoredId } from '../ids.js';
import { PreparedQuery } from '../store/prepared.js';

/** A stored occurrence. */
export type OccurrenceRow = Selectable<OccurrencesTable>;

/** A stored series row. */
export type SeriesRow = Selectable<SeriesTable>;

/** Series rows by ids: those of a page of events. */
const SERIES_BY_IDS = new PreparedQuery((db, v: { ids: number[] }) => db.selectFrom('series').selectAll().where('id', 'in', v.ids));

/** Queries and writes of series and their occurrence index. */
export class OccurrenceStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: StoreDialect,
  ) {}

  /** The series row of a series post. */
  series(id: number): Promise<SeriesRow | undefined> {
    return this.db.selectFrom('series').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The series rows of these series posts. */
  async seriesMany(ids: readonly number[]): Promise<Map<number, SeriesRow>> {
    const wanted = [...new Set(ids)].filter(isStoredId);
    if (!wanted.length) return new Map();
    const rows = await SERIES_BY_IDS.rows(this.db, { ids: wanted });
    return new Map(rows.map((r) => [r.id, r]));
  }

  /** Whether any series is stored (the archive lists occurrences only then). */
  async any(): Promise<boolean> {
    return (await this.db.selectFrom('series').select('id').limit(1).executeTakeFirst()) !== undefined;
  }

  /** Inserts or replaces a series row. */
  async saveSeries(row: SeriesRow): Promise<void> {
    const updated = await this.db
      .updateTable('series')
      .set({ rules: row.rules, indexed_until: row.indexed_until, complete: row.complete })
      .where('id', '=', row.id)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) await this.db.insertInto('series').values(row).execute();
  }

  /** Changes a series row. */
  async updateSeries(id: number, changes: Updateable<SeriesTable>): Promise<void> {
    await this.db.updateTable('series').set(changes).where('id', '=', id).execute();
  }

  /** Removes a series row and its occurrences (the series post stays: the caller decides). */
  async deleteSeries(id: number): Promise<void> {
    await this.db.deleteFrom('occurrences').where('series_id', '=', id).execute();
    await this.db.deleteFrom('series').where('id', '=', id).execute();
  }

  /** The occurrence with this id, locked inside a write when asked. */
  async get(id: number, { lock = false } = {}): Promise<OccurrenceRow | undefined> {
    if (!isStoredId(id)) return undefined;
    const query = this.db.selectFrom('occurrences').selectAll().where('id', '=', id);
    return (lock ? this.dialect.locking(query) : query).executeTakeFirst();
  }

  /** The occurrences with these ids. */
  async getMany(ids: readonly number[]): Promise<OccurrenceRow[]> {
    const wanted = [...new Set(ids)].filter(isStoredId);
    if (!wanted.length) return [];
    return this.db.selectFrom('occurrences').selectAll().where('id', 'in', wanted).execute();
  }

  /** A series' occurrences, by original start, from `from` to `to` (original starts, both included) when given. */
  async of(seriesId: number, window: { from?: string; to?: string; cancelled?: boolean } = {}): Promise<OccurrenceRow[]> {
    let query = this.db.selectFrom('occurrences').selectAll().where('series_id', '=', seriesId);
    if (window.from !== undefined) query = query.where('original_start', '>=', window.from);
    if (window.to !== undefined) query = query.where('original_start', '<=', window.to);
    if (window.cancelled === false) query = query.where('cancelled', '=', 0);
    return query.orderBy('original_start').execute();
  }

  /** The occurrence whose content an override event is. */
  async byContent(contentId: number): Promise<OccurrenceRow | undefined> {
    return this.db.selectFrom('occurrences').selectAll().where('content_id', '=', contentId).executeTakeFirst();
  }

  /**
   * Takes `n` consecutive new occurrence ids, above `base` and above every id taken before (the
   * counter row stays locked until the transaction ends, so concurrent writes never take the
   * same ids); returns the first of them.
   */
  async takeIds(n: number, base: number): Promise<number> {
    // The update first: it locks the row (on SQLite, the database) before the value is read.
    await this.db
      .updateTable('occurrence_sequence')
      .set((eb) => ({ last_id: eb('last_id', '+', n) }))
      .where('id', '=', 1)
      .execute();
    const last = Number((await this.db.selectFrom('occurrence_sequence').select('last_id').where('id', '=', 1).executeTakeFirstOrThrow()).last_id);
    let first = last - n + 1;
    // Above the base, and above every post id (an import that kept large ids): ids never meet.
    const posts = Number(
      (
        await this.db
          .selectFrom('posts')
          .select((eb) => eb.fn.max('id').as('m'))
          .executeTakeFirst()
      )?.m ?? 0,
    );
    const floor = Math.max(base, posts + 1);
    if (first < floor) {
      first = floor;
      await this.db
        .updateTable('occurrence_sequence')
        .set({ last_id: floor + n - 1 })
        .where('id', '=', 1)
        .execute();
    }
    return first;
  }

  /** How many occurrences a series has in the index. */
  async count(seriesId: number): Promise<number> {
    return Number(
      (
        await this.db
          .selectFrom('occurrences')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('series_id', '=', seriesId)
          .executeTakeFirstOrThrow()
      ).n,
    );
  }

  /** A series' occurrences that a calendar file writes apart: cancelled, edited, or moved off their original start. */
  async apart(seriesId: number): Promise<OccurrenceRow[]> {
    return this.db
      .selectFrom('occurrences')
      .selectAll()
      .where('series_id', '=', seriesId)
      .where((eb) => eb.or([eb('cancelled', '=', 1), eb('content_id', '!=', seriesId), eb('start_local', '!=', eb.ref('original_start'))]))
      .orderBy('original_start')
      .execute();
  }

  /** The years (of its zone's wall clocks) a series' occurrences start or end in, ascending. */
  async years(seriesId: number): Promise<number[]> {
    const years = new Set<number>();
    for (const column of ['start_local', 'end_local'] as const) {
      const rows = await this.db
        .selectFrom('occurrences')
        .select(sql<string>`substr(${sql.ref(column)}, 1, 4)`.as('year'))
        .distinct()
        .where('series_id', '=', seriesId)
        .execute();
      for (const r of rows) years.add(Number(r.year));
    }
    return [...years].filter(Number.isSafeInteger).sort((a, b) => a - b);
  }

  /** Inserts occurrences. */
  async insert(rows: readonly Insertable<OccurrencesTable>[]): Promise<void> {
    // In slices: a statement has a bounded number of parameters (SQLite: 32,766).
    for (let i = 0; i < rows.length; i += 500)
      await this.db
        .insertInto('occurrences')
        .values(rows.slice(i, i + 500))
        .execute();
  }

  /** Changes one occurrence. */
  async update(id: number, changes: Updateable<OccurrencesTable>): Promise<void> {
    await this.db.updateTable('occurrences').set(changes).where('id', '=', id).execute();
  }

  /** Removes occurrences. */
  async delete(ids: readonly number[]): Promise<void> {
    for (let i = 0; i < ids.length; i += 500)
      await this.db
        .deleteFrom('occurrences')
        .where('id', 'in', ids.slice(i, i + 500))
        .execute();
  }
}
