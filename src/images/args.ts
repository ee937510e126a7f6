import { phpEmpty } from '../php/empty.js';
import { has } from '../auth/capabilities.js';
import { toId } from '../ids.js';
import type { RequestContext } from '../http/context.js';

/**
 * `image`: the id of an image attachment, or an absolute http(s) URL
 * from a caller who may upload files (the fetch itself happens in the handler, after
 * the permission check). Venues and organizers accept an empty value ("remove").
 */
export function imageCheck(options: { allowEmpty: boolean }) {
  return async (value: unknown, ctx: RequestContext): Promise<boolean> => {
    if (phpEmpty(value) && value !== 0) return options.allowEmpty;
    const id = toId(value);
    if (id !== undefined) return (await ctx.services.images.get(id)) !== undefined;
    if (typeof value !== 'string' || !has(ctx.principal, 'upload_files')) return false;
    try {
      const url = new URL(value);
      return url.protocol === 'http:' || url.protocol === 'https:';
    } catch {
      return false;
    }
  };
}
