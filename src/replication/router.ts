import { dispatch, isUnavailableAnswer, type Core } from '../http/pipeline.js';
import { headerValue } from '../http/header-value.js';
import type { CoreRequest, CoreResponse } from '../http/types.js';
import type { ReplicaState } from '../store/dialects/dialect.js';
import { isDatabaseUnavailable } from '../store/unavailable.js';
import { POSITION_HEADER, formatPosition, parsePosition } from '../store/lsn.js';

/** How reads wait for replicas and how long one that failed is left alone. */
export interface ReplicationOptions {
  /** How long a read waits for a replica to replay what it must show, before the primary answers it. */
  waitMs: number;
  /** How long a replica that could not be reached is skipped. */
  skipMs: number;
}

/** A replica: the pipeline over its store, and its state as a replica read sees it. */
export interface ReplicaNode {
  core: Core;
  state(): Promise<ReplicaState>;
}

/** A replica and until when it is skipped (it could not be reached). */
interface ReplicaSlot {
  node: ReplicaNode;
  skippedUntil: number;
}

/** Pause between two polls of a replica that is behind. */
const POLL_MS = 1;

/** Least time between two reads of the primary's position made to check the positions clients send. */
const CHECK_EVERY_MS = 5;

/**
 * Sends each request to one node (README "Read replicas"): writes and signed-in reads to the
 * primary; logged-out reads to a replica that has replayed every write this process made or
 * saw and the position the client sent, waiting up to `waitMs` for one, else to the primary.
 * A request stays on its node from its version read to its last query, so that the answers a
 * node keeps are bound to that node's own version.
 */
export class ReplicaRouter {
  /** The furthest position written or served by this process: no later read shows less. */
  #highWater = 0n;
  /**
   * The primary's position when this process first read from a replica, which the calendar
   * does only once it has found the tables up to date: a replica short of it may lack a
   * table or column the code reads (a migration it has not replayed), and would answer 500.
   * No replica read is served below it, the primary away or not. `undefined` until read.
   */
  #floor: bigint | undefined;
  #floorRead: Promise<void> | undefined;
  #next = 0;
  readonly #replicas: readonly ReplicaSlot[];
  /** Until when logged-out reads do not try the primary (it could not be reached). */
  #primaryAwayUntil = 0;
  /** The last read of the primary's position, to tell a header from the future (`#credible`). */
  #positionRead: { started: number; position: Promise<bigint | undefined> } | undefined;

  constructor(
    private readonly primary: Core,
    /** Where the primary's log ends now (read after each write). */
    private readonly writePosition: () => Promise<bigint>,
    replicas: readonly ReplicaNode[],
    private readonly options: ReplicationOptions,
    private readonly onError: (error: unknown) => void,
  ) {
    this.#replicas = replicas.map((node) => ({ node, skippedUntil: 0 }));
  }

  /** Answers a write or a signed-in read on the primary; a write's answer tells where it ended. */
  async onPrimary(req: CoreRequest, write: boolean): Promise<CoreResponse | null> {
    const response = await dispatch(this.primary, req);
    if (!write || response === null || response.status >= 400) return response;
    try {
      const position = await this.writePosition();
      this.#raise(position);
      response.headers[POSITION_HEADER] = formatPosition(position);
    } catch (error) {
      // The write is done and answered; without its position, the next read of this process
      // may come from a replica that has not replayed it yet, but nothing else is wrong.
      if (!isDatabaseUnavailable(error)) this.onError(error);
    }
    return response;
  }

  /** Forgets where the tables were found (the host migrated again): the next read reads it anew. */
  schemaChanged(): void {
    this.#floor = undefined;
  }

  /** Answers a logged-out read, on a replica that has caught up when there is one. */
  async read(req: CoreRequest): Promise<CoreResponse | null> {
    const floor = await this.#schemaFloor();
    const sent = await this.#credible(parsePosition(headerValue(req.headers, POSITION_HEADER.toLowerCase())));
    const needed = max(floor, max(sent ?? 0n, this.#highWater));
    // Replicas found unreachable during this request, and the states of the others.
    const failed = new Set<ReplicaSlot>();
    const seen = new Map<ReplicaSlot, ReplicaState>();
    for (;;) {
      const pick = await this.#caughtUp(needed, failed, seen);
      if (pick === undefined) break;
      const response = await this.#serve(pick, req);
      if (response !== undefined) return response;
      this.#fail(pick.replica, failed, seen);
    }
    let response: CoreResponse | null | undefined;
    if (Date.now() >= this.#primaryAwayUntil) {
      response = await dispatch(this.primary, req);
      if (!isUnavailableAnswer(response)) return response;
      this.#primaryAwayUntil = Date.now() + this.options.skipMs;
    }
    // The primary is away. What this client sent still decides, and so do the tables; the
    // process' own mark does not (its last writes may never reach a replica, and a read of the
    // others is still right).
    const minimum = max(floor, sent ?? 0n);
    const ready = [...seen].filter(([, state]) => state.position === undefined || state.position >= minimum);
    ready.sort(([, a], [, b]) => (a.position === undefined ? -1 : b.position === undefined ? 1 : a.position > b.position ? -1 : 1));
    for (const [replica, state] of ready) {
      const served = await this.#serve({ replica, state }, req);
      if (served !== undefined) return served;
      this.#fail(replica, failed, seen);
    }
    // Nothing can answer: the primary's own 503 (asked again once it may be back).
    return response ?? dispatch(this.primary, req);
  }

  /**
   * Where replica reads start (`#floor`): the primary's position, read once. While the primary
   * cannot be reached, the furthest replica's for this request (the calendar then checked the
   * tables on a replica, and one at least as far has them); the primary is asked again once it
   * may be back.
   */
  async #schemaFloor(): Promise<bigint> {
    if (this.#floor !== undefined) return this.#floor;
    if (Date.now() >= this.#primaryAwayUntil) {
      this.#floorRead ??= this.writePosition()
        .then(
          (position) => {
            this.#floor ??= position;
          },
          (error: unknown) => {
            if (isDatabaseUnavailable(error)) this.#primaryAwayUntil = Date.now() + this.options.skipMs;
            else this.onError(error);
          },
        )
        .finally(() => (this.#floorRead = undefined));
      await this.#floorRead;
      if (this.#floor !== undefined) return this.#floor;
    }
    let furthest = 0n;
    for (const replica of this.#replicas) {
      if (replica.skippedUntil > Date.now()) continue;
      try {
        const { position } = await replica.node.state();
        if (position !== undefined) furthest = max(furthest, position);
      } catch (error) {
        if (!isDatabaseUnavailable(error)) this.onError(error);
        replica.skippedUntil = Date.now() + this.options.skipMs;
      }
    }
    return furthest;
  }

  /**
   * A position a client sent, or `undefined` when it is past the end of the primary's log (made
   * up: no replica would ever reach it, and every read would wait `waitMs` for nothing). Past this
   * process' mark, it is checked against a read of the primary's position started after the
   * request arrived (the write it stands for was acknowledged before): such reads run one at a
   * time, at most one per `CHECK_EVERY_MS`, however many requests ask.
   */
  async #credible(sent: bigint | undefined): Promise<bigint | undefined> {
    if (sent === undefined || sent <= this.#highWater) return sent;
    const arrived = performance.now();
    const last = await this.#positionRead?.position;
    if (last !== undefined && sent <= last) return sent;
    const known = await this.#primaryPositionSince(arrived);
    // The primary away: the client's word is all there is.
    return known === undefined || sent <= known ? sent : undefined;
  }

  /** The primary's position, read by a query started at or after `since` (`performance.now()`). */
  async #primaryPositionSince(since: number): Promise<bigint | undefined> {
    for (;;) {
      const read = this.#positionRead;
      if (read && read.started >= since) return read.position;
      if (read) {
        await read.position;
        const pause = read.started + CHECK_EVERY_MS - performance.now();
        if (pause > 0) await new Promise((resolve) => setTimeout(resolve, pause));
        // Another request may have started the next read meanwhile.
        if (this.#positionRead !== read) continue;
      }
      const started = performance.now();
      this.#positionRead = { started, position: this.writePosition().catch(() => undefined) };
    }
  }

  /** The answer of replica `pick`, or `undefined` when it could not be reached. */
  async #serve(pick: { replica: ReplicaSlot; state: ReplicaState }, req: CoreRequest): Promise<CoreResponse | null | undefined> {
    const response = await dispatch(pick.replica.node.core, req, Promise.resolve(pick.state.version));
    if (isUnavailableAnswer(response)) return undefined;
    const { position } = pick.state;
    if (position !== undefined) {
      this.#raise(position);
      if (response) response.headers[POSITION_HEADER] = formatPosition(position);
    }
    return response;
  }

  /**
   * The first replica, in turn, that has replayed `needed` (or is no replica any more), polling
   * the reachable ones for up to `waitMs`; `undefined` when none gets there in time.
   */
  async #caughtUp(
    needed: bigint,
    failed: Set<ReplicaSlot>,
    seen: Map<ReplicaSlot, ReplicaState>,
  ): Promise<{ replica: ReplicaSlot; state: ReplicaState } | undefined> {
    const deadline = performance.now() + this.options.waitMs;
    // Each read starts from the next replica in turn.
    const start = this.#next;
    this.#next = (this.#next + 1) % this.#replicas.length;
    const inTurn = [...this.#replicas.slice(start), ...this.#replicas.slice(0, start)];
    for (;;) {
      const now = Date.now();
      let reachable = 0;
      for (const replica of inTurn) {
        if (failed.has(replica) || replica.skippedUntil > now) continue;
        let state: ReplicaState;
        try {
          state = await replica.node.state();
        } catch (error) {
          if (!isDatabaseUnavailable(error)) this.onError(error);
          this.#fail(replica, failed, seen);
          continue;
        }
        reachable++;
        seen.set(replica, state);
        if (state.position === undefined || state.position >= needed) return { replica, state };
      }
      if (reachable === 0 || performance.now() >= deadline) return undefined;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  /** Leaves `replica` alone for `skipMs`, and out of this request. */
  #fail(replica: ReplicaSlot, failed: Set<ReplicaSlot>, seen: Map<ReplicaSlot, ReplicaState>): void {
    failed.add(replica);
    seen.delete(replica);
    replica.skippedUntil = Date.now() + this.options.skipMs;
  }

  #raise(position: bigint): void {
    if (position > this.#highWater) this.#highWater = position;
  }
}

function max(a: bigint, b: bigint): bigint {
  return a > b ? a : b;
}
