import type { LinkedView } from './rules.js';
import type { PostKindInfo } from '../../posts/kinds.js';
import { globalIds, permalink } from '../../posts/urls.js';
import type { PostRow } from '../../posts/queries.js';
import { renderContent, renderExcerpt, renderTitle } from '../../text/render.js';
import { jsonLdDescription, jsonLdName } from '../../text/json-ld.js';

/** The fields every post representation starts with. */
export function postBase(kind: PostKindInfo, row: PostRow, view: Pick<LinkedView, 'urls'> & { canRead: boolean }) {
  return {
    id: row.id,
    author: String(row.author),
    status: row.status,
    date: row.date,
    date_utc: row.date_utc,
    modified: row.modified,
    modified_utc: row.modified_utc,
    url: permalink(kind, row, view.urls, view.canRead),
  };
}

/** The rendered text fields of a post. */
export function postText(row: PostRow) {
  return { title: renderTitle(row.title), description: renderContent(row.content), excerpt: renderExcerpt(row.excerpt) };
}

/** `name` and `description` of a JSON-LD object. */
export function jsonLdText(row: PostRow) {
  return { name: jsonLdName(row.title), description: jsonLdDescription(row.excerpt, row.content) };
}

export { globalIds };
