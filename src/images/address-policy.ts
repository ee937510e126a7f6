import { isIPv4, isIPv6 } from 'node:net';

/** Kind of IP address; only `public` may be contacted unless allow-listed (`invalid`: not an IP literal). */
export type AddressClass =
  'public' | 'invalid' | 'unspecified' | 'loopback' | 'private' | 'shared' | 'link-local' | 'multicast' | 'broadcast' | 'documentation' | 'reserved';

// `v4-low` / `v4-6to4`: the range embeds an IPv4 address (low 32 bits / bits 16..47).
type Range<C = AddressClass> = { net: bigint; bits: number; total: number; cls: C };
type V6Class = AddressClass | 'v4-low' | 'v4-6to4';

// IANA special-purpose registries (RFC 6890 and successors). Ordered most specific first
// where ranges nest, because the first match wins.
const V4_RANGES: readonly Range[] = [
  v4('0.0.0.0/8', 'unspecified'), // "this network"; 0.0.0.0 reaches the local host on Linux
  v4('10.0.0.0/8', 'private'),
  v4('100.64.0.0/10', 'shared'), // carrier-grade NAT
  v4('127.0.0.0/8', 'loopback'),
  v4('169.254.0.0/16', 'link-local'), // includes the cloud metadata service 169.254.169.254
  v4('172.16.0.0/12', 'private'),
  v4('192.0.0.0/24', 'reserved'),
  v4('192.0.2.0/24', 'documentation'),
  v4('192.88.99.0/24', 'reserved'), // deprecated 6to4 relay anycast
  v4('192.168.0.0/16', 'private'),
  v4('198.18.0.0/15', 'reserved'), // benchmarking
  v4('198.51.100.0/24', 'documentation'),
  v4('203.0.113.0/24', 'documentation'),
  v4('224.0.0.0/4', 'multicast'),
  v4('255.255.255.255/32', 'broadcast'),
  v4('240.0.0.0/4', 'reserved'),
];

const V6_RANGES: readonly Range<V6Class>[] = [
  v6('::/128', 'unspecified'),
  v6('::1/128', 'loopback'),
  // Forms that carry an IPv4 address are judged by that address, so ::ffff:127.0.0.1
  // (which Linux happily connects to 127.0.0.1) is loopback.
  v6('::ffff:0:0/96', 'v4-low'), // IPv4-mapped
  v6('64:ff9b::/96', 'v4-low'), // well-known NAT64 prefix
  v6('64:ff9b:1::/48', 'private'), // local-use NAT64
  v6('100::/64', 'reserved'), // discard-only
  v6('2001:db8::/32', 'documentation'),
  v6('2001::/23', 'reserved'), // IETF protocol assignments, incl. Teredo
  v6('2002::/16', 'v4-6to4'), // 6to4
  v6('3fff::/20', 'documentation'),
  v6('5f00::/16', 'reserved'), // SRv6 SIDs
  v6('fc00::/7', 'private'), // unique local
  v6('fe80::/10', 'link-local'),
  v6('fec0::/10', 'private'), // deprecated site-local
  v6('ff00::/8', 'multicast'),
];

// Only 2000::/3 is allocated as global unicast; everything else (including the deprecated
// IPv4-compatible ::a.b.c.d) is reserved, so the IPv6 default is "refuse".
const V6_GLOBAL = v6('2000::/3', 'public');

/** Classifies an IP address literal (as returned by DNS or a normalized URL host). */
export function classifyAddress(address: string): AddressClass {
  // A zone index (fe80::1%eth0) only scopes the address; judge the address itself.
  const ip = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  if (isIPv4(ip)) return classifyV4(parseV4(ip));
  if (isIPv6(ip)) {
    const [withoutZone = ''] = ip.split('%');
    const value = parseV6(withoutZone);
    if (value === undefined) return 'invalid';
    return classifyV6(value);
  }
  return 'invalid';
}

/** Whether an address may be contacted without being allow-listed. */
export function isPublicAddress(address: string): boolean {
  return classifyAddress(address) === 'public';
}

/** Removes the brackets the URL parser keeps around IPv6 host names. */
export function stripBrackets(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

function classifyV4(value: bigint): AddressClass {
  const hit = V4_RANGES.find((r) => inRange(value, r));
  return hit ? hit.cls : 'public';
}

function classifyV6(value: bigint): AddressClass {
  const hit = V6_RANGES.find((r) => inRange(value, r));
  if (hit?.cls === 'v4-low') return classifyV4(value & 0xffffffffn);
  if (hit?.cls === 'v4-6to4') return classifyV4((value >> 80n) & 0xffffffffn);
  if (hit) return hit.cls;
  return inRange(value, V6_GLOBAL) ? 'public' : 'reserved';
}

function inRange(value: bigint, r: Range<unknown>): boolean {
  const shift = BigInt(r.total - r.bits);
  return value >> shift === r.net >> shift;
}

function parseV4(ip: string): bigint {
  return ip.split('.').reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n);
}

// Expects text that node:net already accepted as IPv6 (without zone index).
function parseV6(ip: string): bigint | undefined {
  const halves = ip.split('::');
  if (halves.length > 2) return undefined;
  const [before = '', after] = halves;
  const groups = (text: string): number[] | undefined => {
    if (text === '') return [];
    const out: number[] = [];
    for (const part of text.split(':')) {
      if (part.includes('.')) {
        if (!isIPv4(part)) return undefined;
        const v = Number(parseV4(part));
        out.push(v >>> 16, v & 0xffff);
      } else {
        if (!/^[0-9a-f]{1,4}$/i.test(part)) return undefined;
        out.push(parseInt(part, 16));
      }
    }
    return out;
  };
  const head = groups(before);
  const tail = after === undefined ? [] : groups(after);
  if (!head || !tail) return undefined;
  const missing = 8 - head.length - tail.length;
  if (after === undefined ? missing !== 0 : missing < 1) return undefined;
  const all = [...head, ...new Array<number>(missing).fill(0), ...tail];
  return all.reduce((acc, g) => (acc << 16n) | BigInt(g), 0n);
}

function v4(cidr: string, cls: AddressClass): Range {
  const [ip = '', bits] = cidr.split('/');
  return { net: parseV4(ip), bits: Number(bits), total: 32, cls };
}

function v6(cidr: string, cls: V6Class): Range<V6Class> {
  const [ip = '', bits] = cidr.split('/');
  const net = parseV6(ip);
  if (net === undefined) throw new Error(`bad built-in range ${cidr}`);
  return { net, bits: Number(bits), total: 128, cls };
}
