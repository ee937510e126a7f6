import type { LinkedView } from './rules.js';
import type { PostKindInfo } from '../../posts/kinds.js';
import { globalIds, permalink } from '../../posts/urls.js';
import { postStamp } from '../../posts/json.js';
import type { PostRow } from '../../posts/queries.js';
import { renderContent, renderExcerpt, renderTitle } from '../../text/render.js';
import { jsonLdDescription, jsonLdName } from '../../text/json-ld.js';

/** The fields every post representation starts with. */
export function postBase(kind: PostKindInfo, row: PostRow, view: Pick<LinkedView, 'urls'> & { canRead: boolean }) {
  return {
    id: row.id,
    ...postStamp(row),
    url: permalink(kind, row, view.urls, view.canRead),
  };
}

/**
 * The fields a venue or organizer starts with, in upstream key order: the post's own, its
 * rendered name under `titleKey`, description, excerpt, slug and image.
 */
export function linkedHead(kind: PostKindInfo, titleKey: 'venue' | 'organizer', row: PostRow, view: Pick<LinkedView, 'urls' | 'image'> & { canRead: boolean }) {
  return {
    ...postBase(kind, row, view),
    [titleKey]: renderTitle(row.title),
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
