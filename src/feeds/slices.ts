/**
 * Work on a feed in slices: a loop over its entries gives the event loop back once a slice has
 * run {@link SLICE_MS}, so that a large feed never holds requests up for more than that, and
 * stops once the run's deadline has passed.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';

/** Longest stretch of feed work between two turns of the event loop, in milliseconds. */
export const SLICE_MS = 20;

/** The clock of one run: when its slice started, and when it must have ended. */
export interface SliceClock {
  sliceStart: number;
  /** `performance.now()` after which the run gives up. */
  deadline: number;
  /** Aborted when the run must stop (its calendar closes). */
  signal?: AbortSignal;
}

/** A run that took longer than its time limit. */
export class FeedTimeout extends Error {}

/** A clock for a run that may take `timeoutMs` in all, and stops when `signal` is aborted. */
export function sliceClock(timeoutMs: number, signal?: AbortSignal): SliceClock {
  const now = performance.now();
  return { sliceStart: now, deadline: now + timeoutMs, ...(signal ? { signal } : {}) };
}

/** Gives the event loop a turn when the slice has run its time; throws {@link FeedTimeout} past the deadline. */
export async function yieldIfLate(clock: SliceClock): Promise<void> {
  const now = performance.now();
  if (now - clock.sliceStart < SLICE_MS) return;
  if (now > clock.deadline) throw new FeedTimeout('the feed took longer than its time limit to read');
  if (clock.signal?.aborted) throw new FeedTimeout('stopped: the calendar is closing (the next run goes on)');
  await nextTurn();
  clock.sliceStart = performance.now();
}
