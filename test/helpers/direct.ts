import type { Kysely } from 'kysely';
import { toPrincipal, type Principal } from '../../src/auth/capabilities.js';
import { apiError } from '../../src/http/errors.js';
import type { WriteTarget } from '../../src/posts/write-target.js';
import type { Services } from '../../src/resources/services.js';
import { Store } from '../../src/resources/store.js';
import { USERS } from './harness.js';
import type { StoreCalendar } from './store.js';

/**
 * Helpers for tests that call the services and stores directly, without HTTP: the principal
 * the pipeline would build, a `Store` over a test calendar's tables, and write targets.
 */

/** The administrator as the pipeline sees it (`toPrincipal` of the host user). */
export const ADMIN = toPrincipal(USERS.admin) as Principal;

/** The clock every direct write runs at (site zone UTC: local and UTC publication dates agree). */
export const NOW = new Date('2026-01-01T00:00:00Z');

/**
 * A `Store` over the calendar's own tables. The calendar keeps its `Store` to itself; the
 * test's handle already adds the table prefix, so the store is opened with an empty one. It
 * shares the calendar's connection, which an in-memory SQLite database needs.
 */
export function storeOf(t: StoreCalendar): Store {
  return Store.open(t.db as unknown as Kysely<unknown>, '');
}

/** A calendar's services (what `calendar.services()` gives typed callers). */
export function servicesOf(t: StoreCalendar): Promise<Services> {
  return t.calendar.services();
}

/** The write target a route builds for a row it read (the `gone` error is never expected here). */
export function targetOf<R extends { id: number }>(row: R): WriteTarget<R> {
  return { row, gone: () => apiError('test-gone', `Row ${row.id} vanished during the test`, 404) };
}

/** `ctx.sent` for a direct call: a parameter counts as sent when the input has its key. */
export function sentIn(input: Record<string, unknown>): (name: string) => boolean {
  return (name) => Object.prototype.hasOwnProperty.call(input, name);
}
