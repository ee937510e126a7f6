import { describe, expect, it } from 'vitest';
import { convertChars, wptexturize } from '../../src/text/texturize.js';

describe('wptexturize', () => {
  it('reproduces the live example of responses.md §1.6', () => {
    expect(wptexturize(`It's -- "q" ... & <b>b</b>`)).toBe('It&#8217;s &#8212; &#8220;q&#8221; &#8230; &#038; <b>b</b>');
  });

  it('leaves plain words and the empty string unchanged', () => {
    expect(wptexturize('Event 01')).toBe('Event 01');
    expect(wptexturize('Spring Concert')).toBe('Spring Concert');
    expect(wptexturize('')).toBe('');
  });

  it.each([
    ["don't", 'don&#8217;t'],
    ["'quoted'", '&#8216;quoted&#8217;'],
    ["say 'hi' now", 'say &#8216;hi&#8217; now'],
    ["the 90's", 'the 90&#8217;s'],
    ["back in '99", 'back in &#8217;99'],
    ["'99 was good", '&#8217;99 was good'],
    ["'tis the season", '&#8217;tis the season'],
    ["rock 'n' roll 'em", 'rock &#8216;n&#8217; roll &#8217;em'],
    ["a '0.42' b", 'a &#8216;0.42&#8217; b'],
    ["9' tall", '9&#8242; tall'],
  ])('single quotes: %j', (input, expected) => {
    expect(wptexturize(input)).toBe(expected);
  });

  it.each([
    ['"Quoted String"', '&#8220;Quoted String&#8221;'],
    ['He said "hi".', 'He said &#8220;hi&#8221;.'],
    ['a "42" b', 'a &#8220;42&#8221; b'],
    ['a 10" screen', 'a 10&#8243; screen'],
    ['(“x”) ("y")', '(“x”) (&#8220;y&#8221;)'],
    ["``old style''", '&#8220;old style&#8221;'],
    ['Here is "<a href="http://example.com">a link</a>" and a space.', 'Here is &#8220;<a href="http://example.com">a link</a>&#8221; and a space.'],
  ])('double quotes: %j', (input, expected) => {
    expect(wptexturize(input)).toBe(expected);
  });

  it.each([
    ['a -- b', 'a &#8212; b'],
    ['a--b', 'a&#8211;b'],
    ['a---b', 'a&#8212;b'],
    ['a - b', 'a &#8211; b'],
    ['2010-2011', '2010-2011'],
    ['xn--bcher-kva.example', 'xn--bcher-kva.example'],
    ['-- leading', '&#8212; leading'],
  ])('dashes: %j', (input, expected) => {
    expect(wptexturize(input)).toBe(expected);
  });

  it.each([
    ['Wait...', 'Wait&#8230;'],
    ['Brand (tm)', 'Brand &#8482;'],
    ['(c) and (r) stay', '(c) and (r) stay'],
    ['9x9', '9&#215;9'],
    ['1.5x2.5 m', '1.5&#215;2.5 m'],
    ['0x70 stays hex', '0x70 stays hex'],
    ['1x2x3', '1x2x3'],
    ['a9x9', 'a9x9'],
    ['10,5x3', '10,5&#215;3'],
  ])('ellipsis, trademark, times: %j', (input, expected) => {
    expect(wptexturize(input)).toBe(expected);
  });

  it.each([
    ['A & B', 'A &#038; B'],
    ['A &amp; B', 'A &amp; B'],
    ['&#8217; &#x2019; &hellip;', '&#8217; &#x2019; &hellip;'],
    ['AT&T', 'AT&#038;T'],
    ['<a href="?a=1&b=2">x</a>', '<a href="?a=1&#038;b=2">x</a>'],
  ])('ampersands (also inside tags): %j', (input, expected) => {
    expect(wptexturize(input)).toBe(expected);
  });

  it('never changes tag contents other than ampersands, nor comments', () => {
    expect(wptexturize(`<a title="it's -- 'x'">it's</a>`)).toBe(`<a title="it's -- 'x'">it&#8217;s</a>`);
    expect(wptexturize(`<!-- it's -- "x" -->`)).toBe(`<!-- it's -- "x" -->`);
  });

  it.each(['pre', 'code', 'kbd', 'style', 'script', 'tt'])('skips the contents of <%s>', (tag) => {
    const input = `"a" <${tag}>it's -- "x" ...</${tag}> "b"`;
    expect(wptexturize(input)).toBe(`&#8220;a&#8221; <${tag}>it's -- "x" ...</${tag}> &#8220;b&#8221;`);
  });

  it('keeps skipping until the matching closing tag, even across other tags', () => {
    expect(wptexturize(`<pre>it's</code>"baba"</pre>it's`)).toBe(`<pre>it's</code>"baba"</pre>it&#8217;s`);
    expect(wptexturize(`<code class="php">'x'</code>'y'`)).toBe(`<code class="php">'x'</code>&#8216;y&#8217;`);
  });

  it('treats a stray < as the start of a tag running to the end (upstream quirk)', () => {
    expect(wptexturize(`5 < 6 and "q"`)).toBe(`5 < 6 and "q"`);
  });

  it('handles odd Unicode and NUL characters without losing them', () => {
    expect(wptexturize('Été à "Zürich" 🎉')).toBe('Été à &#8220;Zürich&#8221; 🎉');
    expect(wptexturize("a\0b's")).toBe('a\0b&#8217;s');
    expect(wptexturize('\ud800 lone -- surrogate')).toBe('\ud800 lone &#8212; surrogate');
    expect(wptexturize('nbsp\u00a0--\u00a0dash')).toBe('nbsp\u00a0&#8212;\u00a0dash');
  });
});

describe('convertChars', () => {
  it('turns a bare & into &#038; and keeps references', () => {
    expect(convertChars('A & B')).toBe('A &#038; B');
    expect(convertChars('&amp; &#038; &hellip;')).toBe('&amp; &#038; &hellip;');
    expect(convertChars('no ampersand')).toBe('no ampersand');
    expect(convertChars('ends with &')).toBe('ends with &');
  });
});
