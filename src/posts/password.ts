import { createHash, timingSafeEqual } from 'node:crypto';
import type { Principal } from '../auth/capabilities.js';
import type { RequestContext } from '../http/context.js';
import type { PostKindInfo } from './kinds.js';

/** Compares passwords in constant time (hashes make the lengths equal). */
function samePassword(given: string, stored: string): boolean {
  const digest = (t: string) => createHash('sha256').update(t).digest();
  return timingSafeEqual(digest(given), digest(stored));
}

/**
 * Whether a request unlocks a password-protected item: the `password`
 * parameter equals the item's, or `context=edit` from a caller who may edit it.
 */
export function unlocks(ctx: RequestContext, password: string | null, canEdit: boolean): boolean {
  if (!password) return true;
  const given = ctx.input('password');
  if (typeof given === 'string' && samePassword(given, password)) return true;
  return ctx.input('context') === 'edit' && canEdit;
}

/**
 * Whose password-protected posts a `search` may look into: it must never find, by their
 * hidden fields, items whose fields the answer redacts (WordPress leaves them out of
 * logged-out searches). A caller who may edit others' items of the kind sees all of them,
 * another signed-in caller their own, an anonymous one none.
 */
export type SearchablePasswords = 'all' | 'none' | { author: number };

/** The {@link SearchablePasswords} of a caller for a kind. */
export function searchablePasswords(p: Principal | null, kind: PostKindInfo): SearchablePasswords {
  if (p === null) return 'none';
  return p.capabilities.has(`edit_others_tribe_${kind.kind}`) ? 'all' : { author: p.id };
}
