/**
 * Work that grows with what a request asks for (a feed of a thousand events, a time zone over
 * centuries) is done in slices, and the event loop turns between two slices: one process answers
 * every caller, so no request may hold it for more than about 50 ms (docs/security.md, "Bounded
 * work").
 */
import { setImmediate as nextTurn } from 'node:timers/promises';

let yielded = 0;

/** Lets the event loop turn once: timers, I/O and other requests run before this continues. */
export async function yieldTurn(): Promise<void> {
  yielded++;
  await nextTurn();
}

/** How often long work has let the loop turn since the process started (tests count it). */
export function turnsYielded(): number {
  return yielded;
}

/** `items`, `size` at a time, the loop turning between two slices. */
export async function* slices<T>(items: readonly T[], size: number): AsyncGenerator<T[]> {
  for (let i = 0; i < items.length; i += size) {
    if (i > 0) await yieldTurn();
    yield items.slice(i, i + size);
  }
}
