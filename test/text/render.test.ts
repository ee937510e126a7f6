import { describe, expect, it } from 'vitest';
import { BoundedCache } from '../../src/cache/bounded-cache.js';
import { filterForCaller, MEMO_BOUNDS, renderContent, renderExcerpt, renderTitle } from '../../src/text/render.js';

describe('renderTitle', () => {
  it('reproduces the live examples of responses.md §1.6', () => {
    expect(renderTitle(`It's -- "q" ... & <b>b</b>`)).toBe('It&#8217;s &#8212; &#8220;q&#8221; &#8230; &#038; <b>b</b>');
    expect(renderTitle('Event 01')).toBe('Event 01');
    expect(renderTitle('Spring Concert')).toBe('Spring Concert');
  });

  it('trims like PHP (ASCII white space only) and converts stray ampersands', () => {
    expect(renderTitle('  \t Title \n')).toBe('Title');
    expect(renderTitle('\u00a0Title\u00a0')).toBe('\u00a0Title\u00a0');
    expect(renderTitle('<code>a&b</code>')).toBe('<code>a&#038;b</code>');
    expect(renderTitle('')).toBe('');
  });

  it('applies capital_P_dangit', () => {
    expect(renderTitle('Wordpress meetup')).toBe('WordPress meetup');
  });
});

describe('renderContent', () => {
  it('reproduces the live examples of responses.md §1.6 and §2.5', () => {
    expect(renderContent('Line one\nline two\n\nPara two')).toBe('<p>Line one<br />\nline two</p>\n<p>Para two</p>');
    expect(renderContent('Event 01 description')).toBe('<p>Event 01 description</p>');
    expect(renderContent('An evening of chamber music.')).toBe('<p>An evening of chamber music.</p>');
    expect(renderContent('a\n\nb')).toBe('<p>a</p>\n<p>b</p>');
  });

  it('returns "" for empty or blank content', () => {
    expect(renderContent('')).toBe('');
    expect(renderContent('  \n\n ')).toBe('');
  });

  it('texturizes before adding paragraphs', () => {
    expect(renderContent(`It's "here" -- now...\n\nA & B`)).toBe('<p>It&#8217;s &#8220;here&#8221; &#8212; now&#8230;</p>\n<p>A &#038; B</p>');
  });

  it('applies the judicious capital_P_dangit', () => {
    expect(renderContent('I like Wordpress (Wordpress) but not xWordpress')).toBe('<p>I like WordPress (WordPress) but not xWordpress</p>');
  });

  it('renders what a contributor stored (live example)', () => {
    const stored = filterForCaller('<script>alert(1)</script><p>ok</p>', false, 'content');
    expect(renderContent(stored)).toBe('<p>alert(1)</p>\n<p>ok</p>');
  });

  it('renders a block tag whose attributes span lines as the original (issue 29, measured)', () => {
    const description = 'Intro line\n<div\n  class="note"\n  id="n1">Body</div>\nAfter';
    // Stored as sent by a caller with unfiltered_html; KSES rebuilds the tag on one line for others.
    expect(renderContent(filterForCaller(description, true, 'content'))).toBe('<p>Intro line</p>\n<div\n  class="note"\n  id="n1">Body</div>\n<p>After</p>');
    expect(renderContent(filterForCaller(description, false, 'content'))).toBe('<p>Intro line</p>\n<div class="note" id="n1">Body</div>\n<p>After</p>');
  });
});

describe('renderExcerpt', () => {
  it('reproduces the live examples of responses.md §1.6', () => {
    expect(renderExcerpt('Event 01 excerpt')).toBe('<p>Event 01 excerpt</p>');
    expect(renderExcerpt('')).toBe('');
  });

  it('texturizes and converts characters', () => {
    expect(renderExcerpt(`"Short" & sweet`)).toBe('<p>&#8220;Short&#8221; &#038; sweet</p>');
  });
});

describe('filterForCaller', () => {
  it('keeps everything for callers with unfiltered_html, trimming titles', () => {
    expect(filterForCaller('  x <script>x</script><b>b</b> ', true, 'title')).toBe('x <script>x</script><b>b</b>');
    expect(filterForCaller('<script>alert(1)</script><p>ok</p>', true, 'content')).toBe('<script>alert(1)</script><p>ok</p>');
    expect(filterForCaller(' <iframe></iframe> ', true, 'excerpt')).toBe(' <iframe></iframe> ');
  });

  it('reproduces the contributor examples of responses.md §1.6', () => {
    expect(filterForCaller('x <script>x</script><b>b</b>', false, 'title')).toBe('x x<b>b</b>');
    expect(filterForCaller('<script>alert(1)</script><p>ok</p>', false, 'content')).toBe('alert(1)<p>ok</p>');
  });

  it('filters titles with the small allow-list and content/excerpts with the post one', () => {
    expect(filterForCaller('<p>Title</p>', false, 'title')).toBe('Title');
    expect(filterForCaller('<p class="x" onclick="y">Body</p>', false, 'content')).toBe('<p class="x">Body</p>');
    expect(filterForCaller('<img src=x onerror=alert(1)>', false, 'excerpt')).toBe('<img src="x">');
  });

  it('trims the title before filtering it, as title_save_pre does', () => {
    expect(filterForCaller('  Title <script></script> ', false, 'title')).toBe('Title ');
  });

  it('converts Windows-1252 references in content for every caller', () => {
    expect(filterForCaller('a &#150; b &#129;', true, 'content')).toBe('a &#8211; b ');
    expect(filterForCaller('a &#150; b', false, 'excerpt')).toBe('a &#8211; b');
  });

  it('keeps odd Unicode and drops NUL for filtered callers', () => {
    expect(filterForCaller('Été\u0000 🎉', false, 'title')).toBe('Été 🎉');
    expect(filterForCaller('Été\u0000 🎉', true, 'title')).toBe('Été\u0000 🎉');
  });
});

describe('the text memos', () => {
  it('keep 500 short texts, and long ones within 4 million characters', () => {
    const memo = new BoundedCache<string, string>(MEMO_BOUNDS);
    const short = Array.from({ length: 501 }, (_, i) => `Title ${i}`);
    for (const raw of short) memo.set(raw, renderTitle(raw));
    expect(short.filter((raw) => memo.peek(raw) !== undefined)).toHaveLength(500);
    // Texts of the longest size memoised (20,000 characters), rendered about as long.
    const long = Array.from({ length: 300 }, (_, i) => `${i} `.padEnd(20_000, 'x'));
    for (const raw of long) memo.set(raw, raw);
    expect(long.filter((raw) => memo.peek(raw) !== undefined)).toHaveLength(100);
  });
});
