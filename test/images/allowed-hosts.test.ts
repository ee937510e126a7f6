import { describe, expect, it } from 'vitest';
import { allowsUrl, effectivePort, parseAllowedHost, type AllowedHost } from '../../src/images/allowed-hosts.js';

// Pure string matching: nothing here touches the network.
describe('parseAllowedHost', () => {
  it.each([
    ['LocalHost', { host: 'localhost' }],
    ['Images.Internal', { host: 'images.internal' }],
    [' 127.0.0.1 ', { host: '127.0.0.1' }],
    ['[::1]', { host: '::1' }],
    ['::1', { host: '::1' }],
    ['0:0:0:0:0:0:0:1', { host: '::1' }],
    ['::FFFF:127.0.0.1', { host: '::ffff:7f00:1' }],
    ['2130706433', { host: '127.0.0.1' }], // the same canonical form URLs get
    ['bücher.example', { host: 'xn--bcher-kva.example' }],
    ['127.0.0.1:8080', { host: '127.0.0.1', port: 8080 }],
    ['[::1]:8080', { host: '::1', port: 8080 }],
    ['[0:0:0:0:0:0:0:1]:8080', { host: '::1', port: 8080 }],
    ['Images.Local:3000', { host: 'images.local', port: 3000 }],
    // An explicit default port is still the only port allowed, unlike a bare entry.
    ['images.local:80', { host: 'images.local', port: 80 }],
    ['images.local:443', { host: 'images.local', port: 443 }],
    ['images.local:65535', { host: 'images.local', port: 65535 }],
  ])('%j → %j', (entry, expected) => {
    expect(parseAllowedHost(entry)).toEqual(expected);
  });

  it.each([
    '',
    '  ',
    'images.local:0',
    'images.local:65536',
    'images.local:',
    'images.local:80:81',
    'images.local/x',
    'http://images.local',
    'user@images.local',
    '[::1',
    '[::1]x',
    'exa mple.com',
  ])('refuses %j, so it matches nothing', (entry) => {
    expect(parseAllowedHost(entry)).toBeUndefined();
  });
});

describe('effectivePort', () => {
  it.each([
    ['http://h/', 80],
    ['https://h/', 443],
    ['http://h:443/', 443],
    ['https://h:80/', 80],
    ['http://h:80/', 80], // the URL parser drops it; the port is still 80
    ['http://h:8080/x.png', 8080],
    ['https://[::1]:8443/', 8443],
  ])('%s is port %i', (url, port) => {
    expect(effectivePort(new URL(url))).toBe(port);
  });
});

describe('allowsUrl', () => {
  const entries = (...raw: string[]): AllowedHost[] => raw.flatMap((e) => parseAllowedHost(e) ?? []);
  const allows = (list: AllowedHost[], url: string): boolean => allowsUrl(list, new URL(url));

  it('lets a bare entry reach the default ports 80 and 443 only', () => {
    const list = entries('images.local', '127.0.0.1');
    for (const url of [
      'http://images.local/a.png',
      'https://images.local/a.png',
      'http://images.local:443/',
      'https://images.local:80/',
      'http://127.0.0.1/',
    ]) {
      expect({ url, allowed: allows(list, url) }).toEqual({ url, allowed: true });
    }
    for (const url of ['http://images.local:8080/', 'https://images.local:8443/', 'http://127.0.0.1:6379/', 'http://127.0.0.1:22/']) {
      expect({ url, allowed: allows(list, url) }).toEqual({ url, allowed: false });
    }
  });

  it('lets an entry with a port reach that port only', () => {
    const list = entries('127.0.0.1:8080', 'images.local:3000', '[::1]:8080');
    expect(allows(list, 'http://127.0.0.1:8080/a.png')).toBe(true);
    expect(allows(list, 'https://127.0.0.1:8080/a.png')).toBe(true);
    expect(allows(list, 'http://IMAGES.LOCAL:3000/')).toBe(true);
    expect(allows(list, 'http://[::1]:8080/')).toBe(true);
    expect(allows(list, 'http://[0:0::1]:8080/')).toBe(true);
    expect(allows(list, 'http://127.0.0.1/')).toBe(false);
    expect(allows(list, 'https://127.0.0.1/')).toBe(false);
    expect(allows(list, 'http://127.0.0.1:8081/')).toBe(false);
    expect(allows(list, 'http://images.local/')).toBe(false);
    expect(allows(list, 'http://[::1]/')).toBe(false);
    expect(allows(list, 'http://[::1]:3000/')).toBe(false);
  });

  it('matches explicit default ports by number', () => {
    expect(allows(entries('h:80'), 'http://h/')).toBe(true);
    expect(allows(entries('h:80'), 'https://h/')).toBe(false);
    expect(allows(entries('h:443'), 'https://h/')).toBe(true);
    expect(allows(entries('h:443'), 'http://h:443/')).toBe(true);
    expect(allows(entries('h:443'), 'http://h/')).toBe(false);
  });

  it('compares hosts exactly, in canonical form', () => {
    const list = entries('127.0.0.1:8080', 'images.local');
    expect(allows(list, 'http://2130706433:8080/')).toBe(true); // 127.0.0.1
    expect(allows(list, 'http://127.0.0.2:8080/')).toBe(false);
    expect(allows(list, 'http://sub.images.local/')).toBe(false);
    expect(allows(list, 'http://images.local.evil.example/')).toBe(false);
    expect(allows([], 'http://images.local/')).toBe(false);
  });
});
