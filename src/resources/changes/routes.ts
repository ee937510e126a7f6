import type { ChangeScope } from '../../changes/log.js';
import type { RequestContext } from '../../http/context.js';
import { syncToken, tokenPosition } from '../../changes/token.js';
import { ApiError } from '../../http/errors.js';
import { READABLE, endpoint, route } from '../../http/route.js';
import type { ChangeKind, ChangeType } from '../../store/database.js';
import { changeFeedArgs } from './args.js';
import { readOutcome } from '../../changes/visibility.js';
import { occurrenceDeletionsTold } from '../../changes/occurrences.js';

/** Entries one page reads at most (an item changed many times takes many), whatever it reports. */
const MAX_SCANNED = 5000;
const BATCH = 500;

/** Where each kind's items are read, as their own routes answer the caller. */

/** One item of the feed: what became of it, and how the caller sees it now. */
export interface FeedChange {
  kind: ChangeKind;
  id: number;
  change: ChangeType;
  /** When it last changed (ISO 8601, UTC). */
  time: string;
  /** The item as its own route answers the caller now; `null` for a deletion. */
  item: unknown;
  /** A change to a recurring event: what it applied to (`this` occurrence, `following` ones, `all`). */
  scope?: ChangeScope;
}

/** An item of the page as the log tells it: its latest change, and whether one created it. */
interface Scanned {
  kind: ChangeKind;
  id: number;
  created: boolean;
  time: string;
  scope: ChangeScope | null;
}

const gone = (code: string, message: string) => new ApiError(code, message, { status: 410 });
const unavailable = () => new ApiError('rest_service_unavailable', 'The calendar store is unavailable; try again shortly.', { status: 503 });

/**
 * `GET /changes`: what changed since a sync token, oldest first, one entry per item (its latest
 * change), each as the caller may see it now; then the token to go on from. An item the caller
 * may not read (any more) is a deletion, unless it was created after the token: they never knew
 * it; so is an occurrence whose series they could not see since (`changes/occurrences.ts`).
 * Without a token: no changes and a token for now.
 */
async function feed(ctx: RequestContext & { params: { sync_token?: string; per_page?: number; kinds?: ChangeKind[] } }) {
  const log = ctx.services.changes;
  const head = await log.head();
  const p = ctx.params;
  const token = (seq: number) => syncToken(head.storeId, seq);
  if (p.sync_token === undefined) return { body: { changes: [], next_sync_token: token(head.lastSeq), more: false } };
  const from = tokenPosition(p.sync_token, head.storeId);
  if (from === undefined || from > head.lastSeq) {
    throw gone('rest_sync_token_invalid', 'The sync token is not one of this calendar: start over with a full sync (a call without sync_token).');
  }
  if (from < head.prunedThrough) throw gone('rest_sync_token_expired', 'The sync token has expired: start over with a full sync (a call without sync_token).');

  const perPage = p.per_page ?? 50;
  const items = new Map<string, Scanned>();
  let position = from;
  let more = false;
  let scanned = 0;
  scan: for (;;) {
    const rows = await log.after(position, head.lastSeq, BATCH, p.kinds);
    for (const row of rows) {
      const key = `${row.kind}:${row.item_id}`;
      const seen = items.get(key);
      if ((!seen && items.size >= perPage) || scanned >= MAX_SCANNED) {
        more = true;
        break scan;
      }
      // Kept in the order of each item's latest change.
      items.delete(key);
      items.set(key, {
        kind: row.kind,
        id: row.item_id,
        created: (seen?.created ?? false) || row.change_type === 'created',
        time: row.at_utc,
        scope: row.scope ?? null,
      });
      position = row.seq;
      scanned++;
    }
    if (rows.length < BATCH) break;
  }
  // Everything up to the head was read: entries of other kinds are behind the caller too.
  if (!more) position = head.lastSeq;

  const reads: { item: Scanned; outcome: 'visible' | 'hidden'; body: unknown }[] = [];
  for (const item of items.values()) {
    const read = await ctx.read(`${ctx.options.kinds.itemPath(item.kind)}${item.id}`);
    const outcome = readOutcome(read.status);
    if (outcome === 'unknown') throw unavailable();
    reads.push({ item, outcome, body: read.body });
  }
  // A change to an occurrence the caller cannot read is told only to those who could see its
  // series after their token (`changes/occurrences.ts`).
  const isOccurrence = (item: Scanned) => item.kind === 'event' && item.id >= ctx.options.recurrence.idBase;
  const occurrences = reads.filter((r) => r.outcome === 'hidden' && !r.item.created && isOccurrence(r.item)).map((r) => r.item.id);
  const told = await occurrenceDeletionsTold(log, occurrences, async (id) => readOutcome((await ctx.read(`/events/${id}`)).status), {
    after: from,
    through: head.lastSeq,
  });
  if (told === 'unknown') throw unavailable();

  const changes: FeedChange[] = [];
  for (const { item, outcome, body } of reads) {
    const scope = item.scope ? { scope: item.scope } : {};
    if (outcome === 'visible')
      changes.push({ kind: item.kind, id: item.id, change: item.created ? 'created' : 'updated', time: item.time, item: body, ...scope });
    else if (!item.created && (!isOccurrence(item) || told.has(item.id)))
      changes.push({ kind: item.kind, id: item.id, change: 'deleted', time: item.time, item: null, ...scope });
  }
  // A prune that ran meanwhile may have taken entries after the token: the client starts over.
  if ((await log.head()).prunedThrough > from)
    throw gone('rest_sync_token_expired', 'The sync token has expired: start over with a full sync (a call without sync_token).');
  return { body: { changes, next_sync_token: token(position), more } };
}

/** The change feed's route (an addition: the original has none). */
// From the primary: a sync token given by a replica that is ahead would be "from the future"
// (410) on one that is behind.
export const changesRoute = route('/changes', [endpoint({ methods: READABLE, args: changeFeedArgs, handler: feed })], { primaryOnly: true });
