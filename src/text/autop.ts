/**
 * WordPress' `wpautop`: turns double line breaks into paragraphs and single ones into
 * `<br />`, leaving block-level elements unwrapped. A step-by-step port of
 * `wp-includes/formatting.php::wpautop` (WordPress 6.x).
 *
 * Deliberate differences, all for linear running time on hostile input (V8 has no
 * possessive quantifiers and backtracks where PCRE's limits would give up):
 *  - where upstream matches a tag as `<name[^>]*>`, this port uses `[^<>]*` — a tag whose
 *    attribute value holds a raw `<` is not recognised by the clean-up steps. The one `<`
 *    allowed is that of the `<!-- wpnl -->` placeholder a newline inside the tag has become
 *    by then: upstream's `[^>]*>` ends at the placeholder's `>`, and so does this port
 *    (`TAG_REST`), with upstream's results for such tags, quirks included;
 *  - `\s*<tag` patterns only start at the beginning of a white-space run (same matches);
 *  - the `<li` unwrapping, the newline preservation in `script`/`style`/`svg`/`math`
 *    and the newline → `<br />` step are hand-written scanners with upstream's semantics.
 */
import { splitHtml } from './html-split.js';
import { phpTrim } from '../php/string.js';

/** The block-level element names of upstream's `$allblocks`. */
const BLOCKS =
  '(?:table|thead|tfoot|caption|col|colgroup|tbody|tr|td|th|div|dl|dd|dt|ul|ol|li|pre|form|map|area|blockquote|address|style|p|h[1-6]|hr|fieldset|legend|section|article|aside|hgroup|header|footer|nav|figure|figcaption|details|menu|summary)';

/** PCRE's `\s` without Unicode (JavaScript's `\s` also matches NBSP and other spaces). */
const WS = '[\\t\\n\\v\\f\\r ]';

/** Upstream's `\s*` in front of a tag, allowed to start only where a white-space run starts. */
const LEADING_WS = `(?:(?<!${WS})${WS}*)?`;

const re = (source: string, flags = 'g'): RegExp => new RegExp(source, flags);

/**
 * Upstream's `[^>]*` after a tag name, up to its first `>`. Newlines inside tags are
 * `<!-- wpnl -->` placeholders before any clean-up step runs: a tag whose attributes span
 * lines reaches its first `>` only through one.
 */
const TAG_REST = '[^<>]*(?:<!-- wpnl --)?';

const BR_PAIR = re(`<br${WS}*/?>${WS}*<br${WS}*/?>`);
const BLOCK_OPEN = re(`(<${BLOCKS}[\\t\\n\\v\\f\\r />])`);
const BLOCK_CLOSE = re(`(</${BLOCKS}>)`);
const HR = re(`(<hr${WS}*?/?>)`);
const BLOCK_TAG = `</?${BLOCKS}${TAG_REST}>`;
const EMPTY_P = re(`<p>${WS}*</p>`);
const P_IN_CONTAINER = /<p>([^<]+)<\/(div|address|form)>/g;
const WRAPPED_BLOCK_TAG = re(`<p>${WS}*(${BLOCK_TAG})${WS}*</p>`);
const P_BEFORE_BLOCK_TAG = re(`<p>${WS}*(${BLOCK_TAG})`);
const P_CLOSE_AFTER_BLOCK_TAG = re(`(${BLOCK_TAG})${WS}*</p>`);
const BLOCKQUOTE_IN_P = re(`<p><blockquote(${TAG_REST})>`, 'gi');
const BR_AFTER_BLOCK_TAG = re(`(${BLOCK_TAG})${WS}*<br />`);
const BR_BEFORE_BLOCK_TAG = re(`<br />(${WS}*</?(?:p|li|div|dl|dd|dt|th|pre|td|ul|ol)${TAG_REST}>)`);

const NEWLINE_PLACEHOLDER = ' <!-- wpnl --> ';
const PRESERVED_NEWLINE = '<WPPreserveNewline />';

/** Paragraphs and line breaks for plain text and simple HTML, as WordPress' `wpautop`. */
export function wpautop(text: string, br = true): string {
  if (phpTrim(text) === '') return '';
  // Padding the end makes the last paragraph end like the others.
  let s = `${text}\n`;

  // <pre> elements are set aside and put back untouched at the end.
  const preTags: string[] = [];
  if (s.includes('<pre')) s = setAsidePreElements(s, preTags);

  // Two <br>s in a row become a paragraph break.
  s = s.replace(BR_PAIR, '\n\n');
  // Block-level tags get blank lines around them, so they end up in paragraphs of their own.
  s = s.replace(BLOCK_OPEN, '\n\n$1');
  s = s.replace(BLOCK_CLOSE, '$1\n\n');
  s = s.replace(HR, '$1\n\n');
  s = s.replace(/\r\n?/g, '\n');
  // Newlines inside tags and comments must not become <br />: hide them for now.
  s = replaceInTags(s, '\n', NEWLINE_PLACEHOLDER);

  // No line breaks around <option>, inside <object>, around <source>/<track> in media
  // elements, or before <figcaption>: they would be turned into stray <br />s.
  if (s.includes('<option')) {
    s = s.replace(re(`${LEADING_WS}<option`), '<option');
    s = s.replace(re(`</option>${WS}*`), '</option>');
  }
  if (s.includes('</object>')) {
    s = s.replace(re(`(<object${TAG_REST}>)${WS}*`), '$1');
    s = s.replace(re(`${LEADING_WS}</object>`), '</object>');
    s = s.replace(re(`${LEADING_WS}(</?(?:param|embed)${TAG_REST}>)${WS}*`), '$1');
  }
  if (s.includes('<source') || s.includes('<track')) {
    s = s.replace(re(`([<\\[](?:audio|video)[^<>\\[\\]]*(?:<!-- wpnl --)?[>\\]])${WS}*`), '$1');
    s = s.replace(re(`${LEADING_WS}([<\\[]/(?:audio|video)[>\\]])`), '$1');
    s = s.replace(re(`${LEADING_WS}(<(?:source|track)${TAG_REST}>)${WS}*`), '$1');
  }
  if (s.includes('<figcaption')) {
    s = s.replace(re(`${LEADING_WS}(<figcaption${TAG_REST}>)`), '$1');
    s = s.replace(re(`</figcaption>${WS}*`), '</figcaption>');
  }

  // Every chunk between blank lines becomes a paragraph.
  s = s.replace(/\n\n+/g, '\n\n');
  s = s
    .split(re(`\\n${WS}*\\n`, ''))
    .filter((paragraph) => paragraph !== '')
    .map((paragraph) => `<p>${trimNewlines(paragraph)}</p>\n`)
    .join('');

  // Then the paragraphs that wrap block-level tags are undone or repaired.
  s = s.replace(EMPTY_P, '');
  s = s.replace(P_IN_CONTAINER, '<p>$1</p></$2>');
  s = s.replace(WRAPPED_BLOCK_TAG, '$1');
  s = unwrapListItems(s);
  s = s.replace(BLOCKQUOTE_IN_P, '<blockquote$1><p>');
  s = s.split('</blockquote></p>').join('</p></blockquote>');
  s = s.replace(P_BEFORE_BLOCK_TAG, '$1');
  s = s.replace(P_CLOSE_AFTER_BLOCK_TAG, '$1');

  if (br) {
    // Newlines inside script/style/svg/math are code, not line breaks.
    s = preserveNewlinesInRawElements(s);
    s = s.split('<br>').join('<br />').split('<br/>').join('<br />');
    s = newlinesToBr(s);
    s = s.split(PRESERVED_NEWLINE).join('\n');
  }

  s = s.replace(BR_AFTER_BLOCK_TAG, '$1');
  s = s.replace(BR_BEFORE_BLOCK_TAG, '$1');
  // PHP's `$` also matches before a final newline.
  s = s.replace(/\n<\/p>(?=\n?$)/, '</p>');

  // One pass over the text (upstream's str_replace per placeholder is quadratic in the number of <pre>s).
  if (preTags.length > 0) s = s.replace(/<pre wp-pre-tag-(\d+)><\/pre>/g, (placeholder, i: string) => preTags[Number(i)] ?? placeholder);
  if (s.includes('<!-- wpnl -->')) s = s.split(NEWLINE_PLACEHOLDER).join('\n').split('<!-- wpnl -->').join('\n');
  return s;
}

/**
 * Replaces each `<pre>…</pre>` with a `<pre wp-pre-tag-N></pre>` placeholder, recording
 * the original in `preTags`. As upstream, a `</pre>` without an opening `<pre` before it
 * (in its chunk) is dropped.
 */
function setAsidePreElements(text: string, preTags: string[]): string {
  const parts = text.split('</pre>');
  const last = parts.pop() ?? '';
  let out = '';
  for (const part of parts) {
    const start = part.indexOf('<pre');
    if (start === -1) {
      out += part;
      continue;
    }
    out += `${part.slice(0, start)}<pre wp-pre-tag-${preTags.length}></pre>`;
    preTags.push(`${part.slice(start)}</pre>`);
  }
  return out + last;
}

/** `wp_replace_in_html_tags` for one search string: replaces only inside tags and comments. */
function replaceInTags(text: string, search: string, replacement: string): string {
  const pieces = splitHtml(text, { cdata: true });
  let changed = false;
  for (let i = 1; i < pieces.length; i += 2) {
    const tag = pieces[i];
    if (tag?.includes(search)) {
      pieces[i] = tag.split(search).join(replacement);
      changed = true;
    }
  }
  return changed ? pieces.join('') : text;
}

/** PHP's `trim($paragraph, "\n")`. */
function trimNewlines(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && text[start] === '\n') start++;
  while (end > start && text[end - 1] === '\n') end--;
  return text.slice(start, end);
}

/**
 * Upstream's `|<p>(<li.+?)</p>|`: a `<p>` directly followed by `<li` loses its `<p>` and
 * the first `</p>` later on the same line (at least one character after `<li`).
 */
function unwrapListItems(text: string): string {
  let out = '';
  let copied = 0;
  let from = 0;
  let nextClose = -1;
  for (;;) {
    const start = text.indexOf('<p><li', from);
    if (start === -1) break;
    const body = start + 3;
    const newline = text.indexOf('\n', body);
    const lineEnd = newline === -1 ? text.length : newline;
    // The next `</p>` is cached: later starts only ever look further right.
    if (nextClose < body + 4) nextClose = text.indexOf('</p>', body + 4);
    if (nextClose === -1 || nextClose >= lineEnd) {
      // Later starts on this line would find no `</p>` either.
      from = lineEnd;
      if (nextClose === -1) break;
      continue;
    }
    out += text.slice(copied, start) + text.slice(body, nextClose);
    copied = nextClose + 4;
    from = copied;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/**
 * Upstream's `/<(script|style|svg|math).*?<\/\1>/s` callback: newlines inside these
 * elements become a placeholder so that they are not turned into `<br />`.
 */
function preserveNewlinesInRawElements(text: string): string {
  const opener = /<(script|style|svg|math)/g;
  const unclosed = new Set<string>();
  let out = '';
  let copied = 0;
  let m: RegExpExecArray | null;
  while ((m = opener.exec(text)) !== null) {
    const [, name = ''] = m;
    const close = unclosed.has(name) ? -1 : text.indexOf(`</${name}>`, opener.lastIndex);
    if (close === -1) {
      // No closing tag from here on: no later element of this name can match either.
      unclosed.add(name);
      opener.lastIndex = m.index + 1;
      continue;
    }
    const end = close + name.length + 3;
    out += text.slice(copied, m.index) + text.slice(m.index, end).split('\n').join(PRESERVED_NEWLINE);
    copied = end;
    opener.lastIndex = end;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/**
 * Upstream's `|(?<!<br />)\s*\n|` → `<br />\n`, computed per white-space run: the run, up
 * to its last newline, becomes one `<br />\n` — keeping its first character when the run
 * directly follows a `<br />`.
 */
function newlinesToBr(text: string): string {
  return text.replace(/[\t\n\v\f\r ]+/g, (run: string, offset: number) => {
    const keep = offset >= 6 && text.startsWith('<br />', offset - 6) ? 1 : 0;
    const lastNewline = run.lastIndexOf('\n');
    if (lastNewline < keep) return run;
    return `${run.slice(0, keep)}<br />\n${run.slice(lastNewline + 1)}`;
  });
}
