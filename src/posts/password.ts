import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestContext } from '../context.js';

/** Compares passwords in constant time (hashes make the lengths equal). */
function samePassword(given: string, stored: string): boolean {
  const digest = (t: string) => createHash('sha256').update(t).digest();
  return timingSafeEqual(digest(given), digest(stored));
}

/**
 * Whether a request unlocks a password-protected item (responses.md §7): the `password`
 * parameter equals the item's, or `context=edit` from a caller who may edit it.
 */
export function unlocks(ctx: RequestContext, password: string | null, canEdit: boolean): boolean {
  if (!password) return true;
  const given = ctx.input('password');
  if (typeof given === 'string' && samePassword(given, password)) return true;
  return ctx.input('context') === 'edit' && canEdit;
}
