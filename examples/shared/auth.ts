import { randomBytes } from 'node:crypto';
import { bearerTokens, type BearerTokenAuth } from '../../src/index.js';

/**
 * The example servers' callers: `CALENDAR_TOKENS="administrator:tokA,editor:tokB,…"` (entries
 * `npx calendar-events-rest token` prints) read by the library's `bearerTokens`; unset, one
 * administrator token made up at start.
 */
export function tokensFromEnv(spec: string | undefined): { auth: BearerTokenAuth; generated?: string } {
  if (spec?.trim()) return { auth: bearerTokens(spec) };
  const token = randomBytes(18).toString('base64url');
  return { auth: bearerTokens(`administrator:${token}`), generated: token };
}
