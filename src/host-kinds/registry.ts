/**
 * The kinds a calendar's host declared (`kinds` option), resolved once at `createCalendar`: their
 * names checked against the built-in kinds' and the API's own paths, and the lookups the change
 * feed, webhooks and hooks need to find an item's route from the kind the change log names.
 */
import { KINDS, KIND_NAMES, isKind, type AnyKind, type HostCollection, type HostKindName } from '../kinds.js';
import { hostPostKind, type PostKindInfo } from '../posts/kinds.js';
import type { KindsOption } from './declare.js';

/** One declared kind, resolved. */
export interface HostKind {
  readonly noun: HostKindName;
  readonly collection: HostCollection;
  /** Its rules as a post kind: type, capability suffix, permalinks (`posts/kinds.ts`). */
  readonly info: PostKindInfo;
}

/** A collection: lower-case letters, digits and `_`, starting with a letter (a path segment, a capability suffix). */
const NAME = /^[a-z][a-z0-9_]{0,31}$/;

/**
 * A noun: the same letters, at most 16 of them: it is stored as the items' post type and as the
 * change log's kind, whose columns hold 20 and 16 characters.
 */
const NOUN = /^[a-z][a-z0-9_]{0,15}$/;

/**
 * Path segments and router keys the API already answers or names (its additions' routes, the
 * tRPC router's own procedures): a host's collection may not take them.
 */
const RESERVED = new Set(['doc', 'changes', 'ics', 'index', 'ical', 'occurrences', 'routes', 'attachment', 'page', 'post']);

/** The error of a bad `kinds` entry, naming it. */
function badKind(path: string, message: string): TypeError {
  return new TypeError(`calendar-events-rest: option \`kinds.${path}\` ${message}`);
}

/** The kinds of a calendar beyond the built-in ones. */
export class KindRegistry {
  /** The host's kinds, in declaration order. */
  readonly list: readonly HostKind[];
  readonly #byNoun: ReadonlyMap<string, HostKind>;

  /** Resolves the `kinds` option; throws on a name that cannot be a kind's or is already taken. */
  constructor(option: KindsOption = {}) {
    if (typeof option !== 'object' || option === null || Array.isArray(option)) {
      throw new TypeError("calendar-events-rest: option `kinds` takes an object of kinds by collection, such as { sponsors: kind({ noun: 'sponsor' }) }");
    }
    const builtIn = new Set<string>([...KIND_NAMES, ...KIND_NAMES.map((k) => KINDS[k].collection)]);
    const taken = new Set<string>();
    this.list = Object.entries(option).map(([collection, declaration]): HostKind => {
      const noun: unknown = declaration?.noun;
      if (!NAME.test(collection)) throw badKind(collection, 'is not a collection name (lower-case letters, digits and _, starting with a letter, at most 32)');
      if (typeof noun !== 'string' || !NOUN.test(noun))
        throw badKind(`${collection}.noun`, "must be a singular noun such as 'sponsor' (lower-case letters, digits and _, at most 16)");
      for (const name of [collection, noun]) {
        if (builtIn.has(name) || RESERVED.has(name)) throw badKind(collection, `uses the name '${name}', which the API already has; choose another`);
        if (taken.has(name)) throw badKind(collection, `uses the name '${name}' twice or as another kind's; choose another`);
      }
      if (noun === collection) throw badKind(collection, 'needs a noun other than its collection (the singular of it)');
      taken.add(collection).add(noun);
      return { noun, collection, info: hostPostKind(noun, collection) };
    });
    this.#byNoun = new Map(this.list.map((k) => [k.noun, k]));
  }

  /** Every kind the change log can name: the built-in ones, then the host's. */
  get names(): readonly AnyKind[] {
    return [...KIND_NAMES, ...this.list.map((k) => k.noun)];
  }

  /** The path of an item of a kind, under the namespace, up to its id (`/events/`, `/sponsors/`). */
  itemPath(kind: AnyKind): string {
    if (isKind(kind)) return `/${KINDS[kind].collection}/`;
    const host = this.#byNoun.get(kind);
    if (!host) throw new Error(`calendar: no kind named ${kind}`);
    return `/${host.collection}/`;
  }

  /** The collection of an item of a kind (`events`, `sponsors`), what hooks are given by. */
  collectionOf(kind: AnyKind): string {
    return isKind(kind) ? KINDS[kind].collection : (this.#byNoun.get(kind)?.collection ?? kind);
  }
}

/** A calendar without host kinds. */
export const NO_KINDS = new KindRegistry();
