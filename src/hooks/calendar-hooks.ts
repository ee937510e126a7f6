/**
 * The host's hooks at work (README "Extending: hooks, change events, roles"): the services call
 * `before` inside a write's transaction, the store calls `committed` after a commit, and the
 * renderers call `read` on the items they show.
 */
import type { Principal, User } from '../auth/capabilities.js';
import type { ChangeRow } from '../changes/log.js';
import { KINDS, type Collection } from '../kinds.js';
import { NO_KINDS, type KindRegistry } from '../host-kinds/registry.js';
import type { ChangeType } from '../store/database.js';
import type { AfterChangeArgs, BeforeChangeArgs, HookKind, HooksOption, ReadItem, ReadResult, StoredItem, WriteInput, WriteOperation } from './types.js';

/** One kind's hooks with the kind left open, as the runner calls them. */
interface OpenHooks {
  beforeChange?(args: BeforeChangeArgs<HookKind>): WriteInput | undefined | void | Promise<WriteInput | undefined | void>;
  afterChange?(args: AfterChangeArgs<HookKind>): void | Promise<void>;
  afterRead?: {
    readonly vary: 'none' | 'user';
    key?(user: User): string;
    run(args: { kind: HookKind; item: Record<string, unknown>; user?: User | null }): ReadResult | Promise<ReadResult>;
  };
}

const COLLECTIONS: readonly Collection[] = Object.values(KINDS).map((k) => k.collection);

/** What the change log's types are as operations. */
const OPERATION: Record<ChangeType, WriteOperation> = { created: 'create', updated: 'update', deleted: 'delete' };

/** The error of a bad `hooks` entry, naming it. */
function badHook(path: string, takes: string): TypeError {
  return new TypeError(`calendar-events-rest: option \`hooks.${path}\` takes ${takes}`);
}

/** Reads a path of the namespace as a user, through the calendar's pipeline (as webhooks read their items). */
export type ItemReader = (path: string, user: User | null) => Promise<{ status: number; body: unknown }>;

/** The user hooks are told of: the host's, as it was given. */
function userOf(p: Principal | null): User | null {
  if (!p) return null;
  return p.user ?? { id: p.id, capabilities: [...p.capabilities] };
}

/** A calendar's hooks, checked once. */
export class CalendarHooks {
  readonly #byKind = new Map<HookKind, OpenHooks>();
  /** The `afterRead` hooks told the viewer. */
  readonly #byUser: readonly NonNullable<OpenHooks['afterRead']>[];

  constructor(
    option: HooksOption | undefined,
    private readonly onError: (error: unknown) => void,
    /** The host's kinds (`kinds` option): hooks may be given for them too. */
    private readonly kinds: KindRegistry = NO_KINDS,
  ) {
    const collections: readonly HookKind[] = [...COLLECTIONS, ...kinds.list.map((k) => k.collection)];
    for (const [kind, hooks] of Object.entries(option ?? {})) {
      const collection = collections.find((c) => c === kind);
      if (!collection) throw badHook(kind, `nothing: hooks are given by kind, one of ${collections.join(', ')}`);
      if (hooks === undefined) continue;
      if (typeof hooks !== 'object' || hooks === null) throw badHook(kind, 'an object { beforeChange, afterChange, afterRead }');
      const open: OpenHooks = hooks;
      for (const name of Object.keys(open)) {
        if (name !== 'beforeChange' && name !== 'afterChange' && name !== 'afterRead')
          throw badHook(`${kind}.${name}`, 'nothing: the hooks are beforeChange, afterChange and afterRead');
      }
      if (open.beforeChange !== undefined && typeof open.beforeChange !== 'function') throw badHook(`${kind}.beforeChange`, 'a function');
      if (open.afterChange !== undefined && typeof open.afterChange !== 'function') throw badHook(`${kind}.afterChange`, 'a function');
      const read = open.afterRead;
      if (
        read !== undefined &&
        (typeof read !== 'object' || read === null || (read.vary !== 'none' && read.vary !== 'user') || typeof read.run !== 'function')
      ) {
        throw badHook(`${kind}.afterRead`, "an object { vary: 'none' | 'user', run(...) }");
      }
      if (read?.key !== undefined && (read.vary !== 'user' || typeof read.key !== 'function'))
        throw badHook(`${kind}.afterRead.key`, "a function (user) => text, with vary: 'user'");
      this.#byKind.set(collection, open);
    }
    this.#byUser = [...this.#byKind.values()].flatMap((h) => (h.afterRead?.vary === 'user' ? [h.afterRead] : []));
  }

  /**
   * Runs the kind's `beforeChange` (inside the write's transaction): the input the write goes on
   * with, the one given when the hook returned nothing. What the hook throws ends the write.
   */
  async before<I extends object>(kind: HookKind, operation: WriteOperation, input: I, p: Principal | null, item?: StoredItem): Promise<I> {
    const hook = this.#byKind.get(kind)?.beforeChange;
    if (!hook) return input;
    const given = await hook({ kind, operation, input: { ...(input as Record<string, unknown>) }, ...(item ? { item } : {}), user: userOf(p) });
    if (given === undefined || given === null) return input;
    if (typeof given !== 'object' || Array.isArray(given))
      throw new TypeError(`calendar-events-rest: hooks.${kind}.beforeChange returned ${JSON.stringify(given)}, not an input object`);
    // The write reads the parameters it knows by name; the host answers for the values it put there.
    return given as I;
  }

  /** Whether any `beforeChange` is declared for `kind`. */
  changes(kind: HookKind): boolean {
    return this.#byKind.get(kind)?.beforeChange !== undefined;
  }

  /**
   * Runs `afterChange` once per committed change, in log order; what a hook throws goes to
   * `onError`. `reader` reads an item for the hook's `read()`.
   */
  async committed(rows: readonly ChangeRow[], reader?: ItemReader): Promise<void> {
    for (const row of rows) {
      const kind = this.kinds.collectionOf(row.kind);
      const path = `${this.kinds.itemPath(row.kind)}${row.item_id}`;
      const hook = this.#byKind.get(kind)?.afterChange;
      if (!hook) continue;
      const read = async (user: User | null = null) => {
        if (!reader || row.change_type === 'deleted') return null;
        const answer = await reader(path, user);
        // The route's JSON answer: the item as the API shows it.
        return answer.status === 200 && typeof answer.body === 'object' && answer.body !== null ? (answer.body as ReadItem<HookKind>) : null;
      };
      try {
        await hook({
          kind,
          operation: OPERATION[row.change_type],
          id: row.item_id,
          ...(row.scope ? { scope: row.scope } : {}),
          at: new Date(row.at_utc),
          read,
        });
      } catch (error) {
        this.onError(error);
      }
    }
  }

  /** The items as the kind's `afterRead` shows them to `p`. */
  async read<J extends object>(kind: HookKind, items: J[], p: Principal | null): Promise<J[]> {
    const hook = this.#byKind.get(kind)?.afterRead;
    if (!hook || !items.length) return items;
    const user = hook.vary === 'user' ? userOf(p) : undefined;
    const out: J[] = [];
    for (const item of items) {
      // The API's JSON, handed over as the plain object it is.
      const json = item as Record<string, unknown>;
      const shown = await hook.run(hook.vary === 'user' ? { kind, item: json, user } : { kind, item: json });
      out.push(shown === undefined || shown === null ? item : (shown as J));
    }
    return out;
  }

  /**
   * What items rendered for `p` depend on besides the renderers' own keys (id, roles,
   * capabilities): `''` for nothing more; the hooks' `key`s of the user; `undefined` when an
   * `afterRead` told the user declared no key, since the host's user may say more than that
   * (such items are rendered for that viewer alone).
   */
  renderKey(p: Principal | null): string | undefined {
    const user = userOf(p);
    if (!user || !this.#byUser.length) return '';
    const keys: string[] = [];
    for (const hook of this.#byUser) {
      if (!hook.key) return undefined;
      keys.push(hook.key(user));
    }
    return JSON.stringify(keys);
  }
}

/** A calendar without hooks (services built on their own: tests, scripts). */
export const NO_HOOKS = new CalendarHooks(undefined, () => undefined);
