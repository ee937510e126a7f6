import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import type { ChangeKind, ChangeType, ChangesTable, Database } from '../store/database.js';
import { PreparedQuery } from '../store/prepared.js';
import type { StoreDialect } from '../store/dialects/dialect.js';

/** A change as the log keeps it. */
export type ChangeRow = ChangesTable;

/** Where the log stands. */
export interface LogHead {
  /** The last position taken. */
  lastSeq: number;
  /** Positions up to here were pruned. */
  prunedThrough: number;
  storeId: string;
}

/** How long entries are kept, by default: a client that syncs less often than this starts over. */
export const DEFAULT_RETENTION_MS = 30 * 86_400_000;

/** Every so many positions, a write prunes what is older than the retention. */
const PRUNE_EVERY = 256;

/**
 * Positions one look for given items reads at a time: no index names items, so each read walks
 * a stretch of the primary key, and SQLite's driver holds the event loop while it does (about
 * 4 ms for 20,000 positions); the loop is let go between stretches.
 */
const SCAN_SPAN = 20_000;

/** The next `n` positions taken on the sequence row: its new last position read back with them, or after (MySQL). */
const TAKE = new PreparedQuery((db, v: { n: number }) =>
  db
    .updateTable('change_sequence')
    .set((eb) => ({ last_seq: eb('last_seq', '+', v.n) }))
    .where('id', '=', 1),
);
const TAKE_RETURNING = new PreparedQuery((db, v: { n: number }) =>
  db
    .updateTable('change_sequence')
    .set((eb) => ({ last_seq: eb('last_seq', '+', v.n) }))
    .where('id', '=', 1)
    .returning('last_seq'),
);
const LAST_SEQ = new PreparedQuery((db) => db.selectFrom('change_sequence').select('last_seq').where('id', '=', 1));
/**
 * The next position taken and one entry written at it, in one statement (a round trip fewer
 * where the database is a server): most transactions log one change.
 */
const TAKE_AND_INSERT_ONE = new PreparedQuery((db, v: Omit<ChangesTable, 'seq'>) =>
  db
    .with('taken', (db) =>
      db
        .updateTable('change_sequence')
        .set((eb) => ({ last_seq: eb('last_seq', '+', 1) }))
        .where('id', '=', 1)
        .returning('last_seq'),
    )
    .insertInto('changes')
    .columns(['seq', 'kind', 'item_id', 'change_type', 'at_utc', 'scope'])
    // Values in a select list have no column to take their type from: each is cast to its column's.
    .expression((eb) =>
      eb
        .selectFrom('taken')
        .select([
          'taken.last_seq',
          eb.cast<ChangeKind>(eb.val(v.kind), 'varchar').as('kind'),
          eb.cast<number>(eb.val(v.item_id), 'integer').as('item_id'),
          eb.cast<ChangeType>(eb.val(v.change_type), 'varchar').as('change_type'),
          eb.cast<string>(eb.val(v.at_utc), 'varchar').as('at_utc'),
          eb.cast<ChangeScope | null>(eb.val(v.scope), 'varchar').as('scope'),
        ]),
    )
    .returning('seq'),
);
/** One entry written: most transactions log one change. */
const INSERT_ONE = new PreparedQuery((db, v: ChangesTable) =>
  db.insertInto('changes').values({ seq: v.seq, kind: v.kind, item_id: v.item_id, change_type: v.change_type, at_utc: v.at_utc, scope: v.scope }),
);

interface Pending {
  kind: ChangeKind;
  itemId: number;
  type: ChangeType;
  scope: ChangeScope | null;
}

/** What a change to a recurring event applied to: one occurrence, it and the following ones, or the whole series. */
export type ChangeScope = 'this' | 'following' | 'all';

/** The last position a flush took; a store whose sequence row is missing has none. */
function taken(seq: number): number {
  if (!Number.isSafeInteger(seq)) throw new Error('calendar: the change log has no sequence row (run the migrations)');
  return seq;
}

/**
 * The change log: every item a committed write created, changed or deleted, in commit order,
 * for the change feed and webhooks.
 *
 * A transaction notes its changes as it goes ({@link record}) and writes them as its last step
 * ({@link flush}): it takes the next positions by updating the log's single sequence row, whose
 * lock it then holds until it commits. Transactions therefore commit in the order of their
 * positions on every database (SQLite runs one writer at a time anyway), so that a reader who
 * has seen position n has seen every position before it, and since the row is the last thing a
 * transaction locks, waiting for it never closes a cycle of locks.
 */
export class ChangeLog {
  readonly #pending: Pending[] = [];

  constructor(
    private readonly db: Kysely<Database>,
    private readonly inTransaction: boolean,
    private readonly retentionMs: number,
    private readonly dialect: Pick<StoreDialect, 'updateReturning' | 'writesInWith'>,
  ) {}

  /** Notes a change made by this transaction, written when it ends ({@link flush}); `scope` for one to a recurring event. */
  record(kind: ChangeKind, itemId: number, type: ChangeType, scope: ChangeScope | null = null): void {
    if (!this.inTransaction) throw new Error('calendar: changes are recorded inside a write transaction');
    const before = this.#pending.find((p) => p.kind === kind && p.itemId === itemId);
    if (!before) {
      this.#pending.push({ kind, itemId, type, scope });
      return;
    }
    if (scope !== null) before.scope = scope;
    // One entry per item and transaction: what a reader before it and after it would tell apart.
    if (before.type === 'created' && type === 'deleted') this.#pending.splice(this.#pending.indexOf(before), 1);
    else if (before.type !== 'created' && type !== 'created') before.type = type;
  }

  /** Writes the changes noted, at the next positions of the log; the transaction's last statement. The entries written. */
  async flush(now: Date): Promise<ChangeRow[]> {
    const n = this.#pending.length;
    if (!n) return [];
    const at = now.toISOString();
    const [first] = this.#pending;
    if (first && n === 1 && this.dialect.writesInWith) {
      const entry = { kind: first.kind, item_id: first.itemId, change_type: first.type, at_utc: at, scope: first.scope };
      const seq = taken(Number((await TAKE_AND_INSERT_ONE.execute(this.db, entry)).rows[0]?.seq));
      return this.#written([{ seq, ...entry }], seq, now);
    }
    let last: number;
    if (this.dialect.updateReturning) {
      last = taken(Number((await TAKE_RETURNING.execute(this.db, { n })).rows[0]?.last_seq));
    } else {
      await TAKE.execute(this.db, { n });
      // The row this transaction has just updated: its own value, whatever its snapshot.
      last = taken(Number((await LAST_SEQ.execute(this.db, {})).rows[0]?.last_seq));
    }
    const rows = this.#pending.map((p, i) => ({ seq: last - n + 1 + i, kind: p.kind, item_id: p.itemId, change_type: p.type, at_utc: at, scope: p.scope }));
    const [only] = rows;
    if (only && rows.length === 1) await INSERT_ONE.execute(this.db, only);
    else await this.db.insertInto('changes').values(rows).execute();
    return this.#written(rows, last, now);
  }

  /** Ends a flush that wrote `rows`, up to position `last`: the pending changes are done, and every so many positions the old entries go. */
  async #written(rows: ChangeRow[], last: number, now: Date): Promise<ChangeRow[]> {
    this.#pending.length = 0;
    if (Math.floor(last / PRUNE_EVERY) !== Math.floor((last - rows.length) / PRUNE_EVERY)) await this.#prune(now);
    return rows;
  }

  /** Drops the entries older than the retention, and remembers how far (tokens before are expired). */
  async #prune(now: Date): Promise<void> {
    const cutoff = new Date(now.getTime() - this.retentionMs).toISOString();
    const kept = await this.db.selectFrom('changes').select('seq').where('at_utc', '>=', cutoff).orderBy('seq').limit(1).executeTakeFirst();
    if (!kept) return;
    const through = Number(kept.seq) - 1;
    await this.db.deleteFrom('changes').where('seq', '<=', through).execute();
    await this.db.updateTable('change_sequence').set({ pruned_through: through }).where('id', '=', 1).where('pruned_through', '<', through).execute();
  }

  /** Where the log stands now. */
  async head(): Promise<LogHead> {
    const row = await this.db.selectFrom('change_sequence').select(['last_seq', 'pruned_through', 'store_id']).where('id', '=', 1).executeTakeFirstOrThrow();
    return { lastSeq: Number(row.last_seq), prunedThrough: Number(row.pruned_through), storeId: row.store_id };
  }

  /** Up to `limit` entries after position `seq` and up to `through`, oldest first; only of `kinds` when given. */
  async after(seq: number, through: number, limit: number, kinds?: readonly ChangeKind[]): Promise<ChangeRow[]> {
    let query = this.db.selectFrom('changes').selectAll().where('seq', '>', seq).where('seq', '<=', through);
    if (kinds?.length) query = query.where('kind', 'in', [...kinds]);
    const rows = await query.orderBy('seq').limit(limit).execute();
    return rows.map((r) => ({ ...r, seq: Number(r.seq), item_id: Number(r.item_id) }));
  }

  /**
   * Which of these items of `kind` changed after position `seq` and up to `through`, each with
   * whether one of those changes created it.
   */
  async changedBetween(kind: ChangeKind, ids: readonly number[], seq: number, through: number): Promise<Map<number, { created: boolean }>> {
    const found = new Map<number, { created: boolean }>();
    const wanted = [...new Set(ids)];
    if (!wanted.length) return found;
    for (let from = seq; from < through; from += SCAN_SPAN) {
      if (from > seq) await nextTurn();
      const rows = await this.db
        .selectFrom('changes')
        .select(['item_id', 'change_type'])
        .where('seq', '>', from)
        .where('seq', '<=', Math.min(from + SCAN_SPAN, through))
        .where('kind', '=', kind)
        .where('item_id', 'in', wanted)
        .execute();
      for (const r of rows) {
        const id = Number(r.item_id);
        const entry = found.get(id) ?? { created: false };
        entry.created ||= r.change_type === 'created';
        found.set(id, entry);
      }
    }
    return found;
  }

  /**
   * The series each of these occurrences is in now (those that left the index are missing):
   * who is told of a change to an occurrence depends on its series (`changes/occurrences.ts`).
   */
  async seriesOf(occurrenceIds: readonly number[]): Promise<Map<number, number>> {
    const wanted = [...new Set(occurrenceIds)];
    if (!wanted.length) return new Map();
    const rows = await this.db.selectFrom('occurrences').select(['id', 'series_id']).where('id', 'in', wanted).execute();
    return new Map(rows.map((r) => [Number(r.id), Number(r.series_id)]));
  }
}
