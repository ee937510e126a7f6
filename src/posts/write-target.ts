import type { Principal } from '../auth/capabilities.js';
import { forbidden, type ApiError } from '../http/errors.js';
import { preconditionFailed } from '../http/conditional.js';

/**
 * The item a write addresses, as read before the write's transaction, and the error the
 * request answers if the item is gone by the time the transaction looks again.
 */
export interface WriteTarget<R> {
  row: R;
  gone: () => ApiError;
  /**
   * The write is conditional (`If-Match`, `If-Unmodified-Since`): its precondition was checked
   * against the item after `row` was read, so the item must still be exactly `row`.
   */
  conditional?: boolean;
}

/**
 * The target as its transaction reads it again (locked): still there, and still one the caller
 * may act on, or the request's error. A write never trusts what it read before it began.
 */
export function recheck<R extends object>(current: R | undefined, target: WriteTarget<R>, p: Principal | null, allowed: (row: R) => boolean): R {
  const row = present(current, target);
  if (!allowed(row)) throw forbidden(p !== null);
  if (target.conditional && !sameRow(row, target.row)) throw preconditionFailed();
  return row;
}

/** Whether two reads of a row found the same values (rows are flat: text, numbers, dates, null). */
export function sameRow(a: object, b: object): boolean {
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const keys = Object.keys(x);
  return (
    keys.length === Object.keys(y).length &&
    keys.every((k) => Object.is(x[k], y[k]) || (x[k] instanceof Date && y[k] instanceof Date && x[k].getTime() === y[k].getTime()))
  );
}

/** The target as its transaction reads it, or the request's error if it is gone. */
export function present<R>(current: R | undefined, target: WriteTarget<R>): R {
  if (current === undefined) throw target.gone();
  return current;
}
