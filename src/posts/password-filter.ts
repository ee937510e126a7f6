import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { SearchablePasswords } from './password.js';

/** The condition that keeps out of a search the password-protected posts `scope` may not look into. */
export function searchableByPassword(scope: Exclude<SearchablePasswords, 'all'>): RawBuilder<SqlBool> {
  const password = sql.ref('posts.password');
  const open = sql<SqlBool>`(${password} is null or ${password} = '')`;
  return scope === 'none' ? open : sql<SqlBool>`(${open} or ${sql.ref('posts.author')} = ${scope.author})`;
}
