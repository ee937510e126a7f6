import type { KindRegistry } from '../host-kinds/registry.js';
import type { ChangeScope } from '../changes/log.js';
import { randomUUID } from 'node:crypto';
import type { User } from '../auth/capabilities.js';
import type { ChangeRow } from '../changes/log.js';
import type { ChangeKind, ChangeType } from '../store/database.js';
import type { Store } from '../resources/store.js';
import { postJson } from './post.js';
import { webhookHeaders } from './signature.js';
import { readOutcome } from '../changes/visibility.js';
import { occurrenceDeletionsTold } from '../changes/occurrences.js';

/** One receiver of the calendar's changes. */
export interface WebhookEndpoint {
  /** Where deliveries are POSTed (http or https). */
  url: string;
  /** The signing secret: `whsec_<base64>` (the Standard Webhooks form, a key of 16 bytes or more), or any other text of 8 characters or more (keyed by its UTF-8 bytes). */
  secret: string;
  /** What keeps the endpoint's place in the log; default its URL (a new name starts from now). */
  name?: string;
  /** Only changes of these kinds; default all. */
  kinds?: ChangeKind[];
  /** Only these changes (as delivered: an item the viewer may not read is `deleted`); default all. */
  changes?: ChangeType[];
  /** Whose view of the items payloads carry; default the public's (anonymous). */
  user?: User | null;
}

/** How webhooks are delivered. */
export interface WebhookOptions {
  endpoints: WebhookEndpoint[];
  /** Hosts receivers may be on besides public addresses on web ports (the SSRF policy of `imageHosts`, added to it). */
  allowHosts?: string[];
  /** The REST root the items' URLs are under (a mount's root); default `/wp-json`. */
  root?: string;
  /** How often the log is looked at for other instances' writes (ms); default 1000. */
  pollMs?: number;
  /** The first retry after a failure (ms), doubling up to an hour; default 1000. */
  retryMs?: number;
  /** How long a receiver may take to answer (ms); default 10000. */
  timeoutMs?: number;
  /** How long an instance keeps an endpoint to itself between deliveries (ms); default 30000. */
  leaseMs?: number;
}

/** The options as the deliverer uses them. */
export interface ResolvedWebhooks {
  endpoints: (WebhookEndpoint & { key: string })[];
  allowHosts: readonly string[];
  root: string;
  pollMs: number;
  retryMs: number;
  timeoutMs: number;
  leaseMs: number;
}

/** What a delivery's JSON body holds. */
export interface WebhookPayload {
  /** The delivery's id (`webhook-id` too): the same for every attempt at one change. */
  id: string;
  kind: ChangeKind;
  change: ChangeType;
  item_id: number;
  /** When the change was committed (ISO 8601, UTC). */
  time: string;
  /** The item as the endpoint's viewer reads it at delivery; `null` for a deletion. */
  item: unknown;
  /** A change to a recurring event: what it applied to (`this` occurrence, `following` ones, `all`). */
  scope?: ChangeScope;
}

const MAX_RETRY_MS = 3_600_000;
const BATCH = 50;

/** Reads a path of the namespace as a user, through the calendar's own pipeline. */
export type ItemReader = (path: string, user: User | null) => Promise<{ status: number; body: unknown }>;

/**
 * Delivers the change log to the webhook endpoints: at least once, in log order (so in order
 * per item), with retries that back off. Each endpoint's place in the log is a row of
 * `webhook_cursors`, moved on only after its receiver answered 2xx, so restarts and crashes lose
 * nothing; an instance leases the row while it delivers, so that instances sharing a database
 * do not deliver the same change twice (unless a lease runs out mid-delivery). Everything runs
 * off the request path: a slow or dead receiver delays only its own deliveries.
 */
export class WebhookDeliverer {
  readonly #owner = randomUUID();
  readonly #running = new Map<string, Promise<void>>();
  #timer: ReturnType<typeof setInterval> | undefined;
  #stopped = false;
  /** Aborts the deliveries under way when the calendar closes. */
  readonly #abort = new AbortController();
  /** The last failure reported: the same one, every poll, is reported once. */
  #reported: string | undefined;

  constructor(
    private readonly store: Store,
    private readonly options: ResolvedWebhooks,
    private readonly ready: () => Promise<unknown>,
    private readonly read: ItemReader,
    private readonly onError: (error: unknown) => void,
    /** Where occurrence ids start (`recurrence.idBase`). */
    private readonly idBase: number,
    /** The routes of items of every kind, the host's included. */
    private readonly kinds: KindRegistry,
  ) {}

  /** Starts polling the log (the timer does not keep the process alive). */
  start(): void {
    if (this.#timer || this.#stopped) return;
    this.#timer = setInterval(() => this.kick(), this.options.pollMs);
    this.#timer.unref();
    this.kick();
  }

  /** Looks for changes to deliver now (after a write), without waiting for it. */
  kick(): void {
    if (this.#stopped) return;
    for (const endpoint of this.options.endpoints) {
      if (this.#running.has(endpoint.key)) continue;
      const run = this.#deliver(endpoint)
        .then(() => (this.#reported = undefined))
        .catch((error: unknown) => {
          const message = error instanceof Error ? error.message : String(error);
          if (message !== this.#reported) this.onError(error);
          this.#reported = message;
        })
        .finally(() => this.#running.delete(endpoint.key));
      this.#running.set(endpoint.key, run);
    }
  }

  /** Whether it delivers (started and not stopped). */
  get running(): boolean {
    return this.#timer !== undefined && !this.#stopped;
  }

  /** Stops delivering, once the deliveries under way have ended. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#timer);
    // A receiver that is slow to answer does not hold the host's shutdown up: that change is
    // delivered again after the restart.
    this.#abort.abort();
    await Promise.all(this.#running.values());
  }

  async #deliver(endpoint: ResolvedWebhooks['endpoints'][number]): Promise<void> {
    try {
      await this.ready();
    } catch {
      return; // Not migrated (or unreachable) yet: the next poll tries again.
    }
    const db = this.store.db;
    const head = await this.store.changes.head();
    const existing = await db.selectFrom('webhook_cursors').select(['seq', 'retry_at']).where('endpoint', '=', endpoint.key).executeTakeFirst();
    if (!existing) {
      // A new endpoint starts from now: it is told of changes made after it was set up.
      await db
        .insertInto('webhook_cursors')
        .values({ endpoint: endpoint.key, seq: head.lastSeq, attempts: 0, retry_at: '', lease_owner: '', lease_until: '', last_error: '' })
        .execute()
        .catch(() => undefined); // Another instance set it up first.
      return;
    }
    // Nothing new, or not yet time to retry: no write (a write moves the store version, and
    // every cache with it).
    if (Number(existing.seq) >= head.lastSeq || existing.retry_at > new Date().toISOString()) return;
    if (Number(existing.seq) < head.prunedThrough) {
      // Entries this endpoint was behind on were pruned (`changes.retentionDays`): it goes on from what is left.
      this.onError(
        new Error(
          `calendar-events-rest: webhook endpoint ${endpoint.key} missed changes ${Number(existing.seq) + 1}–${head.prunedThrough}, pruned before it could take them`,
        ),
      );
    }
    const now = () => new Date().toISOString();
    const leaseUntil = () => new Date(Date.now() + this.options.leaseMs).toISOString();
    const claimed = await db
      .updateTable('webhook_cursors')
      .set({ lease_owner: this.#owner, lease_until: leaseUntil() })
      .where('endpoint', '=', endpoint.key)
      .where('retry_at', '<=', now())
      .where((eb) => eb.or([eb('lease_until', '<', now()), eb('lease_owner', '=', this.#owner)]))
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) return;
    const mine = () => db.updateTable('webhook_cursors').where('endpoint', '=', endpoint.key).where('lease_owner', '=', this.#owner);
    try {
      for (let batch = 0; !this.#stopped && batch < 20; batch++) {
        const cursor = await db.selectFrom('webhook_cursors').select(['seq', 'attempts']).where('endpoint', '=', endpoint.key).executeTakeFirstOrThrow();
        const rows = await this.store.changes.after(Number(cursor.seq), head.lastSeq, BATCH);
        for (const row of rows) {
          if (this.#stopped) return;
          const outcome = await this.#deliverOne(endpoint, row, head.storeId);
          if (outcome !== true) {
            // Stopped mid-delivery: not the receiver's failure, nothing to back off from.
            if (this.#stopped) return;
            const attempts = Number(cursor.attempts) + 1;
            const wait = Math.min(this.options.retryMs * 2 ** (attempts - 1), MAX_RETRY_MS) * (0.9 + Math.random() * 0.2);
            await mine()
              .set({ attempts, retry_at: new Date(Date.now() + wait).toISOString(), last_error: outcome.slice(0, 500), lease_until: '' })
              .execute();
            return;
          }
          const moved = await mine().set({ seq: row.seq, attempts: 0, retry_at: '', last_error: '', lease_until: leaseUntil() }).executeTakeFirst();
          // The lease ran out and another instance took over: it goes on from the cursor.
          if (Number(moved.numUpdatedRows) !== 1) return;
          cursor.attempts = 0;
        }
        if (rows.length < BATCH) break;
      }
    } finally {
      await mine().set({ lease_until: '' }).execute();
    }
  }

  /** Delivers one change: `true` once it is delivered or filtered out, else why it failed. */
  async #deliverOne(endpoint: ResolvedWebhooks['endpoints'][number], row: ChangeRow, storeId: string): Promise<true | string> {
    if (endpoint.kinds && !endpoint.kinds.includes(row.kind)) return true;
    const read = row.change_type === 'deleted' ? undefined : await this.read(`${this.kinds.itemPath(row.kind)}${row.item_id}`, endpoint.user ?? null);
    const outcome = read ? readOutcome(read.status) : 'hidden';
    // The item could not be read (the store is unreachable): retried, not reported as deleted.
    if (outcome === 'unknown') return `reading ${row.kind} ${row.item_id} answered ${read?.status}`;
    const visible = outcome === 'visible' && read !== undefined;
    // Created where the viewer cannot see it: they are never told of it (until it shows, as an update).
    if (!visible && row.change_type === 'created') return true;
    const change: ChangeType = visible ? row.change_type : 'deleted';
    if (endpoint.changes && !endpoint.changes.includes(change)) return true;
    if (!visible && row.kind === 'event' && row.item_id >= this.idBase) {
      // An occurrence: only while the viewer can see its series (`changes/occurrences.ts`).
      const told = await occurrenceDeletionsTold(this.store.changes, [row.item_id], async (id) =>
        readOutcome((await this.read(`${this.kinds.itemPath('event')}${id}`, endpoint.user ?? null)).status),
      );
      if (told === 'unknown') return `reading the series of event ${row.item_id} failed`;
      if (!told.has(row.item_id)) return true;
    }
    const payload: WebhookPayload = {
      id: `${storeId}.${row.seq}`,
      kind: row.kind,
      change,
      item_id: row.item_id,
      time: row.at_utc,
      item: visible ? read.body : null,
      ...(row.scope ? { scope: row.scope } : {}),
    };
    const body = JSON.stringify(payload);
    try {
      const status = await postJson(endpoint.url, body, webhookHeaders(endpoint.secret, payload.id, Math.floor(Date.now() / 1000), body), {
        allowHosts: this.options.allowHosts,
        timeoutMs: this.options.timeoutMs,
        signal: this.#abort.signal,
      });
      return status >= 200 && status < 300 ? true : `HTTP ${status}`;
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  }
}
