/**
 * A host's own roles (README "Extending: hooks, change events, roles"): each maps to the
 * capabilities it grants, as a list or as a built-in role's grants with some added or removed.
 * Checked once, when the calendar is made: a capability name the API never checks (nor a
 * declared field asks for) is a slip, refused with the nearest known name.
 */
import { nearest } from '../options-shape.js';
import { ROLES, isRole, roleCapabilities, type Role } from './capabilities.js';

/** What one host role grants: capability names, or another role's grants changed. */
export type RoleDefinition =
  | readonly string[]
  | {
      /** The role whose capabilities it starts from: a built-in role, or another of the host's. */
      readonly inherits: Role | (string & NonNullable<unknown>);
      readonly add?: readonly string[];
      readonly remove?: readonly string[];
    };

/** The host's roles by name (`roles` option). */
export type RolesOption = Readonly<Record<string, RoleDefinition>>;

/** Every capability the API checks: the union of the built-in roles' grants. */
const BUILT_IN_CAPABILITIES: readonly string[] = [...new Set(ROLES.flatMap((r) => roleCapabilities(r)))];

/** The roles a calendar knows beyond the built-in ones, resolved to their capabilities. */
export class RoleTable {
  readonly #grants: ReadonlyMap<string, readonly string[]>;
  /** The built-in roles' grants, with the host's kinds' capabilities, built once each. */
  readonly #builtIn = new Map<string, readonly string[]>();

  constructor(
    grants: ReadonlyMap<string, readonly string[]> = new Map(),
    /** The capability suffixes of the host's kinds (`kinds` option), granted by the built-in roles as the calendar's own. */
    private readonly hostKinds: readonly string[] = [],
  ) {
    this.#grants = grants;
  }

  /** The capabilities a role grants: the host's definition, else the built-in role's; `undefined` for a role nobody defined. */
  capabilities(role: string): readonly string[] | undefined {
    const own = this.#grants.get(role);
    if (own) return own;
    if (!isRole(role)) return undefined;
    if (!this.hostKinds.length) return roleCapabilities(role);
    let caps = this.#builtIn.get(role);
    if (!caps) this.#builtIn.set(role, (caps = roleCapabilities(role, this.hostKinds)));
    return caps;
  }

  /** The names of every role it knows, built-in first. */
  get names(): readonly string[] {
    return [...new Set([...ROLES, ...this.#grants.keys()])];
  }
}

/** A calendar without host roles. */
export const BUILT_IN_ROLES = new RoleTable();

/** The error of a bad `roles` entry, naming it. */
function badRole(path: string, message: string): TypeError {
  return new TypeError(`calendar-events-rest: option \`roles.${path}\` ${message}`);
}

/**
 * Resolves the `roles` option; `extra` are capability names the host's own declarations
 * introduce (a declared field's `capability`), known as well as the built-in ones.
 */
export function resolveRoles(option: RolesOption | undefined, extra: Iterable<string> = [], hostKinds: readonly string[] = []): RoleTable {
  if (option === undefined) return hostKinds.length ? new RoleTable(new Map(), hostKinds) : BUILT_IN_ROLES;
  if (typeof option !== 'object' || option === null || Array.isArray(option)) {
    throw new TypeError("calendar-events-rest: option `roles` takes an object of roles such as { manager: { inherits: 'editor' } }");
  }
  const known = [...new Set([...BUILT_IN_CAPABILITIES, ...ROLES.flatMap((r) => roleCapabilities(r, hostKinds)), ...extra])];
  const knownSet = new Set(known);
  const checked = (path: string, names: unknown): string[] => {
    if (!Array.isArray(names) || names.some((n) => typeof n !== 'string')) throw badRole(path, 'takes a list of capability names');
    for (const name of names as string[]) {
      if (knownSet.has(name)) continue;
      const near = nearest(name, known);
      throw badRole(
        path,
        `names the unknown capability ${JSON.stringify(name)}${near ? ` (did you mean ${JSON.stringify(near)}?)` : ''}; the API checks ${known.join(', ')}`,
      );
    }
    return names as string[];
  };
  const grants = new Map<string, readonly string[]>();
  const resolving = new Set<string>();
  const resolve = (name: string): readonly string[] => {
    const done = grants.get(name);
    if (done) return done;
    const definition: unknown = Object.hasOwn(option, name) ? option[name] : undefined;
    if (definition === undefined) {
      if (isRole(name)) return roleCapabilities(name, hostKinds);
      throw badRole(name, `is not a role`);
    }
    if (resolving.has(name)) throw badRole(name, `inherits from itself (${[...resolving, name].join(' → ')})`);
    resolving.add(name);
    let caps: string[];
    if (Array.isArray(definition)) caps = checked(name, definition);
    else if (typeof definition === 'object' && definition !== null && typeof (definition as { inherits?: unknown }).inherits === 'string') {
      const { inherits, add = [], remove = [] } = definition as { inherits: string; add?: unknown; remove?: unknown };
      if (!Object.hasOwn(option, inherits) && !isRole(inherits)) {
        const near = nearest(inherits, [...ROLES, ...Object.keys(option)]);
        throw badRole(`${name}.inherits`, `names the unknown role ${JSON.stringify(inherits)}${near ? ` (did you mean ${JSON.stringify(near)}?)` : ''}`);
      }
      const removed = new Set(checked(`${name}.remove`, remove));
      // A built-in role redefined from its own grants (`editor: { inherits: 'editor', remove: [...] }`).
      const base = inherits === name && isRole(name) ? roleCapabilities(name, hostKinds) : resolve(inherits);
      caps = [...new Set([...base, ...checked(`${name}.add`, add)])].filter((c) => !removed.has(c));
    } else throw badRole(name, "takes a list of capabilities or { inherits: 'editor', add: [...], remove: [...] }");
    resolving.delete(name);
    grants.set(name, caps);
    return caps;
  };
  for (const name of Object.keys(option)) resolve(name);
  return new RoleTable(grants, hostKinds);
}
