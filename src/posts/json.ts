import type { PostRow } from './queries.js';

/**
 * The author, status and dates every post item shows, in upstream key order: the author id
 * as a string (WordPress keeps it as one), the dates verbatim as stored.
 */
export function postStamp(row: Pick<PostRow, 'author' | 'status' | 'date' | 'date_utc' | 'modified' | 'modified_utc'>) {
  return {
    author: String(row.author),
    status: row.status,
    date: row.date,
    date_utc: row.date_utc,
    modified: row.modified,
    modified_utc: row.modified_utc,
  };
}
