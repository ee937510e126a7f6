import { describe, expect, it } from 'vitest';
import { mayFailInPhp, phpJsonError } from '../../src/php/json-errors.js';
import { isPhpNumeric, phpInteger } from '../../src/php/numeric.js';

const bytes = (...parts: (string | number[])[]) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))));
const codeOf = (body: string | Uint8Array) => phpJsonError(body)?.code ?? 0;

describe('phpJsonError: json_decode($body, true) error codes', () => {
  it.each([
    ['{}', 0],
    ['[]', 0],
    [' {"a": [1, -2.5e+3, "x", true, false, null, {}]}\r\n', 0],
    ['"\\ud83d\\ude00 \\u00e9 \\/ \\n"', 0],
    ['1', 0],
    ['"caf\u00e9"', 0],
    // 3: a control character, or the end of the body inside a string
    ['{"title": "broken', 3],
    ['{"a": "b\u0001"}', 3],
    ['{"a": 1}\u0001', 3],
    ['{"a": 1}\u0000', 3],
    ['\u0001', 3],
    // 4: everything the grammar or the scanner refuses otherwise
    ['', 4],
    ['   ', 4],
    ['{"title": 1,}', 4],
    ['{"title": "a"', 4],
    ['{"a" 1}', 4],
    ['{1: 2}', 4],
    ['[1,]', 4],
    ['[1 2]', 4],
    ['{"a":1,]', 4],
    ['{} x', 4],
    ['{}]', 4],
    ['01', 4],
    ['-', 4],
    ['1.', 4],
    ['nul', 4],
    ['True', 4],
    ['"\\x"', 4],
    ['"\\u12"', 4],
    ['"\\', 4],
    ['\ufeff{}', 4],
    ['é', 4],
    // 2: a closing bracket of the other kind
    ['{"a": 1]', 2],
    ['{]', 2],
    ['[1}', 2],
    ['[}', 2],
    // 10: a surrogate escape without its other half
    ['"\\ud800"', 10],
    ['"\\ud800\\u0041"', 10],
    ['"\\udc00"', 10],
    ['"\\uDBFF\\uDBFF"', 10],
  ])('%j → %i', (body, code) => {
    expect(codeOf(body)).toBe(code);
  });

  it('reports bytes that are not UTF-8 as 5, in strings and outside them', () => {
    expect(codeOf(bytes('{"a": "caf', [0xe9], '"}'))).toBe(5);
    expect(codeOf(bytes('"', [0xed, 0xa0, 0x80], '"'))).toBe(5); // an encoded surrogate
    expect(codeOf(bytes('"', [0xc0, 0xaf], '"'))).toBe(5); // an overlong form
    expect(codeOf(bytes([0xff], '{}'))).toBe(5);
    expect(codeOf(bytes('"', [0xf0, 0x9f, 0x98, 0x80], '"'))).toBe(0);
  });

  it('takes the first error from the left', () => {
    expect(codeOf('[1}, "\\ud800"]')).toBe(2);
    expect(codeOf('["\\ud800", 1}')).toBe(10);
    expect(codeOf('{"a": 1,, "b\u0001"}')).toBe(4);
  });

  it('allows 511 nested arrays or objects and refuses 512 (depth 512) with 1', () => {
    expect(codeOf(`${'['.repeat(511)}${']'.repeat(511)}`)).toBe(0);
    expect(codeOf(`${'{"a":'.repeat(510)}[]${'}'.repeat(510)}`)).toBe(0);
    expect(codeOf(`${'['.repeat(512)}${']'.repeat(512)}`)).toBe(1);
    expect(codeOf('['.repeat(1_000_000))).toBe(1);
  });

  it('agrees with JSON.parse on what it accepts', () => {
    const samples = [{ a: [1, 2, { b: 'c\u2028' }] }, [], 'x', 0, -0.5, 1e300, { '': null, é: ['\u0000\u001f'] }];
    for (const value of samples) expect(codeOf(JSON.stringify(value))).toBe(0);
  });

  it('flags for a full scan only bodies JSON.parse may accept wrongly', () => {
    expect(mayFailInPhp('{"a": "b"}')).toBe(false);
    expect(mayFailInPhp('{"a": "\ufffd"}')).toBe(true);
    expect(mayFailInPhp('{"a": "\\uD800"}')).toBe(true);
    expect(mayFailInPhp(`${'['.repeat(510)}${']'.repeat(510)}`)).toBe(false);
    expect(mayFailInPhp(`${'['.repeat(511)}${']'.repeat(511)}`)).toBe(true);
  });
});

describe('PHP numbers', () => {
  it.each([' 1', '1 ', '+1', '1e0', '1.', '.5', '-2', '\t3\n'])('is_numeric(%j)', (text) => expect(isPhpNumeric(text)).toBe(true));
  it.each(['', ' ', '1x', '0x1', '1e', 'e1', '--1', '1 1'])('not is_numeric(%j)', (text) => expect(isPhpNumeric(text)).toBe(false));
  it('reads whole values only', () => {
    expect([' 1', '1e0', '3.0', '+4', -5, 6].map(phpInteger)).toEqual([1, 1, 3, 4, -5, 6]);
    expect(['1.5', 'a', '', '1e400', 2 ** 60, true, null].map(phpInteger)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });
});
