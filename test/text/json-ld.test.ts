import { describe, expect, it } from 'vitest';
import { antispambot, autoExcerpt, escapeJsString, jsonLdDescription, jsonLdName } from '../../src/text/json-ld.js';

/** Decodes the decimal references `antispambot` produces. */
const decode = (text: string): string => text.replace(/&#(\d+);/g, (_m, cp: string) => String.fromCodePoint(Number(cp)));

describe('escapeJsString', () => {
  it('entity-escapes < > " and writes newlines as a literal backslash + n', () => {
    expect(escapeJsString('<p>An evening of chamber music.</p>\n')).toBe('&lt;p&gt;An evening of chamber music.&lt;/p&gt;\\n');
    expect(escapeJsString('say "hi"')).toBe('say &quot;hi&quot;');
  });

  it('keeps references, normalises bare ampersands, drops CR', () => {
    expect(escapeJsString('X &#8220;q&#8221; &#038; A & B')).toBe('X &#8220;q&#8221; &#038; A &amp; B');
    expect(escapeJsString('a\r\nb')).toBe('a\\nb');
  });

  it("backslash-escapes single quotes (also written as references) and handles backslashes like PHP's stripslashes/addslashes", () => {
    expect(escapeJsString("Don't")).toBe("Don\\'t");
    expect(escapeJsString('it&#039;s &#39; &#x27;')).toBe("it\\'s \\' \\'");
    expect(escapeJsString('a\\b')).toBe('ab');
    expect(escapeJsString('a\\\\b')).toBe('a\\\\b');
  });

  it('returns "" for "" and for text with unpaired surrogates (invalid UTF-8 upstream)', () => {
    expect(escapeJsString('')).toBe('');
    expect(escapeJsString('bad \ud800 text')).toBe('');
    expect(escapeJsString('ok 🎉 Été')).toBe('ok 🎉 Été');
  });

  it('escapes NUL as PHP addslashes does', () => {
    expect(escapeJsString('a\0b')).toBe('a\\0b');
  });
});

describe('jsonLdName', () => {
  it('reproduces the live examples of responses.md §6 and §2.5', () => {
    expect(jsonLdName('X "quoted" & <x>')).toBe('X &#8220;quoted&#8221; &#038; &lt;x&gt;');
    expect(jsonLdName('Spring Concert')).toBe('Spring Concert');
  });
});

describe('jsonLdDescription', () => {
  it('reproduces the live examples of responses.md §6 and §2.5', () => {
    const fromContent = jsonLdDescription('', 'An evening of chamber music.');
    expect(fromContent).toBe('&lt;p&gt;An evening of chamber music.&lt;/p&gt;\\n');
    // In JSON: the string ends with an escaped backslash followed by n.
    expect(JSON.stringify(fromContent)).toBe('"&lt;p&gt;An evening of chamber music.&lt;/p&gt;\\\\n"');
    expect(jsonLdDescription('My "excerpt" <b>bold</b>', 'ignored content')).toBe('&lt;p&gt;My &quot;excerpt&quot; &lt;b&gt;bold&lt;/b&gt;&lt;/p&gt;\\n');
    expect(jsonLdDescription('', '')).toBe('');
  });

  it('cuts long content to 30 words followed by [&hellip;]', () => {
    const words = Array.from({ length: 70 }, (_, i) => `word${i + 1}`);
    expect(jsonLdDescription('', words.join(' '))).toBe(`&lt;p&gt;${words.slice(0, 30).join(' ')} [&hellip;]&lt;/p&gt;\\n`);
  });

  it('does not cut a stored excerpt', () => {
    const words = Array.from({ length: 40 }, (_, i) => `w${i}`).join(' ');
    expect(jsonLdDescription(words, '')).toBe(`&lt;p&gt;${words}&lt;/p&gt;\\n`);
  });

  it('treats "0" as no excerpt (PHP empty)', () => {
    expect(jsonLdDescription('0', 'Body')).toBe('&lt;p&gt;Body&lt;/p&gt;\\n');
  });

  it('keeps paragraphs of a multi-paragraph excerpt, and filters its HTML', () => {
    expect(jsonLdDescription('a\n\nb <script>x</script>', '')).toBe('&lt;p&gt;a&lt;/p&gt;\\n&lt;p&gt;b x&lt;/p&gt;\\n');
  });
});

describe('autoExcerpt', () => {
  it('returns short text unchanged, with white space folded', () => {
    expect(autoExcerpt('An evening of chamber music.')).toBe('An evening of chamber music.');
    expect(autoExcerpt('  a \n\n b\t c ')).toBe('a b c');
    expect(autoExcerpt('')).toBe('');
  });

  it('strips tags and bracketed shortcodes', () => {
    expect(autoExcerpt('<p>Hello <b>bold</b> [gallery ids="1,2"] world</p><script>x()</script>')).toBe('Hello bold worldx()');
    expect(autoExcerpt('[caption]A[/caption] after')).toBe('A after');
    expect(autoExcerpt('[ not closed\n] on this line')).toBe('[ not closed ] on this line');
  });

  it('cuts at the given word count', () => {
    expect(autoExcerpt('one two three four', 3)).toBe('one two three [&hellip;]');
    expect(autoExcerpt('one two three', 3)).toBe('one two three');
  });

  it('keeps odd Unicode', () => {
    expect(autoExcerpt('Été à Zürich 🎉')).toBe('Été à Zürich 🎉');
  });
});

describe('antispambot', () => {
  it('always decodes back to the address and always encodes @', () => {
    for (const email of ['info@arts.example', 'a.b+c@d-e.example', 'ünï@example.org', '🎉@x.example']) {
      for (let i = 0; i < 20; i++) {
        const obfuscated = antispambot(email);
        expect(decode(obfuscated)).toBe(email);
        expect(obfuscated).not.toContain('@');
        expect(obfuscated).toContain('&#64;');
      }
    }
  });

  it('encodes each character or keeps it, as the random source says', () => {
    expect(antispambot('ab@c', () => 0)).toBe('&#97;&#98;&#64;&#99;');
    expect(antispambot('ab@c', () => 0.9)).toBe('ab&#64;c');
    expect(antispambot('')).toBe('');
  });
});
