/**
 * The stored form of a description or excerpt the source shows rendered. The v1 API shows a
 * post's text only through WordPress' display filters (texturize, then paragraphs: `wpautop`);
 * stored as shown, most texts render to themselves again, but not all: `wpautop` run over its
 * own output moves what it wrapped inside a `<blockquote>` or a `<div>` (`<blockquote><p>Q</p>
 * </blockquote>` renders as `<blockquote>\n<p>Q</p>\n</blockquote>`). Such a text is stored
 * with the paragraphs `wpautop` added taken out again, when that renders exactly as the source
 * showed it; otherwise as shown.
 */
import { renderContent, renderExcerpt } from '../text/render.js';

/** The texts that are shown in paragraphs. */
export type ParagraphField = 'content' | 'excerpt';

const RENDER: Record<ParagraphField, (raw: string) => string> = { content: renderContent, excerpt: renderExcerpt };

/** Paragraph tags taken out of HTML outside `<pre>` blocks (see {@link withoutAddedParagraphs}). */
const unwrap = (html: string) => html.split('<p>').join('').split('</p>\n').join('\n\n').split('</p>').join('');

/**
 * `html` without the paragraphs `wpautop` wraps text in: each bare `<p>` dropped, each `</p>`
 * that ends a line a blank line (where `wpautop` found one), any other `</p>` dropped (the end
 * of a block's text). Paragraphs with attributes stay, and so do every `<br />` and what
 * `<pre>` blocks hold (`wpautop` leaves both as they are). Plain splits and joins: linear in
 * the text.
 */
export function withoutAddedParagraphs(html: string): string {
  return html
    .split('</pre>')
    .map((chunk) => {
      const pre = chunk.indexOf('<pre');
      return pre < 0 ? unwrap(chunk) : unwrap(chunk.slice(0, pre)) + chunk.slice(pre);
    })
    .join('</pre>');
}

/**
 * The text to store for a `field` the source shows rendered (`shown`, already filtered as the
 * write filters it), so that the API shows `shown` again: `shown` itself when it renders to
 * itself, else `shown` without the paragraphs `wpautop` added when that renders to `shown`,
 * else `shown` (rendered once more; the nearest this API can show).
 */
export function storedText(shown: string, field: ParagraphField): string {
  const render = RENDER[field];
  if (render(shown) === shown) return shown;
  // A paragraph with attributes is the author's own, and its `</p>` taken out with the others:
  // the check below keeps the text as shown then, unless it renders the same all the same.
  const unwrapped = withoutAddedParagraphs(shown);
  return render(unwrapped) === shown ? unwrapped : shown;
}
