/**
 * The calendar's storage by resource: the queries of every kind over one connection
 * (`store/connection.ts`). A transaction gets a `Store` of its own, so that every query of a
 * write runs inside it, and the changes it noted are logged as its last step.
 */
import type { Kysely } from 'kysely';
import { ChangeLog, DEFAULT_RETENTION_MS, type ChangeRow } from '../changes/log.js';
import { FieldStore } from '../fields/store.js';
import { AttachmentStore } from '../images/queries.js';
import { PostStore } from '../posts/queries.js';
import { OccurrenceStore } from '../recurrence/queries.js';
import { Connection } from '../store/connection.js';
import type { Database } from '../store/database.js';
import type { StoreDialect } from '../store/dialects/index.js';
import type { ReplicaState } from '../store/dialects/dialect.js';
import { EventStore } from './events/store.js';
import { LinkedPostStore } from './linked/store.js';
import { TermStore } from './terms/store.js';

// Fields `search` looks in.
const VENUE_SEARCH = ['posts.title', 'posts.content', 'posts.excerpt', 'd.address', 'd.city', 'd.province', 'd.state', 'd.stateprovince', 'd.zip', 'd.phone'];
const ORGANIZER_SEARCH = ['posts.title', 'posts.content', 'posts.excerpt', 'd.phone', 'd.email', 'd.website'];

/** Told of the changes a transaction logged, once it committed (`afterChange` hooks, change events). */
export type CommitListener = (changes: readonly ChangeRow[]) => Promise<void>;

/** Typed Kysely access to the calendar's prefixed tables, by resource. */
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
  /** The values of the fields a host declared. */
  readonly fields: FieldStore;

  private constructor(
    private readonly connection: Connection,
    private readonly retentionMs: number,
    private readonly committed?: CommitListener,
  ) {
    const { db, dialect } = connection;
    this.changes = new ChangeLog(db, connection.inTransaction, retentionMs, dialect);
    this.fields = new FieldStore(db);
    this.terms = new TermStore(db);
    this.posts = new PostStore(db, dialect);
    this.attachments = new AttachmentStore(db);
    this.events = new EventStore(db, dialect, this.fields, connection.searchIndex);
    this.venues = new LinkedPostStore(db, 'venues', 'venue', VENUE_SEARCH, this.fields);
    this.organizers = new LinkedPostStore(db, 'organizers', 'organizer', ORGANIZER_SEARCH, this.fields);
    this.occurrences = new OccurrenceStore(db, dialect);
  }

  /**
   * A store over a host's (or the helper's) Kysely instance, with its tables prefixed;
   * `changeRetentionMs` is how long the change log keeps its entries.
   */
  static open(raw: Kysely<unknown>, prefix: string, changeRetentionMs = DEFAULT_RETENTION_MS, committed?: CommitListener): Store {
    return new Store(Connection.open(raw, prefix), changeRetentionMs, committed);
  }

  /** The prefixed Kysely instance. */
  get db(): Kysely<Database> {
    return this.connection.db;
  }

  /** The database's dialect. */
  get dialect(): StoreDialect {
    return this.connection.dialect;
  }

  /** The prefix of its tables' names. */
  get prefix(): string {
    return this.connection.prefix;
  }

  /** The store's version now (`store/version.ts`); `undefined` where the dialect has none. */
  version(): Promise<string | undefined> {
    return this.connection.version();
  }

  /** This node's state read as a replica's (README "Read replicas"). */
  replicaState(): Promise<ReplicaState> {
    return this.connection.replicaState();
  }

  /** A log position at or past every write committed so far on this node, the primary. */
  writePosition(): Promise<bigint> {
    return this.connection.writePosition();
  }

  /**
   * Runs `work` in one transaction, with a store bound to it; the changes it noted are logged
   * last, and told to the commit listener once committed (never for a transaction rolled back).
   */
  async transaction<T>(work: (tx: Store) => Promise<T>): Promise<T> {
    let logged: readonly ChangeRow[] = [];
    const result = await this.connection.transaction(async (connection) => {
      const tx = new Store(connection, this.retentionMs);
      const value = await work(tx);
      logged = await tx.changes.flush(new Date());
      return value;
    });
    if (logged.length && this.committed) await this.committed(logged);
    return result;
  }
}
