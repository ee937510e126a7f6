/**
 * WordPress' `wptexturize` (default settings, English translations) and `convert_chars`.
 *
 * Implemented, in upstream order, on text outside tags and outside `pre`, `code`, `kbd`,
 * `style`, `script`, `tt` elements:
 *  - static: `...` → `&#8230;`, ``` `` ``` → `&#8220;`, `''` → `&#8221;`, ` (tm)` → ` &#8482;`,
 *    and the "cockney" words (`'tis`, `'twas`, `'em`, … → `&#8217;tis` …);
 *  - single quotes: `'99`, `'99'`, quoted numbers, opening `&#8216;`, apostrophes and
 *    closing `&#8217;`, primes `&#8242;` (`9'`);
 *  - double quotes: opening `&#8220;`, closing `&#8221;`, double primes `&#8243;` (`9"`);
 *  - dashes: `---` → `&#8212;`, ` -- ` → ` &#8212; `, other `--` → `&#8211;` (not after
 *    `xn`), ` - ` → ` &#8211; `;
 *  - `9x9` → `9&#215;9` (never `0x9`);
 *  - a bare `&` → `&#038;` (also inside tags), existing references kept.
 * Not implemented: `(c)`/`(r)` (WordPress does not replace them either), shortcode
 * awareness (no shortcodes are registered here), and the translation/filter hooks.
 */
import { splitHtml } from './html-split.js';
import { phpTrim } from '../php/string.js';

// wp_spaces_regexp(): the characters WordPress treats as spaces around quotes and dashes.
const SP = '(?:[\\r\\n\\t ]|\\u00a0|&nbsp;)';

const APOS_FLAG = '<!--apos-->';
const OPEN_SQ_FLAG = '<!--osq-->';
const OPEN_Q_FLAG = '<!--oq-->';

const OPENING_QUOTE = '&#8220;';
const CLOSING_QUOTE = '&#8221;';
const APOS = '&#8217;';
const PRIME = '&#8242;';
const DOUBLE_PRIME = '&#8243;';
const OPENING_SINGLE_QUOTE = '&#8216;';
const CLOSING_SINGLE_QUOTE = '&#8217;';
const EN_DASH = '&#8211;';
const EM_DASH = '&#8212;';

const COCKNEY = ["'tain't", "'twere", "'twas", "'tis", "'twill", "'til", "'bout", "'nuff", "'round", "'cause", "'em"];

/** `str_replace` pairs, applied one after the other over the whole piece, as PHP does. */
const STATIC_REPLACEMENTS: ReadonlyArray<readonly [string, string]> = [
  ['...', '&#8230;'],
  ['``', OPENING_QUOTE],
  ["''", CLOSING_QUOTE],
  [' (tm)', ' &#8482;'],
  ...COCKNEY.map((word): [string, string] => [word, word.replace(/'/g, APOS)]),
];

// PHP's `\Z` is "end, or before a final newline"; every place it is used below also
// accepts a newline through SP or a negated class, so a plain `$` is equivalent.
const APOS_PATTERNS: ReadonlyArray<readonly [RegExp, string]> = [
  // '99' and '99" are ambiguous; assume an abbreviated year at the end of a quotation.
  [new RegExp(`'(\\d\\d)'(?=$|[.,:;!?)}\\-\\]]|&gt;|${SP})`, 'g'), `${APOS_FLAG}$1${CLOSING_SINGLE_QUOTE}`],
  [new RegExp(`'(\\d\\d)"(?=$|[.,:;!?)}\\-\\]]|&gt;|${SP})`, 'g'), `${APOS_FLAG}$1${CLOSING_QUOTE}`],
  // '99 '99s '99's are apostrophes, but never '9, '99%, '999 or '99.0.
  [/'(?=\d\d(?:$|(?![%\d]|[.,]\d)))/g, APOS_FLAG],
  // Quoted numbers like '0.42'.
  [new RegExp(`(?<=^|${SP})'(\\d[.,\\d]*)'`, 'g'), `${OPEN_SQ_FLAG}$1${CLOSING_SINGLE_QUOTE}`],
  // Opening quote: at the start, or after ( { [ " - < or a space.
  [new RegExp(`(?<=^|[([{"\\-]|&lt;|${SP})'`, 'g'), OPEN_SQ_FLAG],
  // Apostrophe inside a word.
  [new RegExp(`(?<!${SP})'(?!$|[.,:;!?"'(){}[\\]\\-]|&[lg]t;|${SP})`, 'g'), APOS_FLAG],
];

const QUOTE_PATTERNS: ReadonlyArray<readonly [RegExp, string]> = [
  // Quoted numbers like "42".
  [new RegExp(`(?<=^|${SP})"(\\d[.,\\d]*)"`, 'g'), `${OPEN_Q_FLAG}$1${CLOSING_QUOTE}`],
  // Opening quote: at the start or after ( { [ - < or a space, and not followed by a space.
  [new RegExp(`(?<=^|[([{\\-]|&lt;|${SP})"(?!${SP})`, 'g'), OPEN_Q_FLAG],
];

const DASH_PATTERNS: ReadonlyArray<readonly [RegExp, string]> = [
  [/---/g, EM_DASH],
  [new RegExp(`(?<=^|${SP})--(?=$|${SP})`, 'g'), EM_DASH],
  [/(?<!xn)--/g, EN_DASH],
  [new RegExp(`(?<=^|${SP})-(?=$|${SP})`, 'g'), EN_DASH],
];

const NO_TEXTURIZE_TAGS: ReadonlySet<string> = new Set(['pre', 'code', 'kbd', 'style', 'script', 'tt']);

const BARE_AMPERSAND = /&(?!#(?:\d+|x[a-f0-9]+);|[a-z1-4]{1,8};)/gi;

/** Typographic substitutions of WordPress' `wptexturize` (see the module comment for the list). */
export function wptexturize(text: string): string {
  if (text === '') return text;
  const pieces = splitHtml(text);
  const stack: string[] = [];
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i];
    if (!piece) continue;
    if (i % 2 === 1) {
      if (piece.startsWith('<!--')) continue;
      const tag = piece.replace(BARE_AMPERSAND, '&#038;');
      pieces[i] = tag;
      pushPopElement(tag, stack);
    } else if (phpTrim(piece) !== '' && stack.length === 0) {
      pieces[i] = texturizeText(piece);
    }
  }
  return pieces.join('');
}

/** Texturizes one piece of plain text (no tags). */
function texturizeText(text: string): string {
  let s = text;
  for (const [from, to] of STATIC_REPLACEMENTS) if (s.includes(from)) s = s.split(from).join(to);
  if (s.includes("'")) {
    s = replaceAll(s, APOS_PATTERNS);
    s = texturizePrimes(s, "'", PRIME, OPEN_SQ_FLAG, CLOSING_SINGLE_QUOTE);
    s = s.split(APOS_FLAG).join(APOS).split(OPEN_SQ_FLAG).join(OPENING_SINGLE_QUOTE);
  }
  if (s.includes('"')) {
    s = replaceAll(s, QUOTE_PATTERNS);
    s = texturizePrimes(s, '"', DOUBLE_PRIME, OPEN_Q_FLAG, CLOSING_QUOTE);
    s = s.split(OPEN_Q_FLAG).join(OPENING_QUOTE);
  }
  if (s.includes('-')) s = replaceAll(s, DASH_PATTERNS);
  if (/(?<=\d)x\d/.test(s)) s = replaceTimes(s);
  return s.replace(BARE_AMPERSAND, '&#038;');
}

function replaceAll(text: string, patterns: ReadonlyArray<readonly [RegExp, string]>): string {
  let s = text;
  for (const [re, to] of patterns) s = s.replace(re, to);
  return s;
}

/**
 * `wptexturize_primes`: decides, per quotation opened by `openFlag`, which of the
 * remaining `needle` characters close it and which are primes (`9'`, `9"`).
 */
function texturizePrimes(haystack: string, needle: "'" | '"', prime: string, openFlag: string, closeQuote: string): string {
  const flag = '<!--wp-prime-or-quote-->';
  const quotePattern = new RegExp(`${needle}(?=$|[.,:;!?)}\\-\\]]|&gt;|${SP})`, 'g');
  const primePattern = new RegExp(`(?<=\\d)${needle}`, 'g');
  const sentences = haystack.split(openFlag);
  for (let key = 0; key < sentences.length; key++) {
    let sentence = sentences[key];
    if (sentence === undefined || !sentence.includes(needle)) continue;
    if (key !== 0 && !sentence.includes(closeQuote)) {
      let count = 0;
      sentence = sentence.replace(quotePattern, () => {
        count++;
        return flag;
      });
      if (count > 1) {
        // Several closing-quote candidates: those not after a digit are closing quotes.
        let replaced = 0;
        sentence = sentence.replace(new RegExp(`(?<!\\d)${flag}`, 'g'), () => {
          replaced++;
          return closeQuote;
        });
        if (replaced === 0) {
          // All follow digits: the rightmost one followed by a period (else the rightmost) closes.
          const dotted = sentence.lastIndexOf(`${flag}.`);
          const pos = dotted !== -1 ? dotted : sentence.lastIndexOf(flag);
          sentence = sentence.slice(0, pos) + closeQuote + sentence.slice(pos + flag.length);
        }
        sentence = sentence.replace(primePattern, prime);
        sentence = sentence.replace(new RegExp(`(?<=\\d)${flag}`, 'g'), prime);
        sentence = sentence.split(flag).join(closeQuote);
      } else if (count === 1) {
        // A single candidate closes the quotation, before primes are considered.
        sentence = sentence.split(flag).join(closeQuote).replace(primePattern, prime);
      } else {
        sentence = sentence.replace(primePattern, prime);
      }
    } else {
      sentence = sentence.replace(primePattern, prime).replace(quotePattern, closeQuote);
    }
    if (needle === '"' && sentence.includes('"')) sentence = sentence.split('"').join(closeQuote);
    sentences[key] = sentence;
  }
  return sentences.join(openFlag);
}

/**
 * `9x9` → `9&#215;9`, as upstream's `\b(\d(?(?<=0)[\d\.,]+|[\d\.,]*))x(\d[\d\.,]*)\b`, but
 * scanned by hand: the regex retries every start inside a run like `1,1,1,…` and is
 * quadratic on long ones.
 */
function replaceTimes(text: string): string {
  const n = text.length;
  let out = '';
  let copied = 0;
  let s = 0;
  while (s < n) {
    // A start is a digit at a word boundary (the previous character is not a word character).
    if (!isDigit(text, s) || isWordChar(text, s - 1)) {
      s++;
      continue;
    }
    // Group 1 is the [\d.,]* run up to an `x`; backtracking cannot help, an `x` must follow.
    let e = s + 1;
    while (e < n && isNumberChar(text, e)) e++;
    const startsWithZero = text[s] === '0';
    if (text[e] !== 'x' || !isDigit(text, e + 1) || (startsWithZero && e - s < 2)) {
      // Any later start before `e` ends at the same `e` and fails for the same reason,
      // except a zero start failing the "0 needs more digits" rule, which has no later start.
      s = Math.max(e, s + 1);
      continue;
    }
    // Group 2 is the longest [\d.,]* run after `x` that ends at a word boundary.
    let f = e + 2;
    while (f < n && isNumberChar(text, f)) f++;
    let k = f;
    while (k >= e + 2 && isWordChar(text, k - 1) === isWordChar(text, k)) k--;
    if (k < e + 2) {
      s = e + 1;
      continue;
    }
    out += text.slice(copied, e) + '&#215;' + text.slice(e + 1, k);
    copied = k;
    s = k;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

function isDigit(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  return c >= 48 && c <= 57;
}

function isNumberChar(text: string, i: number): boolean {
  return isDigit(text, i) || text[i] === '.' || text[i] === ',';
}

/** PCRE's `\w` without Unicode: ASCII letters, digits, `_` (outside the string: none). */
function isWordChar(text: string, i: number): boolean {
  if (i < 0 || i >= text.length) return false;
  return /[A-Za-z0-9_]/.test(text.charAt(i));
}

/**
 * `_wptexturize_pushpop_element`: an opening no-texturize tag pushes its name, the
 * matching closing tag pops it (names compared case-sensitively, as upstream).
 */
function pushPopElement(tag: string, stack: string[]): void {
  const opening = tag.length > 1 && tag[1] !== '/';
  if (!opening && stack.length === 0) return;
  const offset = opening ? 1 : 2;
  const space = tag.indexOf(' ');
  const name = space === -1 ? tag.slice(offset, -1) : tag.slice(offset, space);
  if (!NO_TEXTURIZE_TAGS.has(name)) return;
  if (opening) stack.push(name);
  else if (stack[stack.length - 1] === name) stack.pop();
}

/** WordPress' `convert_chars`: a `&` not starting a reference becomes `&#038;`. */
export function convertChars(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&([^#])(?![a-z1-4]{1,8};)/gi, '&#038;$1');
}
