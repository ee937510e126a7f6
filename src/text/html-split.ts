/**
 * Splits HTML into text and "tag" pieces the way WordPress' `wp_html_split` /
 * `_get_wptexturize_split_regex` do, with a hand-written scanner instead of their
 * possessive/conditional regexes (which JavaScript lacks, and whose naive translation
 * backtracks quadratically on hostile input).
 *
 * A tag piece starts at any `<` and runs to the next `>` inclusive, or to the end of the
 * input when there is none (so a stray `<` swallows the rest, as upstream). `<!--` starts
 * a comment that runs to the first `-->` or the end; with `cdata`, `<![CDATA[` runs to
 * the first `]]>` or the end.
 */

/** Options of `splitHtml`. */
export interface SplitHtmlOptions {
  /** Treat `<![CDATA[ … ]]>` as one piece (`wp_html_split` does, wptexturize does not). */
  cdata?: boolean;
}

/**
 * Splits `text` into alternating pieces: even indices are text (possibly empty), odd
 * indices are tags/comments — the shape of PHP's `preg_split(…, PREG_SPLIT_DELIM_CAPTURE)`.
 */
export function splitHtml(text: string, options: SplitHtmlOptions = {}): string[] {
  const pieces: string[] = [];
  let textStart = 0;
  let i = text.indexOf('<');
  while (i !== -1) {
    const end = tagEnd(text, i, options.cdata === true);
    pieces.push(text.slice(textStart, i), text.slice(i, end));
    textStart = end;
    i = end < text.length ? text.indexOf('<', end) : -1;
  }
  pieces.push(text.slice(textStart));
  return pieces;
}

/** Index just past the tag/comment starting at `start` (which holds a `<`). */
function tagEnd(text: string, start: number, cdata: boolean): number {
  if (text.startsWith('<!--', start)) {
    // The comment may close immediately (`<!-->`): search from the second dash.
    const close = text.indexOf('-->', start + 2);
    return close === -1 ? text.length : close + 3;
  }
  if (cdata && text.startsWith('<![CDATA[', start)) {
    const close = text.indexOf(']]>', start + 9);
    return close === -1 ? text.length : close + 3;
  }
  const close = text.indexOf('>', start + 1);
  return close === -1 ? text.length : close + 1;
}
