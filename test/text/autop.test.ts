import { describe, expect, it } from 'vitest';
import { wpautop } from '../../src/text/autop.js';

/** `the_content` output is trimmed, and so are most expectations below. */
const autop = (text: string): string => wpautop(text).trim();

describe('wpautop', () => {
  it('reproduces the live examples of responses.md §1.6', () => {
    expect(autop('Line one\nline two\n\nPara two')).toBe('<p>Line one<br />\nline two</p>\n<p>Para two</p>');
    expect(autop('Event 01 description')).toBe('<p>Event 01 description</p>');
    expect(autop('a\n\nb')).toBe('<p>a</p>\n<p>b</p>');
  });

  it('returns the exact upstream string, with its trailing newline', () => {
    expect(wpautop('X')).toBe('<p>X</p>\n');
    expect(wpautop('a\n\nb')).toBe('<p>a</p>\n<p>b</p>\n');
  });

  it('returns "" for empty and white-space-only text', () => {
    expect(wpautop('')).toBe('');
    expect(wpautop(' \n\t\r\n ')).toBe('');
  });

  it('folds runs of blank lines and normalises CRLF', () => {
    expect(autop('a\r\n\r\n\r\n\r\nb\rc')).toBe('<p>a</p>\n<p>b<br />\nc</p>');
    expect(autop('a\n \n\t\nb')).toBe('<p>a</p>\n<p>b</p>');
  });

  it('does not add a <br /> after an existing one', () => {
    expect(autop('line 1<br>\nline 2<br/>\nline 3<br />\nline 4\nline 5')).toBe(
      '<p>line 1<br />\nline 2<br />\nline 3<br />\nline 4<br />\nline 5</p>',
    );
  });

  it('turns two <br>s into a paragraph break', () => {
    expect(autop('line 1<br>\n<br>\nline 2<br/>\n<br/>\nline 3')).toBe('<p>line 1</p>\n<p>line 2</p>\n<p>line 3</p>');
  });

  it.each(['div', 'table', 'ul', 'ol', 'blockquote', 'h2', 'section', 'pre', 'figure', 'address', 'p'])(
    'does not wrap a <%s> block in a paragraph',
    (block) => {
      expect(autop(`<${block}>foo</${block}>`)).toBe(block === 'blockquote' ? '<blockquote><p>foo</p></blockquote>' : `<${block}>foo</${block}>`);
    },
  );

  it('wraps inline elements', () => {
    expect(autop('<span>foo</span>')).toBe('<p><span>foo</span></p>');
    expect(autop('<b>bold</b> and <em>em</em>')).toBe('<p><b>bold</b> and <em>em</em></p>');
  });

  it('separates text from following blocks and paragraphs', () => {
    expect(autop('a<div>b</div>')).toBe('<p>a</p>\n<div>b</div>');
    expect(autop('alert(1)<p>ok</p>')).toBe('<p>alert(1)</p>\n<p>ok</p>');
    expect(autop('paragraph1<hr>paragraph2')).toBe('<p>paragraph1</p>\n<hr>\n<p>paragraph2</p>');
    // Upstream quirks, traced step by step through the PHP: the first paragraph inside a
    // <div> loses its <p>.
    expect(autop('<div>a\n\nb</div>')).toBe('<div>a</p>\n<p>b</p></div>');
    expect(autop('<div>\na\n\nb\n</div>')).toBe('<div>\na</p>\n<p>b\n</p></div>');
    expect(autop('<div>foo</div>')).toBe('<div>foo</div>');
  });

  it('handles lists', () => {
    expect(autop('<ul>\n<li>a</li>\n<li>b</li>\n</ul>')).toBe('<ul>\n<li>a</li>\n<li>b</li>\n</ul>');
    expect(autop('Intro\n<ul><li>a</li></ul>')).toBe('<p>Intro</p>\n<ul>\n<li>a</li>\n</ul>');
  });

  it('keeps <pre> contents untouched', () => {
    const pre = '<pre>line 1\n\nline 2\n  indented</pre>';
    expect(autop(`Before\n\n${pre}\n\nAfter`)).toBe(`<p>Before</p>\n${pre}\n<p>After</p>`);
    expect(autop('<pre>a\nb</pre><pre>c\n\nd</pre>')).toBe('<pre>a\nb</pre>\n<pre>c\n\nd</pre>');
  });

  it('keeps newlines inside tags, comments, script and style', () => {
    expect(wpautop("Hello <a\nhref='world'>")).toBe("<p>Hello <a\nhref='world'></p>\n");
    expect(wpautop("Hello <!-- a\nhref='world' -->")).toBe("<p>Hello <!-- a\nhref='world' --></p>\n");
    expect(autop('<script>\nvar a = 1;\nvar b = 2;\n</script>')).toBe('<p><script>\nvar a = 1;\nvar b = 2;\n</script></p>');
    const svg = '<svg xmlns="http://www.w3.org/2000/svg">\n<circle cx="50" cy="50" r="40" />\n</svg>';
    expect(autop(svg)).toBe(`<p>${svg}</p>`);
  });

  it('keeps a figure with its caption together', () => {
    const figure = '<figure><img src="example.jpg" /><figcaption>Caption</figcaption></figure>';
    expect(autop(figure)).toBe(figure);
  });

  it('does not break around <option>', () => {
    expect(autop('<select>\n<option>a</option>\n<option>b</option>\n</select>')).toBe(
      '<p><select><option>a</option><option>b</option></select></p>',
    );
  });

  it('leaves texturized entities and odd characters alone', () => {
    expect(autop('It&#8217;s &#8212; 🎉\nÉté')).toBe('<p>It&#8217;s &#8212; 🎉<br />\nÉté</p>');
    expect(autop('a\0b\n\nc')).toBe('<p>a\0b</p>\n<p>c</p>');
    // NBSP is not white space to upstream (PCRE without Unicode).
    expect(autop('a\u00a0\nb')).toBe('<p>a\u00a0<br />\nb</p>');
  });

  it('can leave single newlines alone', () => {
    expect(wpautop('a\nb\n\nc', false)).toBe('<p>a\nb</p>\n<p>c</p>\n');
  });
});
