import { describe, expect, it } from 'vitest';
import { decodePathSegment, titleFromUrl } from '../../src/images/file-name.js';

describe('decodePathSegment', () => {
  it.each([
    ['plain.png', 'plain.png'],
    ['caf%C3%A9.png', 'café.png'], // UTF-8
    ['caf%c3%a9.png', 'café.png'],
    ['caf%E9.png', 'café.png'], // Latin-1
    ['%E9t%E9', 'été'],
    ['%80uro', '€uro'], // windows-1252, as browsers read "Latin-1"
    ['%E2%82%AC', '€'],
    ['%F0%9F%98%80.gif', '😀.gif'],
    ['a%20b', 'a b'],
    ['a%ZZ.png', 'a%ZZ.png'], // malformed escapes stay as written
    ['100%', '100%'],
    ['100%2', '100%2'],
    ['%%41', '%A'],
    ['%C3', 'Ã'], // a lone lead byte is not UTF-8
    ['%ED%A0%80', 'í\u00a0€'], // an encoded surrogate is not UTF-8 either
    ['%C3%A9%E9', 'Ã©é'], // one run, read one way
    ['%C3%A9-%E9', 'é-é'], // separate runs, read each their own way
    ['a%00b', 'a%00b'], // controls stay escaped
    ['a%0Ab%7F', 'a%0Ab%7F'],
    ['%E9%00%E9', 'é%00é'],
    ['', ''],
  ])('%j → %j', (segment, expected) => {
    expect(decodePathSegment(segment)).toBe(expected);
  });

  it('never throws where decodeURIComponent does', () => {
    for (const segment of ['caf%E9.png', 'a%ZZ.png', '%', '%C3', '%ED%A0%80', '%FF%FE']) {
      expect(() => decodeURIComponent(segment)).toThrow(URIError);
      expect(() => decodePathSegment(segment)).not.toThrow();
    }
  });
});

describe('titleFromUrl', () => {
  it.each([
    ['http://h/pics/caf%E9.png', 'café'],
    ['http://h/pics/caf%C3%A9.PNG?x=%E9#y', 'café'],
    ['http://h/a%ZZ.png', 'a%ZZ'],
    ['http://h/my%20photo.tar.jpg', 'my photo.tar'],
    ['http://h/noext', 'noext'],
    ['http://h/', 'image'],
    ['http://h/.png', 'image'],
    ['http://h/dir/', 'image'],
  ])('%s → %j', (url, title) => {
    expect(titleFromUrl(new URL(url))).toBe(title);
  });
});
