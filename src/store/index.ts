import type { Kysely } from 'kysely';
import { TABLES, type Database } from './database.js';
import { dialectOf, type StoreDialect } from './dialects/index.js';
import type { Replication, ReplicaState } from './dialects/dialect.js';
import { dropStore, migrateToLatest } from './migrate.js';
import { PostStore } from '../posts/queries.js';
import { TablePrefixPlugin } from './table-prefix.js';
import { TermStore } from '../resources/terms/queries.js';
import { AttachmentStore } from '../images/queries.js';
import { EventStore } from '../resources/events/queries.js';
import { LinkedPostStore } from '../resources/linked/queries.js';
import { StoreVersion } from './version.js';
import { ChangeLog, DEFAULT_RETENTION_MS } from '../changes/log.js';
import { OccurrenceStore } from '../recurrence/queries.js';

// Fields `search` looks in.
const VENUE_SEARCH = ['posts.title', 'posts.content', 'posts.excerpt', 'd.address', 'd.city', 'd.province', 'd.state', 'd.stateprovince', 'd.zip', 'd.phone'];
const ORGANIZER_SEARCH = ['posts.title', 'posts.content', 'posts.excerpt', 'd.phone', 'd.email', 'd.website'];

/**
 * The calendar's storage: typed Kysely access to its prefixed tables, by resource. A
 * transaction gets a `Store` of its own, so that every query of a write runs inside it.
 */
export class Store {
  readonly terms: TermStore;
  readonly posts: PostStore;
  readonly attachments: AttachmentStore;
  readonly events: EventStore;
  readonly venues: LinkedPostStore<'venues'>;
  readonly organizers: LinkedPostStore<'organizers'>;
  /** Series and their occurrence index. */
  readonly occurrences: OccurrenceStore;
  /** The change log; inside a transaction, where its writes note what they change. */
  readonly changes: ChangeLog;

  private constructor(
    readonly db: Kysely<Database>,
    readonly dialect: StoreDialect,
    /** The prefix of its tables' names. */
    readonly prefix: string,
    private readonly versions: StoreVersion,
    private readonly retentionMs: number,
    inTransaction: boolean,
  ) {
    this.changes = new ChangeLog(db, inTransaction, retentionMs, dialect.updateReturning);
    this.terms = new TermStore(db);
    this.posts = new PostStore(db, dialect);
    this.attachments = new AttachmentStore(db);
    this.events = new EventStore(db, dialect);
    this.venues = new LinkedPostStore(db, dialect, 'venues', 'venue', VENUE_SEARCH);
    this.organizers = new LinkedPostStore(db, dialect, 'organizers', 'organizer', ORGANIZER_SEARCH);
    this.occurrences = new OccurrenceStore(db, dialect);
  }

  /**
   * A store over a host's (or the helper's) Kysely instance, with its tables prefixed;
   * `changeRetentionMs` is how long the change log keeps its entries.
   */
  static open(raw: Kysely<unknown>, prefix: string, changeRetentionMs = DEFAULT_RETENTION_MS): Store {
    const dialect = dialectOf(raw);
    const versions = new StoreVersion(dialect);
    const db = raw.withPlugin(new TablePrefixPlugin(prefix, TABLES)).withPlugin(versions) as unknown as Kysely<Database>;
    return new Store(db, dialect, prefix, versions, changeRetentionMs, false);
  }

  /** The store's version now (`store/version.ts`); `undefined` where the dialect has none. */
  version(): Promise<string | undefined> {
    return this.versions.current(this.db);
  }

  /** This node's state read as a replica's (README "Read replicas"). */
  replicaState(): Promise<ReplicaState> {
    return this.#replication().replicaState(this.db);
  }

  /** A log position at or past every write committed so far on this node, the primary. */
  writePosition(): Promise<bigint> {
    return this.#replication().writePosition(this.db);
  }

  #replication(): Replication {
    const { replication } = this.dialect;
    if (!replication) throw new Error(`calendar-events-rest: read replicas need PostgreSQL; this store is ${this.dialect.name}`);
    return replication;
  }

  /** Runs `work` in one transaction, with a store bound to it; the changes it noted are logged last. */
  transaction<T>(work: (tx: Store) => Promise<T>): Promise<T> {
    return this.db
      .transaction()
      .execute(async (trx) => {
        const tx = new Store(trx, this.dialect, this.prefix, this.versions, this.retentionMs, true);
        const result = await work(tx);
        await tx.changes.flush(new Date());
        return result;
      })
      .finally(() => this.versions.bump());
  }
}

/** Creates or upgrades the store's tables (with `prefix`) in a raw Kysely instance. */
export async function migrateStore(raw: Kysely<unknown>, prefix: string): Promise<void> {
  await migrateToLatest(raw, prefix);
}

export { dropStore };
