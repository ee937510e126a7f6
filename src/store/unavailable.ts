import { isSqliteBusy } from './retry.js';

/** Driver error codes that mean "the database cannot be reached right now". */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'EAI_AGAIN',
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'ER_CON_COUNT_ERROR',
  'ER_SERVER_SHUTDOWN',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  // read_only_sql_transaction: a write reached a server still in recovery (a replica the
  // primary's address points at before the operator has promoted it).
  '25006',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '53300', // too_many_connections
  // Still busy after the retries (see retry.ts): the client may simply try again.
  'SQLITE_CANTOPEN',
]);

// `conflict with recovery`: a replica cancelled a read whose rows its replay had to remove (another node answers).
const CONNECTION_MESSAGES =
  /conflict with recovery|connection terminated|connection refused|timeout exceeded when trying to connect|connection is closed|pool is closed|cannot enqueue|server has gone away|lost connection|connection error and is not queryable/i;

/** Whether an error means the database is unavailable (answered 503, retried by the client). */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const e = error as { code?: unknown; message?: unknown; errors?: unknown };
  if (typeof e.code === 'string' && (CONNECTION_CODES.has(e.code) || isSqliteBusy(e.code))) return true;
  if (typeof e.message === 'string' && CONNECTION_MESSAGES.test(e.message)) return true;
  // Node's AggregateError for multi-address connects.
  return Array.isArray(e.errors) && e.errors.some(isDatabaseUnavailable);
}
