import { describe, expect, it } from 'vitest';
import { escapeWebsite, isUrlOrEmpty, sanitizeUrl, validateUrl } from '../../src/text/url.js';

describe('isUrlOrEmpty (PHP FILTER_VALIDATE_URL, writes.md §1)', () => {
  it('reproduces the examples of writes.md', () => {
    expect(isUrlOrEmpty('foo')).toBe(false);
    expect(isUrlOrEmpty('http://example.com')).toBe(true);
    expect(isUrlOrEmpty('')).toBe(true);
  });

  it.each([undefined, null, '', '0', 0, false, [], {}])('accepts the PHP-empty value %j', (value) => {
    expect(isUrlOrEmpty(value)).toBe(true);
  });

  it.each([
    'http://example.com',
    'https://example.com/a?b=1&c=2#frag',
    'http://example.com/a?b=1&amp;c=2',
    'HTTP://EXAMPLE.COM',
    'http://127.0.0.1:8081/event/x/',
    'http://[::1]/',
    'http://user:pass@example.com/',
    'http://localhost',
    'http://example.com.',
    'http://example-',
    'ftp://ftp.example.com/file',
    'mailto:someone@example.com',
    'mailto:',
    'news:comp.lang',
    'file:///etc/hosts',
    'foo://bar',
    'javascript://comment%0Aalert(1)',
    'http://example.com/<script>',
    'http://example.com:8x',
  ])('accepts %j', (url) => {
    expect(validateUrl(url)).toBe(true);
  });

  it.each([
    'foo',
    'example.com',
    'www.example.com/path',
    '//example.com',
    '/relative/path',
    'http://',
    'http:',
    'http:/example.com',
    'http:example.com',
    'http://exa mple.com',
    'http://ex_ample.com',
    'http://-example.com',
    'http://example..com',
    'http://.example.com',
    'http://é.example',
    'http://example.com/é',
    'http://example.com:99999',
    'http://example.com:123456',
    'http://example.com:-1',
    'http://[::1',
    'http://[zz::1]/',
    'http://us er@example.com',
    'http://a@:80',
    'javascript:alert(1)',
    'data:text/html,x',
    'localhost:80',
    ' http://example.com',
    'http://example.com\n',
    'http://example.com/\u0000',
    `http://${'a'.repeat(64)}.example`,
    `http://${'a.'.repeat(130)}example`,
  ])('rejects %j', (url) => {
    expect(validateUrl(url)).toBe(false);
  });

  it('rejects non-empty non-strings like PHP', () => {
    expect(isUrlOrEmpty(123)).toBe(false);
    expect(isUrlOrEmpty(true)).toBe(false);
    expect(isUrlOrEmpty(['http://example.com'])).toBe(false);
    expect(isUrlOrEmpty({ a: 1 })).toBe(false);
  });
});

describe('sanitizeUrl (esc_url_raw, writes.md §2.5)', () => {
  it.each([
    ['http://example.com/a?b=1&c=2', 'http://example.com/a?b=1&c=2'],
    ['https://cityhall.example', 'https://cityhall.example'],
    ['  http://example.com', 'http://example.com'],
    ['http://example.com/a b', 'http://example.com/a%20b'],
    ['http://example.com/<script>"x"{}^`\\', 'http://example.com/scriptx'],
    ['http://example.com/%0d%0aSet-Cookie', 'http://example.com/Set-Cookie'],
    ['http://example.com/%0%0aa', 'http://example.com/'],
    ['mailto:a@b.example?body=%0A', 'mailto:a@b.example?body=%0A'],
    ['example.com/path', 'http://example.com/path'],
    ['index.php?x=1', 'index.php?x=1'],
    ['/relative', '/relative'],
    ['#frag', '#frag'],
    ['http;//example.com', 'http://example.com'],
    ['http://example.com/Été', 'http://example.com/Été'],
    ['http://[::1]:80/a[b]', 'http://[::1]:80/a%5Bb%5D'],
    ['', ''],
  ])('cleans %j', (input, expected) => {
    expect(sanitizeUrl(input)).toBe(expected);
  });

  it.each([
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    'javascript://comment%0Aalert(1)',
    'vbscript:msgbox(1)',
    'data:text/html;base64,PHNjcmlwdD4=',
    'java\tscript:alert(1)',
    'java&#115;cript:alert(1)',
    '&#104;ttp://example.com',
  ])('drops a disallowed protocol: %j', (input) => {
    expect(sanitizeUrl(input)).toBe('');
  });

  it('keeps the allowed protocols', () => {
    for (const url of ['ftp://x.example/', 'mailto:a@b.example', 'tel:+15550100', 'webcal://x.example/cal.ics', 'urn:isbn:123']) {
      expect(sanitizeUrl(url)).toBe(url);
    }
  });
});

describe('escapeWebsite (responses.md §2 website)', () => {
  it('reproduces the live example', () => {
    expect(escapeWebsite('http://example.com/a?b=1&c=2')).toBe('http://example.com/a?b=1&amp;c=2');
  });

  it('does not double-encode and escapes quotes and angle brackets', () => {
    expect(escapeWebsite('http://example.com/a?b=1&amp;c=2')).toBe('http://example.com/a?b=1&amp;c=2');
    expect(escapeWebsite(`http://x.example/"a'<b>`)).toBe('http://x.example/&quot;a&#039;&lt;b&gt;');
    expect(escapeWebsite('https://cityhall.example')).toBe('https://cityhall.example');
    expect(escapeWebsite('')).toBe('');
  });
});
