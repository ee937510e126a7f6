import { isPlanChanged } from './named-statements.js';

/** Whether a driver error is a unique-key violation (SQLite, PostgreSQL, MySQL/MariaDB). */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: unknown; errno?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  return (
    e.code === '23505' || e.code === 'ER_DUP_ENTRY' || e.errno === 1062 || e.code === 'SQLITE_CONSTRAINT_UNIQUE' || e.code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
  );
}

/**
 * SQLite's "busy" family. `SQLITE_BUSY_SNAPSHOT` comes at once, whatever the busy timeout,
 * when a transaction that has read tries to write after another process committed (WAL):
 * only running the whole transaction again helps.
 */
export function isSqliteBusy(code: unknown): boolean {
  return (
    typeof code === 'string' && (code === 'SQLITE_BUSY' || code.startsWith('SQLITE_BUSY_') || code === 'SQLITE_LOCKED' || code.startsWith('SQLITE_LOCKED_'))
  );
}

/** Whether a driver error says the transaction lost a race and may simply be run again. */
export function isRetryable(error: unknown): boolean {
  const e = error as { code?: unknown; errno?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  return (
    isUniqueViolation(error) ||
    e.code === '40001' || // serialization_failure
    e.code === '40P01' || // deadlock_detected
    e.errno === 1213 || // ER_LOCK_DEADLOCK
    e.errno === 1205 || // ER_LOCK_WAIT_TIMEOUT
    isSqliteBusy(e.code) ||
    // A statement prepared before a migration changed its columns: run again, it is sent unnamed.
    isPlanChanged(error)
  );
}

/** Pauses between attempts: up to 5 ms · 2^attempt, never above 400 ms. */
const BASE_PAUSE_MS = 5;
const MAX_PAUSE_MS = 400;

/**
 * Runs `work` again when it fails with a retryable conflict, after a random pause that grows
 * with each attempt ("full jitter": writers that lost the same race spread out instead of
 * racing again in step). Many instances creating items with one slug at once can make a
 * writer lose several times in a row, and writes commit one at a time in the change log's
 * order (`changes/log.ts`), which lengthens the race: hence the generous number of attempts
 * (50 writers racing on one slug exhausted 12 about once in ten runs on PostgreSQL).
 */
export async function withRetry<T>(work: () => Promise<T>, attempts = 20): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= attempts || !isRetryable(error)) throw error;
      const ceiling = Math.min(MAX_PAUSE_MS, BASE_PAUSE_MS * 2 ** attempt);
      await new Promise((r) => setTimeout(r, Math.random() * ceiling));
    }
  }
}
