import { randomBytes } from 'node:crypto';
import { ApiError, ROLES, isRole, type CoreRequest, type User } from '../../src/index.js';

/** Users by bearer token, from `CALENDAR_TOKENS="administrator:tokA,editor:tokB,…"`. */
export function tokensFromEnv(spec: string | undefined): { users: Map<string, User>; generated?: string } {
  const users = new Map<string, User>();
  if (!spec) {
    const token = randomBytes(18).toString('base64url');
    users.set(token, { id: 1, roles: ['administrator'] });
    return { users, generated: token };
  }
  // Ids follow the order of the list, so a restart keeps every token's user id.
  spec
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .forEach((entry, i) => {
      const at = entry.indexOf(':');
      if (at <= 0) throw new Error(`CALENDAR_TOKENS entry "${entry}" is not role:token`);
      const role = entry.slice(0, at);
      if (!isRole(role)) throw new Error(`CALENDAR_TOKENS entry "${entry}": "${role}" is not a role (${ROLES.join(', ')})`);
      users.set(entry.slice(at + 1), { id: i + 1, roles: [role] });
    });
  return { users };
}

/** `getUser` for bearer tokens: no header → anonymous; unknown token → 401. */
export function bearerAuth(users: Map<string, User>) {
  return (req: CoreRequest): User | null => {
    const header = req.headers.authorization;
    const value = Array.isArray(header) ? header[0] : header;
    if (!value) return null;
    const m = /^Bearer\s+(\S+)\s*$/i.exec(value);
    const user = m?.[1] ? users.get(m[1]) : undefined;
    if (!user) throw new ApiError('incorrect_password', 'The provided token is invalid.', { status: 401 });
    return user;
  };
}
