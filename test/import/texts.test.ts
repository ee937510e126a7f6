import { describe, expect, it } from 'vitest';
import { storedText, withoutAddedParagraphs } from '../../src/import/texts.js';
import { filterForCaller, renderContent, renderExcerpt } from '../../src/text/render.js';

// Issue 29, item 1: a description or excerpt the source shows rendered is stored so that it
// renders the same here, although wpautop over its own output is not always its output.

const TEXTS = [
  'Plain text',
  'a\nb\n\nc<br>d',
  '<blockquote>Quote</blockquote>',
  '<blockquote>Line one\n\nLine two</blockquote>',
  '<blockquote><p>Already</p></blockquote>',
  '<div>x\n\ny</div>',
  'Intro\n<div class="note">Body</div>\nAfter',
  '<ul>\n<li>a</li>\n</ul>\n<blockquote>q</blockquote>\ntext',
  '<table><tr><td>a\n\nb</td></tr></table>',
  '<p class="x">Para</p>\n<blockquote cite="y">Quote</blockquote>',
  '<blockquote>Q <em>e</em>\nline</blockquote>\n\n<div>\n<blockquote>deep</blockquote>\n</div>',
  '<pre>a\n\n<p>b</p></pre><blockquote>x</blockquote>',
  '<blockquote>x</blockquote>\n<pre>  keep\n    spaces -- "as is"</pre>\n[gallery ids="1,2"] 5 > 3 < 4',
];

describe('storedText', () => {
  it.each(TEXTS)('%j, rendered by the source, renders the same here', (raw) => {
    for (const [field, render] of [
      ['content', renderContent],
      ['excerpt', renderExcerpt],
    ] as const) {
      const shown = render(filterForCaller(raw, false, field));
      expect(render(storedText(shown, field)), field).toBe(shown);
    }
  });

  it('stores a text as shown when it renders to itself', () => {
    const shown = renderContent('Intro\n\n<ul><li>a</li></ul>');
    expect(storedText(shown, 'content')).toBe(shown);
  });

  it('takes out the paragraphs wpautop added, but not in <pre> blocks', () => {
    expect(withoutAddedParagraphs('<blockquote><p>a</p>\n<p>b</p></blockquote>\n<pre><p>kept</p>\n</pre><p>c</p>')).toBe(
      '<blockquote>a\n\nb</blockquote>\n<pre><p>kept</p>\n</pre>c',
    );
  });
});
