/**
 * The error PHP's `json_decode($body, true)` reports for a body, so that `rest_invalid_json`
 * carries the same `json_error_code` and `json_error_message` as WordPress.
 * It follows PHP's own scanner and grammar: tokens are read left to right and the first
 * lexical or grammar error wins.
 */

/** A `json_last_error()` code and its `json_last_error_msg()`. */
export interface PhpJsonError {
  code: number;
  message: string;
}

const error = (code: number, message: string): PhpJsonError => ({ code, message });
const DEPTH = error(1, 'Maximum stack depth exceeded');
const STATE_MISMATCH = error(2, 'State mismatch (invalid or malformed JSON)');
const CTRL_CHAR = error(3, 'Control character error, possibly incorrectly encoded');
/** PHP's catch-all, also used when JSON.parse refuses what the checks below accepted. */
export const SYNTAX = error(4, 'Syntax error');
const UTF8 = error(5, 'Malformed UTF-8 characters, possibly incorrectly encoded');
const UTF16 = error(10, 'Single unpaired UTF-16 surrogate in unicode escape');

/** `json_decode`'s default depth, which WordPress keeps: 511 nested arrays or objects at most. */
const MAX_DEPTH = 512;

const PUNCTUATION = new Set([0x7b, 0x7d, 0x5b, 0x5d, 0x3a, 0x2c]); // { } [ ] : ,
const ESCAPES = new Set([0x22, 0x5c, 0x2f, 0x62, 0x66, 0x6e, 0x72, 0x74]); // " \ / b f n r t
const LITERALS = ['null', 'true', 'false'].map((word) => Buffer.from(word));

const isWhite = (c: number | undefined) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
const isDigit = (c: number | undefined) => c !== undefined && c >= 0x30 && c <= 0x39;
const hexValue = (c: number | undefined) =>
  c === undefined ? -1 : c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x41 && c <= 0x46 ? c - 0x37 : c >= 0x61 && c <= 0x66 ? c - 0x57 : -1;

/** Length of the well-formed UTF-8 sequence at `i` (as PHP's scanner defines it), or 0. */
function utf8Length(b: Uint8Array, i: number): number {
  const c = b[i];
  const tail = (k: number, lo = 0x80, hi = 0xbf) => (b[i + k] ?? -1) >= lo && (b[i + k] ?? -1) <= hi;
  if (c === undefined) return 0;
  if (c < 0x80) return 1;
  if (c >= 0xc2 && c <= 0xdf) return tail(1) ? 2 : 0;
  if (c === 0xe0) return tail(1, 0xa0) && tail(2) ? 3 : 0;
  if (c === 0xed) return tail(1, 0x80, 0x9f) && tail(2) ? 3 : 0;
  if (c >= 0xe1 && c <= 0xef) return tail(1) && tail(2) ? 3 : 0;
  if (c === 0xf0) return tail(1, 0x90) && tail(2) && tail(3) ? 4 : 0;
  if (c >= 0xf1 && c <= 0xf3) return tail(1) && tail(2) && tail(3) ? 4 : 0;
  if (c === 0xf4) return tail(1, 0x80, 0x8f) && tail(2) && tail(3) ? 4 : 0;
  return 0;
}

/** The four hex digits of a `\u` escape at `i` (the backslash), or -1. */
function unicodeEscape(b: Uint8Array, i: number): number {
  if (b[i] !== 0x5c || b[i + 1] !== 0x75) return -1;
  let value = 0;
  for (let k = 2; k < 6; k++) {
    const h = hexValue(b[i + k]);
    if (h < 0) return -1;
    value = value * 16 + h;
  }
  return value;
}

type Token = { kind: 'punct'; char: number } | { kind: 'string' } | { kind: 'value' } | { kind: 'end' } | { kind: 'error'; error: PhpJsonError };

/** PHP's JSON scanner over bytes: one token from `at.i`, which it advances. */
function scan(b: Uint8Array, at: { i: number }): Token {
  let i = at.i;
  while (isWhite(b[i])) i++;
  const done = (token: Token, next: number): Token => {
    at.i = next;
    return token;
  };
  const c = b[i];
  if (c === undefined) return done({ kind: 'end' }, i);
  if (PUNCTUATION.has(c)) return done({ kind: 'punct', char: c }, i + 1);
  for (const word of LITERALS) {
    if (c === word[0] && word.every((w, k) => b[i + k] === w)) return done({ kind: 'value' }, i + word.length);
  }
  if (c === 0x2d || isDigit(c)) {
    // INT, FLOAT, EXP by longest match; a lone `-` is no number.
    let j = c === 0x2d ? i + 1 : i;
    if (b[j] === 0x30) j++;
    else if (isDigit(b[j])) while (isDigit(b[j])) j++;
    else return done({ kind: 'error', error: SYNTAX }, j);
    if (b[j] === 0x2e && isDigit(b[j + 1])) for (j += 1; isDigit(b[j]);) j++;
    if ((b[j] === 0x65 || b[j] === 0x45) && (isDigit(b[j + 1]) || ((b[j + 1] === 0x2b || b[j + 1] === 0x2d) && isDigit(b[j + 2])))) {
      for (j += b[j + 1] === 0x2b || b[j + 1] === 0x2d ? 2 : 1; isDigit(b[j]);) j++;
    }
    return done({ kind: 'value' }, j);
  }
  if (c === 0x22) {
    for (let j = i + 1; ;) {
      // The end of the body is PHP's terminating NUL: a control character inside a string.
      const d = b[j];
      if (d === undefined || d < 0x20) return done({ kind: 'error', error: CTRL_CHAR }, j);
      if (d === 0x22) return done({ kind: 'string' }, j + 1);
      if (d === 0x5c) {
        const unit = unicodeEscape(b, j);
        if (unit >= 0) {
          const low = unit >= 0xd800 && unit <= 0xdbff ? unicodeEscape(b, j + 6) : -1;
          if (unit < 0xd800 || unit > 0xdfff) j += 6;
          else if (low >= 0xdc00 && low <= 0xdfff) j += 12;
          else return done({ kind: 'error', error: UTF16 }, j);
        } else if (ESCAPES.has(b[j + 1] ?? -1)) j += 2;
        else return done({ kind: 'error', error: SYNTAX }, j);
        continue;
      }
      const n = utf8Length(b, j);
      if (!n) return done({ kind: 'error', error: UTF8 }, j);
      j += n;
    }
  }
  if (c < 0x20) return done({ kind: 'error', error: CTRL_CHAR }, i);
  return done({ kind: 'error', error: utf8Length(b, i) ? SYNTAX : UTF8 }, i);
}

/** What the grammar expects next. */
type Expect = 'value' | 'first-member' | 'colon' | 'member-value' | 'after-member' | 'key' | 'first-element' | 'after-element' | 'end';

/**
 * The error `json_decode` gives for `body`, or `undefined` when PHP decodes it. Linear in the
 * body, with no recursion (a million opening brackets cost a stack of numbers, not frames).
 */
export function phpJsonError(body: Uint8Array | string): PhpJsonError | undefined {
  const b = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  const at = { i: 0 };
  const open: number[] = [];
  let expect: Expect = 'value';
  const closed = (): Expect => (open.length === 0 ? 'end' : open[open.length - 1] === 0x7b ? 'after-member' : 'after-element');
  for (;;) {
    const token = scan(b, at);
    if (token.kind === 'error') return token.error;
    const punct = token.kind === 'punct' ? token.char : -1;
    switch (expect) {
      case 'end':
        if (token.kind === 'end') return undefined;
        return SYNTAX;
      case 'colon':
        if (punct !== 0x3a) return SYNTAX;
        expect = 'member-value';
        continue;
      case 'key':
        if (token.kind !== 'string') return SYNTAX;
        expect = 'colon';
        continue;
      case 'first-member':
      case 'after-member':
        if (punct === 0x7d || punct === 0x5d) {
          if (punct === 0x5d) return STATE_MISMATCH;
          open.pop();
          expect = closed();
        } else if (expect === 'first-member' && token.kind === 'string') expect = 'colon';
        else if (expect === 'after-member' && punct === 0x2c) expect = 'key';
        else return SYNTAX;
        continue;
      case 'first-element':
      case 'after-element':
        if (punct === 0x5d || punct === 0x7d) {
          if (punct === 0x7d) return STATE_MISMATCH;
          open.pop();
          expect = closed();
          continue;
        }
        if (expect === 'after-element') {
          if (punct !== 0x2c) return SYNTAX;
          expect = 'value';
          continue;
        }
        break;
      default:
        break;
    }
    // A value is expected ('value', 'member-value', 'first-element').
    if (punct === 0x7b || punct === 0x5b) {
      // PHP counts from 1 and refuses to open a container at its maximum depth.
      if (open.length + 1 >= MAX_DEPTH) return DEPTH;
      open.push(punct);
      expect = punct === 0x7b ? 'first-member' : 'first-element';
    } else if (token.kind === 'string' || token.kind === 'value') expect = closed();
    else return SYNTAX;
  }
}

/**
 * Whether a body that JSON.parse accepted may still be refused by PHP: bytes that are not
 * UTF-8 (decoded as U+FFFD), a surrogate escape, or enough brackets to pass PHP's depth.
 * Cheap enough for every body; only those it flags are scanned by {@link phpJsonError}.
 */
export function mayFailInPhp(text: string): boolean {
  if (text.includes('\ufffd') || /\\u[dD][89a-fA-F]/.test(text)) return true;
  if (text.length < MAX_DEPTH - 1) return false;
  let brackets = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c === 0x5b || c === 0x7b) && ++brackets >= MAX_DEPTH - 1) return true;
  }
  return false;
}
