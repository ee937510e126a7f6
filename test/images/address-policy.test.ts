import { describe, expect, it } from 'vitest';
import { classifyAddress, isPublicAddress, type AddressClass } from '../../src/images/address-policy.js';

// Pure string classification: nothing here touches the network.
const CASES: readonly (readonly [string, AddressClass])[] = [
  // IPv4 public
  ['8.8.8.8', 'public'],
  ['1.1.1.1', 'public'],
  ['93.184.216.34', 'public'],
  ['9.255.255.255', 'public'],
  ['11.0.0.0', 'public'],
  ['100.63.255.255', 'public'],
  ['100.128.0.0', 'public'],
  ['126.255.255.255', 'public'],
  ['128.0.0.0', 'public'],
  ['169.253.255.255', 'public'],
  ['169.255.0.0', 'public'],
  ['172.15.255.255', 'public'],
  ['172.32.0.0', 'public'],
  ['192.167.255.255', 'public'],
  ['192.169.0.0', 'public'],
  ['198.17.255.255', 'public'],
  ['198.20.0.0', 'public'],
  ['223.255.255.255', 'public'],
  // IPv4 not public
  ['0.0.0.0', 'unspecified'],
  ['0.1.2.3', 'unspecified'],
  ['127.0.0.1', 'loopback'],
  ['127.0.0.2', 'loopback'],
  ['127.255.255.255', 'loopback'],
  ['10.0.0.1', 'private'],
  ['10.255.255.255', 'private'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['192.168.0.1', 'private'],
  ['192.168.255.255', 'private'],
  ['100.64.0.1', 'shared'],
  ['100.127.255.255', 'shared'],
  ['169.254.169.254', 'link-local'],
  ['169.254.0.1', 'link-local'],
  ['192.0.0.8', 'reserved'],
  ['192.0.2.1', 'documentation'],
  ['198.51.100.7', 'documentation'],
  ['203.0.113.9', 'documentation'],
  ['192.88.99.1', 'reserved'],
  ['198.18.0.1', 'reserved'],
  ['198.19.255.255', 'reserved'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['240.0.0.1', 'reserved'],
  ['254.1.2.3', 'reserved'],
  ['255.255.255.255', 'broadcast'],
  // IPv6 public
  ['2606:4700:4700::1111', 'public'],
  ['2001:4860:4860::8888', 'public'],
  ['2a00:1450:4001:80b::200e', 'public'],
  ['2001:200::1', 'public'], // just past the 2001::/23 protocol block
  ['2400:cb00::1', 'public'],
  // IPv6 not public
  ['::', 'unspecified'],
  ['0:0:0:0:0:0:0:0', 'unspecified'],
  ['::1', 'loopback'],
  ['0:0:0:0:0:0:0:1', 'loopback'],
  ['fe80::1', 'link-local'],
  ['fe80::1%eth0', 'link-local'],
  ['febf:ffff::1', 'link-local'],
  ['fc00::1', 'private'],
  ['fd12:3456:789a::1', 'private'],
  ['fec0::1', 'private'],
  ['ff02::1', 'multicast'],
  ['ff05::fb', 'multicast'],
  ['2001:db8::1', 'documentation'],
  ['3fff::1', 'documentation'],
  ['2001::1', 'reserved'], // Teredo
  ['2001:10::1', 'reserved'],
  ['100::1', 'reserved'],
  ['5f00::1', 'reserved'],
  ['64:ff9b:1::1', 'private'],
  ['::2', 'reserved'],
  ['::127.0.0.1', 'reserved'], // deprecated IPv4-compatible form
  ['::ffff:0:127.0.0.1', 'reserved'],
  ['1::', 'reserved'],
  ['4000::1', 'reserved'],
  // IPv6 forms carrying IPv4 are judged by the IPv4 address
  ['::ffff:127.0.0.1', 'loopback'],
  ['::ffff:7f00:1', 'loopback'],
  ['0:0:0:0:0:ffff:7f00:0001', 'loopback'],
  ['::FFFF:169.254.169.254', 'link-local'],
  ['::ffff:10.1.2.3', 'private'],
  ['::ffff:0.0.0.0', 'unspecified'],
  ['::ffff:8.8.8.8', 'public'],
  ['64:ff9b::10.0.0.1', 'private'],
  ['64:ff9b::7f00:1', 'loopback'],
  ['64:ff9b::8.8.8.8', 'public'],
  ['2002:7f00:1::', 'loopback'],
  ['2002:a9fe:a9fe::1', 'link-local'],
  ['2002:c0a8:101::1', 'private'],
  ['2002:808:808::1', 'public'],
  // Not canonical IP literals: refused
  ['', 'invalid'],
  ['localhost', 'invalid'],
  ['2130706433', 'invalid'],
  ['0x7f.0.0.1', 'invalid'],
  ['0177.0.0.1', 'invalid'],
  ['127.1', 'invalid'],
  ['256.0.0.1', 'invalid'],
  ['1.2.3.4.5', 'invalid'],
  ['::ffff:1.2.3', 'invalid'],
  ['1:2:3:4:5:6:7:8:9', 'invalid'],
  ['gggg::1', 'invalid'],
  [' 8.8.8.8', 'invalid'],
];

describe('classifyAddress', () => {
  it.each(CASES)('%s is %s', (address, expected) => {
    expect(classifyAddress(address)).toBe(expected);
  });

  it('accepts bracketed IPv6 as the URL parser writes it', () => {
    expect(classifyAddress('[::1]')).toBe('loopback');
    expect(classifyAddress('[2606:4700:4700::1111]')).toBe('public');
  });
});

describe('isPublicAddress', () => {
  it('is true only for the public class', () => {
    for (const [address, cls] of CASES) expect(isPublicAddress(address)).toBe(cls === 'public');
  });
});
