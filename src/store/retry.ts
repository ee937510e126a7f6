/** Whether a driver error is a unique-key violation (SQLite, PostgreSQL, MySQL/MariaDB). */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: unknown; errno?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  return (
    e.code === '23505' ||
    e.code === 'ER_DUP_ENTRY' ||
    e.errno === 1062 ||
    e.code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    e.code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
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
    e.code === 'SQLITE_BUSY'
  );
}

/** Runs `work` again (a few times) when it fails with a retryable conflict. */
export async function withRetry<T>(work: () => Promise<T>, attempts = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= attempts || !isRetryable(error)) throw error;
      await new Promise((r) => setTimeout(r, Math.random() * 20 * attempt));
    }
  }
}
