/** Who may do what with an event: the caller's capabilities against its author, status and trash state. */
import { can, type Principal } from '../../auth/capabilities.js';
import type { PostRow } from '../../posts/queries.js';

/** What a caller may ask to do with an event. */
export type EventAction = 'read' | 'edit' | 'delete';

/** Whether `p` may read, edit or delete the event. */
export function eventPermits(p: Principal | null, action: EventAction, row: Pick<PostRow, 'author' | 'status' | 'status_before_trash'>): boolean {
  return can(p, action, { kind: 'events', authorId: row.author, status: row.status, statusBeforeTrash: row.status_before_trash });
}
