/**
 * An input a `beforeChange` hook rewrote, as the write goes on with it: the parameters it sent
 * or changed count as sent; those the write resolved before its transaction (an image fetched,
 * a linked venue looked up) may not change, since their work is already done.
 */
import { isDeepStrictEqual } from 'node:util';
import type { HookKind } from './types.js';

/** Refuses a rewrite that changed a parameter the write resolved before its transaction (a host's mistake: a 500 through `onError`). */
export function keptBefore(kind: HookKind, sent: object, given: object, names: readonly string[]): void {
  const before = new Map(Object.entries(sent));
  const after = new Map(Object.entries(given));
  for (const name of names) {
    if (!isDeepStrictEqual(before.get(name), after.get(name))) {
      throw new Error(
        `calendar-events-rest: hooks.${kind}.beforeChange changed \`${name}\`, which the write resolves before its transaction (${names.join(', ')} cannot be rewritten)`,
      );
    }
  }
}

/**
 * Which parameters the rewritten input sends: one the hook set or changed, and one the client
 * sent that the hook kept; one it removed is not sent.
 */
export function rewrittenSent(sent: object, given: object, wasSent: (name: string) => boolean): (name: string) => boolean {
  if (sent === given) return wasSent;
  const before = new Map(Object.entries(sent));
  const after = new Map(Object.entries(given));
  return (name) => after.get(name) !== undefined && (wasSent(name) || !isDeepStrictEqual(before.get(name), after.get(name)));
}
