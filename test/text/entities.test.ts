import { describe, expect, it } from 'vitest';
import { convertInvalidEntities, decodeNormalizedEntities, escapeHtml, normalizeEntities } from '../../src/text/entities.js';
import { splitHtml } from '../../src/text/html-split.js';
import { phpAddslashes, phpStripslashes, phpTrim } from '../../src/php/string.js';

describe('normalizeEntities (wp_kses_normalize_entities)', () => {
  it.each([
    ['A & B', 'A &amp; B'],
    ['&amp; &lt; &hellip; &eacute; &apos;', '&amp; &lt; &hellip; &eacute; &apos;'],
    ['&foo; &colon; &NewLine;', '&amp;foo; &amp;colon; &amp;NewLine;'],
    ['&#58; &#0058; &#8217;', '&#058; &#058; &#8217;'],
    ['&#x3a; &#x003A; &#X3A;', '&#x3a; &#x3A; &#x3A;'],
    ['&#0; &#1; &#xFFFE; &#99999999;', '&amp;#0; &amp;#1; &amp;#xFFFE; &amp;#99999999;'],
    ['&#58 no semicolon', '&amp;#58 no semicolon'],
    ['no ampersand', 'no ampersand'],
  ])('%j → %j', (input, expected) => {
    expect(normalizeEntities(input)).toBe(expected);
  });
});

describe('escapeHtml (_wp_specialchars)', () => {
  it('escapes without double-encoding', () => {
    expect(escapeHtml(`<a href="x">'&amp;'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#039;&amp;&#039;&lt;/a&gt;');
    expect(escapeHtml(`"x" 'y'`, 'double')).toBe(`&quot;x&quot; 'y'`);
    expect(escapeHtml(`"x" 'y' <`, 'none')).toBe(`"x" 'y' &lt;`);
    expect(escapeHtml('plain')).toBe('plain');
  });
});

describe('decodeNormalizedEntities', () => {
  it('decodes numeric references and the ASCII named ones', () => {
    expect(decodeNormalizedEntities('&#106;&#x61;&amp;&lt;&gt;&quot;&apos;&#058;')).toBe(`ja&<>"':`);
    expect(decodeNormalizedEntities('&hellip;&unknown;')).toBe('\ufffd&unknown;');
  });
});

describe('convertInvalidEntities', () => {
  it('maps Windows-1252 references', () => {
    expect(convertInvalidEntities('&#128; &#150; &#151; &#153; &#129; &#160; &#1500;')).toBe('&#8364; &#8211; &#8212; &#8482;  &#160; &#1500;');
  });
});

describe('splitHtml', () => {
  it('alternates text and tag pieces', () => {
    expect(splitHtml('a<b>c</b>d')).toEqual(['a', '<b>', 'c', '</b>', 'd']);
    expect(splitHtml('<b>')).toEqual(['', '<b>', '']);
    expect(splitHtml('plain')).toEqual(['plain']);
  });

  it('runs comments to -->, and a stray < to the end', () => {
    expect(splitHtml('a<!-- <b> -->c')).toEqual(['a', '<!-- <b> -->', 'c']);
    expect(splitHtml('a<!-->b')).toEqual(['a', '<!-->', 'b']);
    expect(splitHtml('a<!-- open')).toEqual(['a', '<!-- open', '']);
    expect(splitHtml('5 < 6 and 7')).toEqual(['5 ', '< 6 and 7', '']);
  });

  it('handles CDATA only when asked', () => {
    expect(splitHtml('<![CDATA[a>b]]>c', { cdata: true })).toEqual(['', '<![CDATA[a>b]]>', 'c']);
    expect(splitHtml('<![CDATA[a>b]]>c')).toEqual(['', '<![CDATA[a>', 'b]]>c']);
  });
});

describe('PHP string helpers', () => {
  it('trims only PHP white space', () => {
    expect(phpTrim(' \t\n\r\0\x0Bx \u00a0')).toBe('x \u00a0');
    expect(phpTrim('')).toBe('');
  });

  it('strips and adds slashes like PHP', () => {
    expect(phpStripslashes("a\\'b\\\\c\\0d\\")).toBe("a'b\\c\0d");
    expect(phpAddslashes(`a'b"c\\d\0e`)).toBe(`a\\'b\\"c\\\\d\\0e`);
  });
});
