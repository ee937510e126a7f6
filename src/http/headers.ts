import { corsHeaders, type CorsPolicy } from './cors.js';
import type { Urls } from './urls.js';
import { merged } from '../merged.js';

/** The headers every API response carries (README "Response headers"). */
export function commonHeaders(urls: Urls | undefined, cors: CorsPolicy): Record<string, string> {
  const h: Record<string, string> = {
    'Content-Type': 'application/json; charset=UTF-8',
    'X-Robots-Tag': 'noindex',
    'X-Content-Type-Options': 'nosniff',
  };
  if (urls) h.Link = `<${urls.root}>; rel="https://api.w.org/"`;
  return merged(h, corsHeaders(cors));
}
