/** Largest id the store can hold (32-bit on PostgreSQL and MySQL). */
export const MAX_ID = 2_147_483_647;

/** Whether a number can be a stored id: a whole number from 1 to {@link MAX_ID}. */
export function isStoredId(id: number): boolean {
  return Number.isInteger(id) && id > 0 && id <= MAX_ID;
}

/** The numbers of a list that can be stored ids, each once, in their first order (a query never sees one it could not match). */
export function storedIds(ids: readonly number[]): number[] {
  return [...new Set(ids)].filter(isStoredId);
}

/** An id from a number or a digit string (white space around it allowed), or `undefined` when it cannot be a stored id. */
export function toId(value: unknown): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\d{1,10}$/.test(value.trim()) ? Number(value) : NaN;
  return isStoredId(n) ? n : undefined;
}
