/**
 * Hostile input: every text function must get through 1 MB of adversarial text. No
 * timing assertion — a regex with catastrophic (or merely quadratic) backtracking would
 * need minutes to hours on these inputs, so the test timeout catches it.
 */
import { describe, expect, it } from 'vitest';
import { wpautop } from '../../src/text/autop.js';
import { antispambot, autoExcerpt, escapeJsString, jsonLdDescription, jsonLdName } from '../../src/text/json-ld.js';
import { ksesPost, ksesTitle } from '../../src/text/kses.js';
import { filterForCaller, renderContent, renderExcerpt, renderTitle } from '../../src/text/render.js';
import { convertChars, wptexturize } from '../../src/text/texturize.js';
import { escapeWebsite, isUrlOrEmpty, sanitizeUrl } from '../../src/text/url.js';

const SIZE = 1_000_000;

/** `unit` repeated to 1 MB, plus an optional tail. */
const fill = (unit: string, tail = ''): string => unit.repeat(Math.ceil(SIZE / unit.length)).slice(0, SIZE) + tail;

const HOSTILE: Record<string, string> = {
  'spaces then a letter': fill(' ', 'x'),
  'a space run between letters': `a${fill(' ')}b`,
  'newlines then a letter': fill('\n', 'x'),
  'spaces and newlines': fill(' \n'),
  'mixed white space': fill('\t \v\f\r\n'),
  'NUL characters': fill('\0'),
  'unpaired surrogates': fill('\ud83d'),
  '<': fill('<'),
  '>': fill('>'),
  '<a without >': fill('<a'),
  '<div without > until the end': `${fill('<div')}>`,
  '<p><li': fill('<p><li x'),
  'unclosed <script': fill('<script>x'),
  'unclosed comments': fill('<!--'),
  'unclosed CDATA': fill('<![CDATA['),
  'double quotes': fill('"'),
  'single quotes': fill("'"),
  'quotes and digits': fill(`'9"1' `),
  dashes: fill(' - '),
  ampersands: fill('&'),
  'unterminated references': fill('&#0'),
  'number runs before an x': `${fill('1,')}x`,
  'brackets on one line': `${fill('[a')}\n]`,
  'a tag with many attributes': `<a ${fill('x=y ')}>`,
  'a tag with many valueless attributes': `<img ${fill('x ')}>`,
  'an attribute with an open quote': `<a href="${fill('j')}`,
  'many <pre> elements': fill('<pre>a</pre>\n'),
  '<option> and spaces': `<select><option${fill(' ')}x`,
  '</object> then spaces': `</object>${fill(' ')}x`,
  '<br /> and spaces': fill('<br />  \n'),
  'paragraph tags': fill('<p> '),
  'many elements': fill('<b>x</b>\n'),
  'the live example': fill(`It's -- "q" ... & <b>b</b>\n\n`),
  'XSS vectors': fill('<img src=x onerror=alert(1)><a href="javascript:alert(1)">'),
  'a long URL': `http://${fill('a.')}example`,
  colons: fill(':'),
};

describe.each(Object.entries(HOSTILE))('1 MB of %s', (_name, input) => {
  // The public functions not called here are thin compositions of these
  // (renderTitle = texturize + convertChars, renderExcerpt ≈ renderContent,
  // filterForCaller = KSES, jsonLdName = renderTitle + escapeJsString, autoExcerpt and
  // escapeWebsite are parts of jsonLdDescription/escapeJsString).
  it('goes through every text function', { timeout: 60_000 }, () => {
    const results: unknown[] = [
      wptexturize(input),
      convertChars(input),
      wpautop(input),
      renderContent(input),
      ksesTitle(input),
      jsonLdDescription('', input),
      escapeJsString(input),
      antispambot(input),
      isUrlOrEmpty(input),
      sanitizeUrl(input),
    ];
    for (const result of results) expect(['string', 'boolean']).toContain(typeof result);
    // Whatever survives as markup is harmless (escaped text may still spell "onerror=").
    expect(ksesPost(input)).not.toMatch(/<[^>]*(?:<script|\son[a-z]+=|javascript:)/i);
  });
});

describe('the thin wrappers on 1 MB', () => {
  it('return', { timeout: 60_000 }, () => {
    const input = HOSTILE['the live example'];
    for (const result of [
      renderTitle(input),
      renderExcerpt(input),
      filterForCaller(input, false, 'title'),
      filterForCaller(input, false, 'content'),
      jsonLdName(input),
      jsonLdDescription(input, ''),
      autoExcerpt(input),
      escapeWebsite(input),
    ]) {
      expect(typeof result).toBe('string');
    }
  });
});
