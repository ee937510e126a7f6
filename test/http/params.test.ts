import { describe, expect, it } from 'vitest';
import { DEFAULT_PARSE_LIMITS, cleanStrings, cleanText, isJsonType, mediaType, parseBracketString, readBody } from '../../src/http/params.js';
import type { CoreRequest } from '../../src/http/types.js';

// Parameter sources of src/http/params.ts: PHP bracket notation in query strings, form and
// multipart bodies gives the values the equivalent JSON gives.

function request(contentType: string | undefined, body: CoreRequest['body']): CoreRequest {
  return { method: 'POST', path: '/', headers: contentType ? { 'content-type': contentType } : {}, body, root: '/wp-json' };
}

function multipart(fields: [string, string][]): { body: string; type: string } {
  const boundary = 'XyZ-boundary';
  const parts = fields.map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`);
  return { body: `${parts.join('')}--${boundary}--\r\n`, type: `multipart/form-data; boundary=${boundary}` };
}

const FORM = 'tags[]=a&tags[]=b&include[0]=3&organizer[0][organizer]=Name&organizer[1][organizer]=Other&venue[venue]=Hall&title=T%20x';
const AS_JSON = {
  tags: ['a', 'b'],
  include: ['3'],
  organizer: [{ organizer: 'Name' }, { organizer: 'Other' }],
  venue: { venue: 'Hall' },
  title: 'T x',
};

describe('parseBracketString', () => {
  it.each([
    ['tags[]=a&tags[]=b', { tags: ['a', 'b'] }],
    ['include[0]=3', { include: ['3'] }],
    ['include[0]=3&include[1]=4', { include: ['3', '4'] }],
    ['organizer[1][organizer]=Name', { organizer: [{ organizer: 'Name' }] }],
    ['venue[venue]=Hall&venue[city]=Rome', { venue: { venue: 'Hall', city: 'Rome' } }],
    ['a=1&a=2', { a: '2' }],
    ['a=x+y&b=%C3%A9', { a: 'x y', b: 'é' }],
    ['empty=&flag', { empty: '', flag: '' }],
    ['bad=%FF', { bad: '%FF' }],
  ])('%s', (text, expected) => {
    expect(parseBracketString(text)).toEqual(expected);
  });

  it('keeps indexes past the array limit as object keys (read as lists by list arguments)', () => {
    expect(parseBracketString('include[200]=2&include[1]=4')).toEqual({ include: { 1: '4', 200: '2' } });
  });

  it('bounds the nesting depth and the number of parameters', () => {
    const deep = parseBracketString(`a${'[b]'.repeat(20)}=1`) as Record<string, unknown>;
    let node = deep.a as Record<string, unknown>;
    let depth = 1;
    while (node && typeof node === 'object' && 'b' in node) {
      node = node.b as Record<string, unknown>;
      depth++;
    }
    expect(depth).toBe(DEFAULT_PARSE_LIMITS.depth + 1);
    const many = Array.from({ length: 2000 }, (_, i) => `p${i}=1`).join('&');
    expect(Object.keys(parseBracketString(many))).toHaveLength(DEFAULT_PARSE_LIMITS.parameters);
  });

  it('never builds prototype keys', () => {
    const parsed = parseBracketString('__proto__[polluted]=1&constructor[prototype][polluted]=1&a[__proto__][x]=1');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
  });

  it('removes NUL characters and replaces lone surrogates', () => {
    expect(parseBracketString('name=%00a%00b&x%00y=1&s=%ED%A0%80')).toEqual({ name: 'ab', xy: '1', s: '%ED%A0%80' });
  });
});

describe('readBody', () => {
  it('reads a bare number or flag a host parser produced as no body (it threw: a 500)', async () => {
    // What express.json({ strict: false }) leaves in req.body for `5` or `true`, outside the declared type.
    for (const bare of [5, true, 0, false]) {
      const read = await readBody(request('application/json', bare as unknown as CoreRequest['body']), 'POST');
      expect(read.json).toEqual({});
      expect(read.body).toEqual({});
    }
  });

  it('gives the same values for a form body, a multipart body and the equivalent JSON', async () => {
    const form = await readBody(request('application/x-www-form-urlencoded', Buffer.from(FORM)), 'POST');
    const json = await readBody(request('application/json', Buffer.from(JSON.stringify(AS_JSON))), 'POST');
    const pairs = [...new URLSearchParams(FORM)];
    const mp = multipart(pairs);
    const multi = await readBody(request(mp.type, mp.body), 'POST');
    expect(form.body).toEqual(AS_JSON);
    expect(json.json).toEqual(AS_JSON);
    expect(multi.body).toEqual(AS_JSON);
  });

  it('reads bodies a host parser already produced the same way', async () => {
    // express.urlencoded({ extended: false }) leaves bracket names unparsed.
    const flat = Object.fromEntries(
      [...new URLSearchParams(FORM)].reduce((m, [k, v]) => {
        const prev = m.get(k);
        m.set(k, prev === undefined ? v : ([] as string[]).concat(prev, v));
        return m;
      }, new Map<string, string | string[]>()),
    );
    expect(flat['tags[]']).toEqual(['a', 'b']);
    expect((await readBody(request('application/x-www-form-urlencoded', flat), 'POST')).body).toEqual(AS_JSON);
    // express.urlencoded({ extended: true }) and multer-like parsers give nested values.
    expect((await readBody(request('multipart/form-data; boundary=x', AS_JSON), 'POST')).body).toEqual(AS_JSON);
    // express.json()
    expect((await readBody(request('application/json', AS_JSON), 'POST')).json).toEqual(AS_JSON);
  });

  it('reads form bodies only for POST, PUT, PATCH and DELETE', async () => {
    for (const verb of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      expect((await readBody(request('application/x-www-form-urlencoded', 'a=1'), verb)).body, verb).toEqual({ a: '1' });
    }
    for (const verb of ['GET', 'HEAD', 'OPTIONS']) {
      expect((await readBody(request('application/x-www-form-urlencoded', 'a=1'), verb)).body, verb).toEqual({});
    }
    // JSON is read whatever the verb (WordPress parses it for any request).
    expect((await readBody(request('application/json', '{"a":1}'), 'GET')).json).toEqual({ a: 1 });
  });

  it('ignores bodies of other types', async () => {
    for (const type of ['text/plain', 'application/xml', undefined]) {
      const r = await readBody(request(type, 'a=1'), 'POST');
      expect(r, String(type)).toEqual({ json: {}, body: {} });
    }
  });

  it('defers a JSON syntax error; an empty body is no body, white space is an error', async () => {
    expect((await readBody(request('application/json', '{"a":'), 'POST')).jsonError?.toJSON()).toEqual({
      code: 'rest_invalid_json',
      message: 'Invalid JSON body passed.',
      data: { status: 400, json_error_code: 4, json_error_message: 'Syntax error' },
    });
    expect(await readBody(request('application/json', ''), 'POST')).toEqual({ json: {}, body: {} });
    expect((await readBody(request('application/json', ' \n'), 'POST')).jsonError?.code).toBe('rest_invalid_json');
    expect(await readBody(request('application/json', '[1,2]'), 'POST')).toEqual({ json: {}, body: {} });
    expect(await readBody(request('application/json', 'null'), 'POST')).toEqual({ json: {}, body: {} });
  });

  it('copes with JSON nested deeper than recursion could follow', async () => {
    const n = 200_000;
    const text = `{"include":${'['.repeat(n)}"\\u0000"${']'.repeat(n)}}`;
    // Past PHP's depth the body is refused as WordPress refuses it (errors.md §3)…
    const raw = await readBody(request('application/json', text), 'POST');
    expect(raw.jsonError?.data).toEqual({ status: 400, json_error_code: 1, json_error_message: 'Maximum stack depth exceeded' });
    // …and a body the host parsed already is cleaned without recursion.
    const r = await readBody({ ...request('application/json', text), body: JSON.parse(text) }, 'POST');
    expect(r.jsonError).toBeUndefined();
    let node: unknown = r.json.include;
    for (let i = 0; i < n; i++) node = (node as unknown[])[0];
    expect(node).toBe('');
  });
});

describe('cleanText / cleanStrings', () => {
  it('strips NUL and replaces lone surrogates only', () => {
    expect(cleanText('a\u0000b')).toBe('ab');
    expect(cleanText('x\uD800y\uDC00z')).toBe('x\uFFFDy\uFFFDz');
    expect(cleanText('😀 مرحبا ‮')).toBe('😀 مرحبا ‮');
  });

  it('copies without touching the input, and keeps a `__proto__` key a plain key', () => {
    const input = JSON.parse('{"__proto__":{"polluted":"\\u0000x"},"a":["\\u0000",{"b":"\\ud800"}]}') as Record<string, unknown>;
    const out = cleanStrings(input) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.hasOwn(out, '__proto__')).toBe(true);
    expect((out as { ['__proto__']: unknown }).__proto__).toEqual({ polluted: 'x' });
    expect(out.a).toEqual(['', { b: '\uFFFD' }]);
    expect((input.a as unknown[])[0]).toBe('\u0000');
  });
});

describe('content types', () => {
  it('reads the media type without parameters, case-insensitively', () => {
    expect(mediaType(request('Application/JSON; charset=UTF-8', undefined))).toBe('application/json');
    expect(isJsonType('application/json')).toBe(true);
    expect(isJsonType('application/ld+json')).toBe(true);
    expect(isJsonType('text/json')).toBe(false);
    expect(isJsonType('application/jsonp')).toBe(false);
  });
});
