import { type DefaultTreeAdapterTypes, parseFragment } from 'parse5';
import { describe, expect, it } from 'vitest';
import { type AllowedHtml, POST_ALLOWED_HTML, TITLE_ALLOWED_HTML, URL_ATTRIBUTES } from '../../src/text/kses-allowed.js';
import { ksesPost, ksesTitle } from '../../src/text/kses.js';
import { ALLOWED_PROTOCOLS } from '../../src/text/url.js';

type ParsedNode = DefaultTreeAdapterTypes.ChildNode | DefaultTreeAdapterTypes.DocumentFragment;

/**
 * What a browser would build from `html` (parse5 is a spec-compliant HTML parser), checked
 * independently of the filter's own parsing: only allow-listed elements and attributes,
 * no comments, URL attributes with an allowed scheme or none.
 */
function violations(html: string, allowed: AllowedHtml): string[] {
  const problems: string[] = [];
  const visit = (node: ParsedNode): void => {
    if (node.nodeName === '#comment') problems.push('comment');
    if ('tagName' in node) {
      const attributes = allowed.get(node.tagName);
      if (attributes === undefined) problems.push(`element <${node.tagName}>`);
      for (const { name, value } of node.attrs) {
        if (attributes === undefined || !attributes.has(name)) problems.push(`attribute ${name} on <${node.tagName}>`);
        if (URL_ATTRIBUTES.has(name)) {
          // The URL parser skips leading controls/spaces and ignores tabs and newlines.
          const url = value.replace(/^[\x00-\x20]+/, '').replace(/[\t\n\r]/g, '');
          const scheme = /^([^:/?#]*):/.exec(url)?.[1];
          if (scheme !== undefined && !ALLOWED_PROTOCOLS.has(scheme.toLowerCase())) problems.push(`${name}="${value}"`);
        }
      }
      if ('content' in node) visit(node.content);
    }
    if ('childNodes' in node) for (const child of node.childNodes) visit(child);
  };
  visit(parseFragment(html));
  return problems;
}

const XSS_VECTORS: readonly string[] = [
  '<script>alert(1)</script>',
  '<SCRIPT SRC=http://xss.example/xss.js></SCRIPT>',
  '<img src=x onerror=alert(1)>',
  '<img src="x" onerror="alert(1)"',
  '<IMG SRC=JaVaScRiPt:alert(1)>',
  '<IMG SRC=`javascript:alert(1)`>',
  '<IMG """><SCRIPT>alert(1)</SCRIPT>">',
  '<IMG SRC=# onmouseover="alert(1)">',
  '<IMG SRC= onmouseover="alert(1)">',
  '<img src=x:alert(alt) onerror=eval(src) alt=0>',
  '<a href="javascript:alert(1)">x</a>',
  "<a href='javascript:alert(1)'>x</a>",
  '<a href=javascript:alert(1)>x</a>',
  '<a href="JaVaScRiPt:alert(1)">x</a>',
  '<a href=" javascript:alert(1)">x</a>',
  '<a href="\u0001javascript:alert(1)">x</a>',
  '<a href="java\nscript:alert(1)">x</a>',
  '<a href="java\tscript:alert(1)">x</a>',
  '<a href="jav&#x09;ascript:alert(1)">x</a>',
  '<a href="jav&#x0A;ascript:alert(1)">x</a>',
  '<a href="jav&#13;ascript:alert(1)">x</a>',
  '<a href="&#106;avascript:alert(1)">x</a>',
  '<a href="javas&#99;ript:alert(1)">x</a>',
  '<a href="javascript&#58;alert(1)">x</a>',
  '<a href="javascript&#x3A;alert(1)">x</a>',
  '<a href="javascript&#x003A;alert(1)">x</a>',
  '<a href="javascript&colon;alert(1)">x</a>',
  '<a href="java&NewLine;script:alert(1)">x</a>',
  '<a href="&Tab;javascript:alert(1)">x</a>',
  '<a href="&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058alert(1)">x</a>',
  '<a href="&#x6A&#x61&#x76&#x61&#x73&#x63&#x72&#x69&#x70&#x74&#x3A alert(1)">x</a>',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>',
  '<img src="data:image/svg+xml,<svg onload=alert(1)>">',
  '<a href="vbscript:msgbox(1)">x</a>',
  '<blockquote cite="javascript:alert(1)">q</blockquote>',
  '<a title="x" onmouseover="alert(1)">x</a>',
  '<a onmouseover=alert(1)//',
  '<a/onmouseover=alert(1)>x</a>',
  '<a\tonmouseover=alert(1)>x</a>',
  `<a title='a"onmouseover=alert(1)'>x</a>`,
  `<a title="a'onmouseover=alert(1)">x</a>`,
  '<a title=a"onmouseover=alert(1)>x</a>',
  '<a href="x"onclick=alert(1)>x</a>',
  "<a href='x'onclick=alert(1)>x</a>",
  '<a href=x`onclick=alert(1)`>x</a>',
  '<a href="x" """ onclick=alert(1)>x</a>',
  '<a href=\\"javascript:alert(1)\\">x</a>',
  '<svg onload=alert(1)>',
  '<svg/onload=alert(1)>',
  '<svg><script>alert(1)</script></svg>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  '<scr<script>ipt>alert(1)</script>',
  '<<SCRIPT>alert(1);//<</SCRIPT>',
  '<SCRIPT SRC=http://xss.example/xss.js?< B >',
  '<iframe src=http://xss.example/scriptlet.html <',
  '<iframe src="javascript:alert(1)"></iframe>',
  '<object data="javascript:alert(1)"></object>',
  '<embed src="javascript:alert(1)">',
  '<form action="javascript:alert(1)"><input type="submit"><button formaction="javascript:alert(1)">x</button></form>',
  '<input autofocus onfocus=alert(1)>',
  '<details open ontoggle=alert(1)>x</details>',
  '<video><source onerror=alert(1)></video>',
  '<body onload=alert(1)>',
  '<BODY onload!#$%&()*~+-_.,:;?@[/|\\]^`=alert(1)>',
  '<base href="javascript:alert(1)//">',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<link rel="stylesheet" href="javascript:alert(1)">',
  '<div style="width: expression(alert(1));">x</div>',
  '<a href="http://x" style="background:url(javascript:alert(1))">x</a>',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>',
  '<style><img src="</style><img src=x onerror=alert(1)//">',
  '<textarea><img src=x onerror=alert(1)></textarea>',
  '<title><img src=x onerror=alert(1)></title>',
  '<xmp><img src=x onerror=alert(1)></xmp>',
  '<plaintext><img src=x onerror=alert(1)>',
  '<!--<img src=x onerror=alert(1)>-->',
  '<!--><img src=x onerror=alert(1)>-->',
  '<!-- --!><img src=x onerror=alert(1)>-->',
  '<![CDATA[<img src=x onerror=alert(1)>]]>',
  '<!DOCTYPE html><img src=x onerror=alert(1)>',
  '<?xml version="1.0"?><img src=x onerror=alert(1)>',
  '</1><img src=x onerror=alert(1)>',
  '<x onclick=alert(1)>click</x>',
  '<a href="#" id="x" class="y" data-x="1" style="color:red">x</a>',
  '<img src="x" onerror="alert(1)" /><b onmouseover=alert(1)>b</b>',
  '<a href="https://example.com/\u0000javascript:alert(1)">x</a>',
  '\u0000<script>alert(1)</script>',
  '<scri\u0000pt>alert(1)</script>',
  '<img src=x on\u0000error=alert(1)>',
];

describe('ksesPost', () => {
  it('reproduces the live example of responses.md §1.6', () => {
    expect(ksesPost('<script>alert(1)</script><p>ok</p>')).toBe('alert(1)<p>ok</p>');
  });

  it.each([
    ['<p>ok</p>', '<p>ok</p>'],
    ['<b>B</b><strong>S</strong><em>e</em><i>i</i><u>u</u>', '<b>B</b><strong>S</strong><em>e</em><i>i</i><u>u</u>'],
    [
      '<a href="https://example.com/a?b=1&amp;c=2" title="t" target="_blank" rel="noopener">x</a>',
      '<a href="https://example.com/a?b=1&amp;c=2" title="t" target="_blank" rel="noopener">x</a>',
    ],
    ['<img src="a.png" alt="A" width="10" height="20" />', '<img src="a.png" alt="A" width="10" height="20" />'],
    ['<ul><li>a</li></ul><ol start="3"><li>b</li></ol>', '<ul><li>a</li></ul><ol start="3"><li>b</li></ol>'],
    ['<h1>t</h1><h6>t</h6><blockquote>q</blockquote><pre>p</pre><code>c</code>', '<h1>t</h1><h6>t</h6><blockquote>q</blockquote><pre>p</pre><code>c</code>'],
    [
      '<table><thead><tr><th colspan="2">h</th></tr></thead><tbody><tr><td>d</td></tr></tbody></table>',
      '<table><thead><tr><th colspan="2">h</th></tr></thead><tbody><tr><td>d</td></tr></tbody></table>',
    ],
    ['<span class="c">s</span><div id="d">v</div>', '<span class="c">s</span><div id="d">v</div>'],
    [
      '<a href="/relative">r</a><a href="#frag">f</a><a href="mailto:a@b.example">m</a><a href="tel:+1">t</a>',
      '<a href="/relative">r</a><a href="#frag">f</a><a href="mailto:a@b.example">m</a><a href="tel:+1">t</a>',
    ],
    ['line<br>line<br/>line<br />', 'line<br>line<br />line<br />'],
  ])('keeps allowed markup: %j', (input, expected) => {
    expect(ksesPost(input)).toBe(expected);
  });

  it.each([
    ['<a href="x" onclick="y">x</a>', '<a href="x">x</a>'],
    ['<div class="c" style="color:red" data-x="1" onmouseover="y">v</div>', '<div class="c">v</div>'],
    ['<iframe src="https://example.com"></iframe>after', 'after'],
    ['<form><input name="q"><button>Go</button></form>', 'Go'],
    ['<style>p{color:red}</style>text', 'p{color:red}text'],
    ['<A HREF="x">y</A>', '<A href="x">y</A>'],
    [`<a href='x' title='a"b'>y</a>`, '<a href="x" title="a&quot;b">y</a>'],
    ['<a href=x title=y>z</a>', '<a href="x" title="y">z</a>'],
    ['<a href="x" href="y">z</a>', '<a href="x">z</a>'],
    ['<img src="x" alt>', '<img src="x" alt>'],
    ['<!-- comment -->text', 'text'],
    ['<!DOCTYPE html>text', 'text'],
    ['<unknown-element>text</unknown-element>', 'text'],
  ])('drops disallowed elements and attributes: %j', (input, expected) => {
    expect(ksesPost(input)).toBe(expected);
  });

  it.each([
    ['<a href="javascript:alert(1)">x</a>', '<a>x</a>'],
    ['<a href="jav&#x09;ascript:alert(1)" title="t">x</a>', '<a title="t">x</a>'],
    ['<a href="javascript&#58;alert(1)">x</a>', '<a>x</a>'],
    ['<img src=x onerror=alert(1)>', '<img src="x">'],
    ['<img src="data:image/png;base64,AAAA">', '<img>'],
    ['<a href="javascript&colon;alert(1)">x</a>', '<a href="javascript&amp;colon;alert(1)">x</a>'],
  ])('removes dangerous URLs: %j', (input, expected) => {
    expect(ksesPost(input)).toBe(expected);
  });

  it.each([
    ['A & B', 'A &amp; B'],
    ['&amp; &hellip; &#8217; &#x2019;', '&amp; &hellip; &#8217; &#x2019;'],
    ['&foo; &colon;', '&amp;foo; &amp;colon;'],
    ['&#58; &#0000058;', '&#058; &#058;'],
    ['&#0; &#xD800;', '&amp;#0; &amp;#xD800;'],
    ['a < b', 'a &lt; b'],
    ['a > b', 'a &gt; b'],
    // Upstream escapes the whole unclosed span with esc_html, quotes included.
    ['a <3 "q" \'s', 'a &lt;3 &quot;q&quot; &#039;s'],
    ['<b>unclosed', '<b>unclosed'],
    ['x <', 'x &lt;'],
  ])('normalises entities and stray angle brackets: %j', (input, expected) => {
    expect(ksesPost(input)).toBe(expected);
  });

  it('keeps odd Unicode and removes control characters', () => {
    expect(ksesPost('Été 🎉 <b>Zürich</b>')).toBe('Été 🎉 <b>Zürich</b>');
    expect(ksesPost('a\u0000b\u0001c\u001fd\te\nf\rg')).toBe('abcd\te\nf\rg');
    expect(ksesPost('\ud800 lone')).toBe('\ud800 lone');
  });

  it.each(XSS_VECTORS)('neutralises %j', (vector) => {
    const out = ksesPost(vector);
    expect(violations(out, POST_ALLOWED_HTML)).toEqual([]);
    expect(out).not.toMatch(/<(?:script|svg|iframe|object|embed|style|form|input|math|base|meta|link)\b/i);
    expect(out).not.toMatch(/<[^>]*\son[a-z]*\s*=/i);
    expect(ksesPost(out)).toBe(out);
  });

  it('keeps random hostile fragment soups safe and stable (property test)', () => {
    const fragments = [
      '<',
      '>',
      '"',
      "'",
      '=',
      ' ',
      '/',
      '\n',
      '\t',
      '\0',
      '`',
      '\\"',
      'script',
      'img',
      'a',
      'b',
      'p',
      'svg',
      'style',
      'textarea',
      'iframe',
      'href',
      'src',
      'title',
      'onerror',
      'onload',
      'x',
      'alert(1)',
      'javascript:',
      'data:',
      'jav&#x09;ascript:',
      '&#',
      '58',
      ';',
      '&',
      '&colon;',
      '&amp;',
      '!--',
      '-->',
      '<!',
      '</',
      'A',
    ];
    const random = mulberry32(20240601);
    for (let i = 0; i < 3000; i++) {
      let input = '';
      const count = 1 + Math.floor(random() * 30);
      for (let j = 0; j < count; j++) input += fragments[Math.floor(random() * fragments.length)];
      const out = ksesPost(input);
      expect(violations(out, POST_ALLOWED_HTML), input).toEqual([]);
      expect(ksesPost(out), input).toBe(out);
    }
  });
});

describe('ksesTitle', () => {
  it('reproduces the live example of responses.md §1.6', () => {
    expect(ksesTitle('x <script>x</script><b>b</b>')).toBe('x x<b>b</b>');
  });

  it('keeps only the small title allow-list', () => {
    expect(ksesTitle('<a href="https://e.example" title="t" class="c">a</a> <em>e</em> <p>p</p> <img src="x">')).toBe(
      '<a href="https://e.example" title="t">a</a> <em>e</em> p ',
    );
    expect(ksesTitle('<b class="x">b</b><strong id="y">s</strong>')).toBe('<b>b</b><strong>s</strong>');
  });

  it.each(XSS_VECTORS)('neutralises %j', (vector) => {
    const out = ksesTitle(vector);
    expect(violations(out, TITLE_ALLOWED_HTML)).toEqual([]);
    expect(ksesTitle(out)).toBe(out);
  });
});

/** A small deterministic PRNG, so that the property test is reproducible. */
function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
