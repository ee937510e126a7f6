import { hostPage } from '../http/permalinks.js';
import type { Urls } from '../http/urls.js';
import type { PostKindInfo } from './kinds.js';

/**
 * The public page of a post: the host's (`permalinks` option) where it set one, else the
 * pretty permalink when the post is published (or private and readable by the caller), else
 * WordPress' plain link.
 */
export function permalink(kind: PostKindInfo, post: { id: number; slug: string | null; status: string }, urls: Urls, callerCanRead: boolean): string {
  const pretty = !!post.slug && (post.status === 'publish' || (post.status === 'private' && callerCanRead));
  const item = { kind: kind.permalinkBase, id: post.id, slug: post.slug ?? '', status: post.status };
  const own = hostPage(urls.permalinks, item, urls.home, pretty);
  if (own !== undefined) return own;
  return pretty ? `${urls.home}/${kind.permalinkBase}/${post.slug}/` : `${urls.home}/?post_type=${kind.postType}&p=${post.id}`;
}

/** `global_id` and `global_id_lineage`. */
export function globalIds(id: number, urls: Urls): { global_id: string; global_id_lineage: string[] } {
  const globalId = `${urls.globalIdOrigin}?id=${id}`;
  return { global_id: globalId, global_id_lineage: [globalId] };
}
