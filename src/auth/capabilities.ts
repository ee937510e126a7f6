import type { CapabilityKind, HostCollection } from '../kinds.js';

/** The five WordPress roles whose default grants the API knows. */
export type Role = 'administrator' | 'editor' | 'author' | 'contributor' | 'subscriber';

/**
 * A caller as the host describes it: an id, WordPress roles and/or capability names (a
 * host's custom roles are given as the capabilities they grant).
 */
export interface User {
  id: number;
  /** Built-in roles, or the host's own (the `roles` option). */
  roles?: readonly (Role | (string & NonNullable<unknown>))[];
  capabilities?: readonly string[];
}

/** The caller as the core uses it: capabilities expanded once (per request, or per user object a host reuses). */
export interface Principal {
  id: number;
  capabilities: ReadonlySet<string>;
  /** The host's user it was made from (what hooks are given). */
  user?: User;
}

/** The capabilities of roles beyond the built-in grants (`auth/roles.ts`). */
export interface RoleGrants {
  /** A role's capabilities; `undefined` for a role nobody defined. */
  capabilities(role: string): readonly string[] | undefined;
}

/** The kinds of post the API writes, named as in the capability suffixes (a host's kinds: their collection). */
export type PostKind = CapabilityKind | HostCollection;

const ALL = [
  'read',
  'read_private',
  'edit',
  'edit_others',
  'edit_private',
  'edit_published',
  'delete',
  'delete_others',
  'delete_private',
  'delete_published',
  'publish',
];

const GRANTS: Record<Role, { post: string[]; core: string[] }> = {
  administrator: { post: ALL, core: ['read', 'manage_categories', 'upload_files', 'unfiltered_html', 'edit_posts'] },
  editor: { post: ALL, core: ['read', 'manage_categories', 'upload_files', 'unfiltered_html', 'edit_posts'] },
  author: { post: ['read', 'edit', 'edit_published', 'delete', 'delete_published', 'publish'], core: ['read', 'upload_files', 'edit_posts'] },
  contributor: { post: ['read', 'edit', 'delete'], core: ['read', 'edit_posts'] },
  subscriber: { post: ['read'], core: ['read'] },
};

/** The role names {@link User.roles} takes. */
export const ROLES = Object.keys(GRANTS) as readonly Role[];

/** Whether a name (from a host's user table, an environment variable) is one of the {@link ROLES}. */
export function isRole(name: string): name is Role {
  return Object.hasOwn(GRANTS, name);
}

function postCapability(grant: string, kind: PostKind): string {
  if (grant === 'read') return 'read';
  // `read_private` → `read_private_tribe_events`; `edit` → `edit_tribe_events`.
  return `${grant}_tribe_${kind}`;
}

/**
 * The capabilities a role grants by default; `hostKinds` are the capability suffixes of the
 * host's kinds (their collections), granted as the built-in kinds' are.
 */
export function roleCapabilities(role: string, hostKinds: readonly string[] = []): string[] {
  if (!isRole(role)) return [];
  if (hostKinds.length) {
    const post = GRANTS[role].post;
    return [...new Set([...roleCapabilities(role), ...hostKinds.flatMap((kind) => post.map((g) => postCapability(g, kind)))])];
  }
  let caps = ROLE_CAPABILITIES.get(role);
  if (!caps) {
    const grant = GRANTS[role];
    const set = new Set(grant.core);
    for (const kind of ['events', 'venues', 'organizers'] as const) {
      for (const g of grant.post) set.add(postCapability(g, kind));
    }
    caps = [...set];
    ROLE_CAPABILITIES.set(role, caps);
  }
  return [...caps];
}

/** Each role's capabilities, built once (a request expands its caller's roles). */
const ROLE_CAPABILITIES = new Map<Role, string[]>();

/**
 * The viewer key of principals made by {@link toPrincipal}: their roles and own capabilities,
 * which decide their capabilities, are far fewer to sort than the capabilities themselves.
 */
const VIEWER_KEYS = new WeakMap<Principal, string>();

/** A principal made from a host's user object, and what it was made from. */
interface Made {
  roles: readonly string[];
  capabilities: readonly string[];
  grants: RoleGrants | undefined;
  onUnknownRole: ((role: string, user: User) => void) | undefined;
  principal: Principal;
}

/**
 * The principal last made from each user object: a host that gives every request of a caller
 * the same object (the bearer tokens do) has its roles expanded once, not into a new set of some
 * sixty capabilities per request. Reused only while the object's id, roles and capabilities are
 * those it was made from.
 */
const MADE = new WeakMap<User, Made>();

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((v, i) => v === b[i]);

/**
 * Expands a host user into a principal (roles become their capabilities, the host's own roles
 * by `roles`). A role that is neither one of {@link ROLES} nor the host's grants nothing and is
 * reported through `onUnknownRole`.
 */
export function toPrincipal(user: User | null | undefined, onUnknownRole?: (role: string, user: User) => void, roles?: RoleGrants): Principal | null {
  if (!user) return null;
  const userRoles = user.roles ?? [];
  const userCapabilities = user.capabilities ?? [];
  const made = MADE.get(user);
  if (
    made &&
    made.principal.id === user.id &&
    made.grants === roles &&
    made.onUnknownRole === onUnknownRole &&
    sameList(made.roles, userRoles) &&
    sameList(made.capabilities, userCapabilities)
  )
    return made.principal;
  const caps = new Set<string>(userCapabilities);
  for (const role of userRoles) {
    const granted = roles ? roles.capabilities(role) : isRole(role) ? roleCapabilities(role) : undefined;
    if (!granted) onUnknownRole?.(role, user);
    for (const c of granted ?? []) caps.add(c);
  }
  const principal: Principal = { id: user.id, capabilities: caps, user };
  // JSON keeps any role or capability name apart from the next.
  VIEWER_KEYS.set(principal, `${user.id}:r${JSON.stringify([[...new Set(userRoles)].sort(), [...new Set(userCapabilities)].sort()])}`);
  MADE.set(user, { roles: [...userRoles], capabilities: [...userCapabilities], grants: roles, onUnknownRole, principal });
  return principal;
}

/**
 * What tells callers' views of an item apart (who may read what): the id, for own items, and
 * the capabilities. Equal keys see equal items.
 */
export function viewerKey(p: Principal | null): string {
  if (p === null) return '';
  return VIEWER_KEYS.get(p) ?? `${p.id}:c${JSON.stringify([...p.capabilities].sort())}`;
}

/** Whether the principal holds a capability. */
export function has(p: Principal | null, capability: string): p is Principal {
  return p !== null && p.capabilities.has(capability);
}

/** The parts of a stored post that decide who may act on it. */
export interface OwnedItem {
  kind: PostKind;
  authorId: number;
  status: string;
  /** For trashed posts, the status they had before. */
  statusBeforeTrash?: string | null;
}

/** Actions judged per item, as WordPress' meta capabilities. */
export type Action = 'read' | 'edit' | 'delete';

const isPublished = (status: string) => status === 'publish' || status === 'future';

/** Whether `p` may read, edit or delete `item`. */
export function can(p: Principal | null, action: Action, item: OwnedItem): boolean {
  const suffix = `tribe_${item.kind}`;
  const own = p !== null && item.authorId !== 0 && p.id === item.authorId;
  if (action === 'read') {
    if (item.status === 'publish') return true;
    if (own) return has(p, 'read');
    if (item.status === 'private') return has(p, `read_private_${suffix}`);
    return can(p, 'edit', item);
  }
  const verb = action === 'edit' ? 'edit' : 'delete';
  if (own) {
    const status = item.status === 'trash' ? (item.statusBeforeTrash ?? 'draft') : item.status;
    return isPublished(status) ? has(p, `${verb}_published_${suffix}`) : has(p, `${verb}_${suffix}`);
  }
  return (
    has(p, `${verb}_others_${suffix}`) &&
    (!isPublished(item.status) || has(p, `${verb}_published_${suffix}`)) &&
    (item.status !== 'private' || has(p, `${verb}_private_${suffix}`))
  );
}
