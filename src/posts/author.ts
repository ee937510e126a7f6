/**
 * Who may name another user as a post's `author`. The original lets any caller allowed to
 * write the item do so (a contributor's event owned by user 1: measured 2026-11-28); hosts
 * that want WordPress core's rule instead turn on `strictAuthor` (README "Decisions where the
 * reference leaves a choice").
 */
import { has, type Principal } from '../auth/capabilities.js';
import { apiError } from '../http/errors.js';
import { toId } from '../ids.js';
import type { PostKindInfo } from './kinds.js';

/** The write that names the author: WordPress' message says which. */
export type AuthorWrite = 'create' | 'update';

/**
 * The author a write names: `undefined` when it names none (not sent, or `null`, an
 * organizer's default); an id otherwise, or `undefined` for a value that is no id (the argument
 * checks refuse those before a write gets here).
 */
export function namedAuthor(input: { author?: unknown }): number | undefined {
  return input.author === undefined || input.author === null ? undefined : toId(input.author);
}

/**
 * WordPress core's rule (`WP_REST_Posts_Controller`), applied when `strict`: naming a user other
 * than the caller needs the kind's `edit_others` capability, else 403 (401 anonymous)
 * `rest_cannot_edit_others`. Without `strict`, any author passes, as in the original.
 */
export function assertAuthorAllowed(strict: boolean, kind: PostKindInfo, author: number | undefined, p: Principal | null, write: AuthorWrite): void {
  if (!strict || author === undefined || author === 0 || author === p?.id) return;
  if (has(p, `edit_others_tribe_${kind.kind}`)) return;
  throw apiError('rest_cannot_edit_others', `Sorry, you are not allowed to ${write} posts as this user.`, p !== null ? 403 : 401);
}
