import { has, type Principal } from '../auth/capabilities.js';

/** WordPress' registered post statuses. */
export const REGISTERED_STATUSES = [
  'publish',
  'future',
  'draft',
  'pending',
  'private',
  'trash',
  'auto-draft',
  'inherit',
  'request-pending',
  'request-confirmed',
  'request-failed',
  'request-completed',
] as const;

/** Statuses an archive's `any` stands for: everything but trash and auto-drafts. */
export const ANY_STATUSES = REGISTERED_STATUSES.filter((s) => s !== 'trash' && s !== 'auto-draft');

/** Whether a value names a registered status. */
export function isRegisteredStatus(value: unknown): value is string {
  return typeof value === 'string' && (REGISTERED_STATUSES as readonly string[]).includes(value);
}

/**
 * The status a write stores: publishers get what they ask for (default
 * `publish`); others get `pending` instead of `publish`/`future` and `draft` by default.
 * Upstream uses the event publish capability for all three kinds.
 */
export function scaleBackStatus(p: Principal | null, requested: string | undefined): string {
  if (has(p, 'publish_tribe_events')) return requested ?? 'publish';
  if (requested === undefined) return 'draft';
  return requested === 'publish' || requested === 'future' ? 'pending' : requested;
}

/** `publish` becomes `future` for a publication date over a minute ahead, and back (WordPress). */
export function scheduleStatus(status: string, dateUtc: string, now: Date): string {
  const ahead = Date.parse(`${dateUtc.replace(' ', 'T')}Z`) - now.getTime() > 60_000;
  if (status === 'publish' && ahead) return 'future';
  if (status === 'future' && !ahead) return 'publish';
  return status;
}

/** Statuses whose posts have no publication date of their own until published. */
export const FLOATING_STATUSES = new Set(['draft', 'pending', 'auto-draft']);

/** The "no date" value WordPress stores for floating posts. */
export const ZERO_DATE = '0000-00-00 00:00:00';
