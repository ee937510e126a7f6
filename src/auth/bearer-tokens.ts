/**
 * Callers by bearer token, from the `role:token` entries `calendar-events-rest token` prints
 * (the example servers' `CALENDAR_TOKENS`): the `getUser` and `userExists` a calendar takes,
 * for a host that wants API tokens without a user store of its own (scripts, imports, a
 * back office calling the API server to server).
 */
import { hash } from 'node:crypto';
import { ApiError } from '../http/errors.js';
import type { CoreRequest } from '../http/types.js';
import { ROLES, isRole, type User } from './capabilities.js';

/** The calendar options {@link bearerTokens} fills in. */
export interface BearerTokenAuth {
  /** `Authorization: Bearer <token>` → its user; no header, or another scheme → anonymous; a token not listed → 401. */
  getUser: (request: CoreRequest) => User | null;
  /** Whether a user id is one of the tokens' (authors of writes must exist). */
  userExists: (id: number) => boolean;
}

/** A token's digest: tokens are looked up by it, so that no comparison runs over the secret itself. */
const digest = (token: string) => hash('sha256', token, 'base64url');

/** `"editor:tok, author:tok2"` or a list of entries, as entries. */
function entriesOf(tokens: string | readonly string[] | undefined): string[] {
  const list = tokens === undefined ? [] : typeof tokens === 'string' ? tokens.split(',') : [...tokens];
  return list.map((s) => (typeof s === 'string' ? s.trim() : s)).filter(Boolean);
}

/**
 * `getUser` and `userExists` for bearer tokens given as `role:token` entries, a
 * comma-separated string (`process.env.CALENDAR_TOKENS`) or a list: user ids follow the order
 * of the entries from 1, so a restart with the same list keeps every token's id. Throws a
 * TypeError naming the entry for one that is not `role:token` with a known role, and for a
 * token listed twice, and for no entry at all (`undefined`: an unset variable). Spread it into
 * the options: `createCalendar({ db, ...bearerTokens(process.env.CALENDAR_TOKENS) })`.
 */
export function bearerTokens(tokens: string | readonly string[] | undefined): BearerTokenAuth {
  // Undefined is taken so that `bearerTokens(process.env.CALENDAR_TOKENS)` type-checks, and refused below as no entry.
  if (tokens !== undefined && typeof tokens !== 'string' && !Array.isArray(tokens))
    throw new TypeError('calendar-events-rest: bearerTokens(tokens): tokens must be "role:token" entries, comma-separated or in a list');
  const users = new Map<string, User>();
  entriesOf(tokens).forEach((entry, i) => {
    if (typeof entry !== 'string') throw new TypeError(`calendar-events-rest: bearerTokens: entry ${i + 1} is not a string`);
    const at = entry.indexOf(':');
    const role = entry.slice(0, at);
    const token = entry.slice(at + 1);
    // Never the token itself in a message: it may end up in a log.
    const where = `bearerTokens: entry ${i + 1} (${at > 0 ? role : 'no role'})`;
    if (at <= 0 || !/^[\x21-\x7e]+$/.test(token)) throw new TypeError(`calendar-events-rest: ${where} is not role:token (a token of visible ASCII characters)`);
    if (!isRole(role)) throw new TypeError(`calendar-events-rest: ${where}: "${role}" is not a role (${ROLES.join(', ')})`);
    if (users.has(digest(token))) throw new TypeError(`calendar-events-rest: ${where}: its token is listed before`);
    users.set(digest(token), { id: i + 1, roles: [role] });
  });
  if (users.size === 0) throw new TypeError('calendar-events-rest: bearerTokens: no role:token entry (make one with `npx calendar-events-rest token`)');
  const ids = new Set([...users.values()].map((u) => u.id));
  return {
    getUser(request) {
      const header = request.headers.authorization;
      const value = Array.isArray(header) ? header[0] : header;
      if (!value || !/^Bearer\s/i.test(value)) return null;
      const token = /^Bearer\s+(\S+)\s*$/i.exec(value)?.[1];
      const user = token === undefined ? undefined : users.get(digest(token));
      if (!user) throw new ApiError('incorrect_password', 'The provided token is invalid.', { status: 401 });
      return user;
    },
    userExists: (id) => ids.has(id),
  };
}
