/**
 * What a host's hooks look like (README "Extending: hooks, change events, roles"), by kind of
 * item: `beforeChange` inside a write's transaction, `afterChange` once it committed,
 * `afterRead` on every item rendered for a viewer.
 */
import type { User } from '../auth/capabilities.js';
import type { ChangeScope } from '../changes/log.js';
import { ApiError } from '../http/errors.js';
import type { Collection, HostCollection } from '../kinds.js';
import type { HostFieldsOf } from '../fields/declare.js';
import type { CalendarEvent, HostItem, Organizer, Term, Venue } from '../schemas/types.js';

/** The kinds hooks act on, named by collection: `events`, `venues`, `organizers`, `categories`, `tags`, and a host's kinds (`kinds`). */
export type HookKind = Collection | HostCollection;

/** The items of each kind, as the API shows them. */
export interface HookItems {
  events: CalendarEvent;
  venues: Venue;
  organizers: Organizer;
  categories: Term;
  tags: Term;
}

/** The item of a kind as the API shows it: a built-in kind's, or a host's kind's. */
export type HookItemOf<K extends HookKind> = K extends keyof HookItems ? HookItems[K] : HostItem;

/** What a write does to its item. */
export type WriteOperation = 'create' | 'update' | 'delete';

/** The parameters of a write, as checked by its route (and a venue or organizer given inside an event write). */
export type WriteInput = Readonly<Record<string, unknown>>;

/** An item as stored before the write: its columns (`id`, `title` or `name`, `status`, `author`…). */
export interface StoredItem {
  readonly id: number;
  readonly [column: string]: unknown;
}

/** What `beforeChange` is told. */
export interface BeforeChangeArgs<K extends HookKind> {
  kind: K;
  operation: WriteOperation;
  /** The parameters sent (for a delete, `{}`, or `{ force }`). */
  input: WriteInput;
  /** The item as stored, for an update or a delete. */
  item?: StoredItem;
  /** Who writes; `null` for a write without a caller (a script's service call). */
  user: User | null;
}

/** What `afterChange` is told: one committed change. `F` is the calendar's `fields` option, typing what `read` answers. */
export interface AfterChangeArgs<K extends HookKind, F = unknown> {
  kind: K;
  /** What the change log says happened: a trash is an `update` (the item is kept). */
  operation: WriteOperation;
  id: number;
  /** For a change to a recurring event: what it applied to. */
  scope?: ChangeScope;
  /** When it was committed. */
  at: Date;
  /**
   * The item as `user` (default: a caller signed out) reads it now, through its route (host
   * fields and `afterRead` included); `null` once deleted, or when that user may not read it.
   */
  read(user?: User | null): Promise<ReadItem<K, F> | null>;
}

/** An item as `afterRead` receives it: the API's JSON, the host fields of `F` (the `fields` option) included. */
export type ReadItem<K extends HookKind, F = unknown> = HookItemOf<K> & HostFieldsOf<F, K> & Record<string, unknown>;

/** What `afterRead` gives back: the item to show (or nothing, when it changed the one it was given). */
export type ReadResult = Record<string, unknown> | undefined | void;

/**
 * A hook on rendered items, with what its answer depends on besides the item: `none` (it is not
 * told the viewer, and its answer is reused like the item's), or `user` (it is told the viewer;
 * a signed-in viewer's items are then rendered for them alone, unless `key` says which of the
 * user's traits the answer depends on beyond their id, roles and capabilities: viewers with
 * equal keys then share rendered items).
 */
export type AfterReadHook<K extends HookKind, F = unknown> =
  | { readonly vary: 'none'; run(args: { kind: K; item: ReadItem<K, F> }): ReadResult | Promise<ReadResult> }
  | {
      readonly vary: 'user';
      key?(user: User): string;
      run(args: { kind: K; item: ReadItem<K, F>; user: User | null }): ReadResult | Promise<ReadResult>;
    };

/** The hooks of one kind; `F` is the calendar's `fields` option, typing its items. */
export interface KindHooks<K extends HookKind, F = unknown> {
  /**
   * Runs inside the write's transaction, before anything is written: return a changed input (or
   * nothing), or throw a {@link HookError} to refuse the write (nothing is stored).
   */
  beforeChange?(args: BeforeChangeArgs<K>): WriteInput | undefined | void | Promise<WriteInput | undefined | void>;
  /** Runs after the commit, once per change the write made; what it throws goes to `onError`. */
  afterChange?(args: AfterChangeArgs<K, F>): void | Promise<void>;
  /** Adds or hides fields of an item rendered for a viewer. */
  afterRead?: AfterReadHook<K, F>;
}

/**
 * The `hooks` option: hooks by kind; `F`, the calendar's `fields` option, types their items' host
 * fields; `KO`, its `kinds` option, adds the host's kinds by their collections.
 */
export type HooksOption<F = unknown, KO = Record<never, never>> = { readonly [K in Collection]?: KindHooks<K, F> } & {
  readonly [K in keyof KO & string]?: KindHooks<K, F>;
};

/**
 * A refusal a host's hook throws: answered as the API's JSON error with this code, message and
 * status (`{ code, message, data: { status } }`), nothing stored.
 */
export class HookError extends ApiError {
  constructor(code: string, message: string, status = 400) {
    if (!Number.isInteger(status) || status < 400 || status > 599)
      throw new TypeError(`calendar-events-rest: a HookError's status is an error status (400–599), not ${status}`);
    if (typeof code !== 'string' || !code) throw new TypeError('calendar-events-rest: a HookError needs a code, such as "capacity_too_large"');
    super(code, message, { status });
    this.name = 'HookError';
  }
}
