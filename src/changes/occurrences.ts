/**
 * Who is told of a change to one occurrence of a recurring event that they cannot read now
 * (issue 28). Occurrences have no life of their own: they show their series (its status,
 * password, trash), or are gone (cancelled, or out of the index). Such a change is reported, as
 * a deletion, only to a reader who could see the series after their place in the log; to anyone
 * else it would tell of a series they never could read (a private staff meeting's edited
 * occurrence), as a draft created after their token is not reported.
 *
 * Every change to what a series shows (status, password, trash, deletion) is a logged change of
 * the series itself, and only time makes one visible (a scheduled one), never hidden. So a series
 * the reader cannot read now, with no change of its own after their place, could not be read
 * there either: its occurrences' changes are not reported. One with such a change is reported as
 * its own deletion unless it was created after their place (they never knew it): its
 * occurrences' changes are reported exactly when it is. An occurrence that left the index (its
 * series ended before it, took new rules, or was deleted) names no series any more: the
 * series' own change, logged with it, tells those who could see it.
 */
import type { ChangeLog } from './log.js';
import type { readOutcome } from './visibility.js';

/** How a reader sees an item now (`visibility.ts`). */
type Outcome = ReturnType<typeof readOutcome>;

/**
 * Of these occurrences, which the reader is told were deleted: those whose series they can
 * read now, and, with `since` (a change feed reader's place in the log, and how far the log
 * goes), those whose series they could have read after it. Without `since` (a webhook
 * endpoint, whose start is not kept) only the first: the endpoint is told of each change of
 * the series itself as it happens, so one that saw the series was told when it went.
 * `'unknown'` when a series could not be read (the store unreachable).
 */
export async function occurrenceDeletionsTold(
  log: ChangeLog,
  occurrences: readonly number[],
  readSeries: (seriesId: number) => Promise<Outcome>,
  since?: { after: number; through: number },
): Promise<Set<number> | 'unknown'> {
  const told = new Set<number>();
  if (!occurrences.length) return told;
  const seriesOf = await log.seriesOf(occurrences);
  const seriesIds = [...new Set(seriesOf.values())];
  const changed = since ? await log.changedBetween('event', seriesIds, since.after, since.through) : new Map<number, { created: boolean }>();
  const toldOf = new Set<number>();
  for (const id of seriesIds) {
    const change = changed.get(id);
    // Changed after the reader's place, and known to them before: they may have seen it since.
    if (change && !change.created) {
      toldOf.add(id);
      continue;
    }
    const outcome = await readSeries(id);
    if (outcome === 'unknown') return 'unknown';
    if (outcome === 'visible') toldOf.add(id);
  }
  for (const id of occurrences) {
    const series = seriesOf.get(id);
    if (series !== undefined && toldOf.has(series)) told.add(id);
  }
  return told;
}
