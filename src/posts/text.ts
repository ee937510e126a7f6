import { has, type Principal } from '../auth/capabilities.js';
import { filterForCaller } from '../text/render.js';

/** A title as stored: HTML kept for callers with `unfiltered_html`, filtered by KSES for others. */
export function filterTitle(raw: string, p: Principal | null): string {
  return filterForCaller(raw, has(p, 'unfiltered_html'), 'title');
}

/** Post content as stored (same rule as titles, with the post's allowed HTML). */
export function filterContent(raw: string, p: Principal | null): string {
  return filterForCaller(raw, has(p, 'unfiltered_html'), 'content');
}

/** An excerpt as stored. */
export function filterExcerpt(raw: string, p: Principal | null): string {
  return filterForCaller(raw, has(p, 'unfiltered_html'), 'excerpt');
}
