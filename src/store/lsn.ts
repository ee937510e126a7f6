/**
 * Positions in PostgreSQL's write-ahead log (an LSN, written `16/B374D848`): where a write
 * ended, and how far a replica has replayed. A replica whose replay position has passed a
 * write's position shows that write (a record is applied before the position moves past it).
 */

/**
 * The header that carries a position: on the answer to a write (where the write ended) and to a
 * read served by a replica (what that read saw). A client that sends it back, to any instance,
 * is answered from a node that has at least that.
 */
export const POSITION_HEADER = 'X-Calendar-Position';

/** The most a header may hold: two 32-bit halves in hexadecimal. */
const LSN = /^([0-9A-F]{1,8})\/([0-9A-F]{1,8})$/i;

/** The position an LSN's text stands for, or `undefined` when it is not one. */
export function parsePosition(text: string | null | undefined): bigint | undefined {
  const m = text ? LSN.exec(text.trim()) : null;
  if (!m) return undefined;
  return (BigInt(`0x${m[1]}`) << 32n) | BigInt(`0x${m[2]}`);
}

/** A position as PostgreSQL writes it (`16/B374D848`). */
export function formatPosition(position: bigint): string {
  return `${(position >> 32n).toString(16).toUpperCase()}/${(position & 0xffffffffn).toString(16).toUpperCase()}`;
}
