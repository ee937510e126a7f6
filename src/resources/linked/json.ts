import type { LinkedView } from './service.js';
import type { PostKindInfo } from '../../posts/kinds.js';
import { globalIds, permalink } from '../../posts/urls.js';
import { postStamp } from '../../posts/json.js';
import type { PostRow } from '../../posts/queries.js';
import { dropEmpty } from '../../php/empty.js';
import { renderContent, renderExcerpt, renderTitle } from '../../text/render.js';
import { jsonLdDescription, jsonLdName } from '../../text/json-ld.js';

/**
 * The fields a venue or organizer starts with, in upstream key order: id, author, status,
 * dates and url. Upstream drops every empty value of these items; only the author can be one.
 */
export function linkedHead(kind: PostKindInfo, row: PostRow, view: Pick<LinkedView, 'urls'> & { canRead: boolean }) {
  const { author, ...stamp } = postStamp(row);
  return {
    id: row.id,
    ...dropEmpty({ author }),
    ...stamp,
    url: permalink(kind, row, view.urls, view.canRead),
  };
}

/** The rendered name, description, excerpt, slug and image of a venue or organizer (before the empty values go). */
export function linkedText(row: PostRow, view: Pick<LinkedView, 'image'>) {
  return {
    name: renderTitle(row.title),
    description: renderContent(row.content),
    excerpt: renderExcerpt(row.excerpt),
    slug: row.slug ?? '',
    image: view.image,
  };
}

/** `name` and `description` of a JSON-LD object. */
export function jsonLdText(row: PostRow) {
  return { name: jsonLdName(row.title), description: jsonLdDescription(row.excerpt, row.content) };
}

export { globalIds };
