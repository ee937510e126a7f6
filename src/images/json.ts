import type { Image, ImageSize } from '../schemas/types.js';
import type { AttachmentRow } from './queries.js';

/** The `image` of a post: `false`, or the attachment with its sizes. */
export function imageJson(att: AttachmentRow | undefined): false | Image {
  if (!att) return false;
  const path = new URL(att.url, 'http://x').pathname;
  const ext = /\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase() ?? att.mime_type.split('/')[1] ?? '';
  const out: Image = { url: att.url, id: att.post_id, extension: ext };
  if (att.width) out.width = att.width;
  if (att.height) out.height = att.height;
  if (att.filesize) out.filesize = att.filesize;
  // Written by the image service only, as the sizes it generated.
  let sizes: Record<string, ImageSize> = {};
  try {
    sizes = JSON.parse(att.sizes);
  } catch {
    sizes = {};
  }
  // An empty `sizes` disappears with WordPress' empty-value filter.
  if (Object.keys(sizes).length) out.sizes = sizes;
  return out;
}
