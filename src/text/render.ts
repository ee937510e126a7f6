/**
 * The text of posts as the API shows and stores it: WordPress' display filter chains
 * (`the_title`, `the_content`, `the_excerpt`) and its save-time filtering of title,
 * content and excerpt.
 *
 * Of the display chains, these are left out: blocks, shortcodes, smilies
 * (`convert_smilies`), `prepend_attachment` and `wp_filter_content_tags` (image
 * `loading`/`srcset` attributes) — none applies to the plain text and simple HTML this
 * API stores.
 */
import { BoundedCache, type BoundedCacheOptions } from '../cache/bounded-cache.js';
import { wpautop } from './autop.js';
import { convertInvalidEntities } from './entities.js';
import { ksesPost, ksesTitle } from './kses.js';
import { phpTrim } from '../php/string.js';
import { convertChars, wptexturize } from './texturize.js';

/** Texts longer than this are rendered every time (a few of them would fill the memo). */
export const MEMO_LONGEST = 20_000;

/**
 * The bounds of each text memo: the texts of the pages being served, 500 at most, within 4
 * million characters of source and rendered text (up to 8 MB). By count alone, 500 texts of
 * the longest kept size would have held about 45 MB per memo.
 */
export const MEMO_BOUNDS: BoundedCacheOptions<string, string> = {
  maxEntries: 500,
  maxSize: 4_000_000,
  sizeOf: (out, raw) => raw.length + out.length,
};

/** `render` memoised by its input: the display filters are pure, and the same rows are shown again and again. */
function memoised(render: (raw: string) => string): (raw: string) => string {
  const memo = new BoundedCache<string, string>(MEMO_BOUNDS);
  return (raw) => {
    if (raw.length > MEMO_LONGEST) return render(raw);
    let out = memo.get(raw);
    if (out === undefined) {
      out = render(raw);
      memo.set(raw, out);
    }
    return out;
  };
}

/** A post title as the API returns it (`the_title`: texturize, `convert_chars`, trim). */
export const renderTitle = memoised((raw) => phpTrim(capitalPDangitInTitle(phpTrim(convertChars(wptexturize(raw))))));

/** Post content as the API returns it (`the_content`: texturize, paragraphs, trimmed; `""` stays `""`). */
export const renderContent = memoised((raw) => phpTrim(capitalPDangit(wpautop(wptexturize(raw)))));

/** A stored excerpt as the API returns it (`the_excerpt`: texturize, `convert_chars`, paragraphs, trimmed). */
export const renderExcerpt = memoised((raw) => phpTrim(wpautop(convertChars(wptexturize(raw)))));

/** The post fields whose HTML is filtered when saved. */
export type FilteredField = 'title' | 'content' | 'excerpt';

/**
 * A title, content or excerpt as WordPress stores it from this caller: titles are
 * trimmed; for callers without `unfiltered_html`, titles go through the title KSES
 * (`x <script>x</script><b>b</b>` → `x x<b>b</b>`) and content/excerpts through the post
 * KSES (`<script>alert(1)</script><p>ok</p>` → `alert(1)<p>ok</p>`); content/excerpts
 * also get `convert_invalid_entities`.
 */
export function filterForCaller(raw: string, unfilteredHtml: boolean, field: FilteredField): string {
  if (field === 'title') {
    // title_save_pre runs `trim` before the KSES filter.
    const trimmed = phpTrim(raw);
    return unfilteredHtml ? trimmed : ksesTitle(trimmed);
  }
  const converted = convertInvalidEntities(raw);
  return unfilteredHtml ? converted : ksesPost(converted);
}

/** `capital_P_dangit` in `the_title`: every "Wordpress" becomes "WordPress". */
function capitalPDangitInTitle(text: string): string {
  return text.includes('Wordpress') ? text.split('Wordpress').join('WordPress') : text;
}

/** `capital_P_dangit` in content: only after a space, an opening quote, `>` or `(`. */
function capitalPDangit(text: string): string {
  if (!text.includes('Wordpress')) return text;
  return text.replace(/( |&#8216;|&#8220;|>|\()Wordpress/g, '$1WordPress');
}
