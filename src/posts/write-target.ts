import type { Principal } from '../auth/capabilities.js';
import { forbidden, type ApiError } from '../http/errors.js';

/**
 * The item a write addresses, as read before the write's transaction, and the error the
 * request answers if the item is gone by the time the transaction looks again.
 */
export interface WriteTarget<R> {
  row: R;
  gone: () => ApiError;
}

/**
 * The target as its transaction reads it again (locked): still there, and still one the caller
 * may act on, or the request's error. A write never trusts what it read before it began.
 */
export function recheck<R>(current: R | undefined, target: WriteTarget<R>, p: Principal | null, allowed: (row: R) => boolean): R {
  const row = present(current, target);
  if (!allowed(row)) throw forbidden(p !== null);
  return row;
}

/** The target as its transaction reads it, or the request's error if it is gone. */
export function present<R>(current: R | undefined, target: WriteTarget<R>): R {
  if (current === undefined) throw target.gone();
  return current;
}
