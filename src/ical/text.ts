import { compile } from 'html-to-text';

/**
 * HTML as the plain text of an iCalendar `TEXT` value: tags dropped (paragraphs, line breaks
 * and list items become line breaks), entities decoded, images and scripts left out, a link
 * followed by its address when that differs from its text.
 *
 * `html-to-text` rather than a strip of tags: it parses HTML as a browser does (unclosed
 * elements, entities of every kind, `<script>` content), and it is maintained and widely used.
 */
const toText = compile({
  wordwrap: false,
  selectors: [
    { selector: 'img', format: 'skip' },
    { selector: 'a', options: { hideLinkHrefIfSameAsText: true } },
    ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((selector) => ({ selector, options: { uppercase: false } })),
  ],
});

/** Control characters a `TEXT` value may not carry (RFC 5545 §3.3.11 allows tab and, escaped, line feed). */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/g;

/** The plain text of rendered HTML (a title, a description), on one line when `singleLine`. */
export function plainText(html: string, singleLine = false): string {
  const text = toText(html).replace(/\r\n?/g, '\n').replace(CONTROL, '').trim();
  return singleLine ? text.replace(/\s*\n\s*/g, ' ') : text;
}
