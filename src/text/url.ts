/**
 * URL validation and cleaning: PHP's `FILTER_VALIDATE_URL` (the "URL or empty"
 * validator of writes), WordPress' `esc_url_raw` (how a website is stored) and the
 * HTML escaping of the event `website` on output.
 */
import { phpEmpty } from '../php/empty.js';
import { isIPv6 } from 'node:net';
import { escapeHtml } from './entities.js';

/** WordPress' `wp_allowed_protocols()`: the URL schemes links may use. */
export const ALLOWED_PROTOCOLS: ReadonlySet<string> = new Set([
  'http',
  'https',
  'ftp',
  'ftps',
  'mailto',
  'news',
  'irc',
  'irc6',
  'ircs',
  'gopher',
  'nntp',
  'feed',
  'telnet',
  'mms',
  'rtsp',
  'sms',
  'svn',
  'tel',
  'fax',
  'xmpp',
  'webcal',
  'urn',
]);

/** The parts of `parse_url` that validation looks at. */
interface ParsedUrl {
  scheme?: string;
  host?: string;
  user?: string;
  pass?: string;
}

/**
 * The "URL or empty" validator: PHP-empty values (`""`, `"0"`, `null`, `false`, `0`,
 * empty array/object) pass; otherwise `filter_var($value, FILTER_VALIDATE_URL)` must
 * accept the string form (`foo` fails, `http://example.com` passes).
 */
export function isUrlOrEmpty(value: unknown): boolean {
  if (phpEmpty(value)) return true;
  if (typeof value === 'number') return validateUrl(String(value));
  if (typeof value === 'boolean') return validateUrl('1');
  return typeof value === 'string' && validateUrl(value);
}

/** PHP's `FILTER_VALIDATE_URL` (no flags) as of PHP 8. */
export function validateUrl(url: string): boolean {
  // php_filter_url: any character outside this set makes validation fail.
  if (!/^[A-Za-z0-9$\-_.+!*'(),{}|\\^~[\]`<>#%";/?:@&=]*$/.test(url)) return false;
  const parsed = parsePhpUrl(url);
  if (parsed === null || parsed.scheme === undefined) return false;
  const scheme = parsed.scheme.toLowerCase();
  if (scheme === 'http' || scheme === 'https') {
    if (parsed.host === undefined) return false;
    const host = parsed.host;
    const bracketed = host.startsWith('[') && host.endsWith(']');
    // PHP's IPv6 check knows no zone index (`%eth0`), Node's does.
    const ipv6 = bracketed && !host.includes('%') && isIPv6(host.slice(1, -1));
    if (!ipv6 && !isValidHostname(host)) return false;
  }
  // mailto:, news: and file: may have no host (PHP compares the scheme case-sensitively here).
  if (parsed.host === undefined && !['mailto', 'news', 'file'].includes(parsed.scheme)) return false;
  if (parsed.user !== undefined && !isValidUserinfo(parsed.user)) return false;
  if (parsed.pass !== undefined && !isValidUserinfo(parsed.pass)) return false;
  return true;
}

/**
 * `_php_filter_validate_domain` with `FILTER_FLAG_HOSTNAME`: labels of letters, digits and
 * `-`, each starting and ending with a letter or digit — except that upstream never checks
 * the last character of the last label (`http://example-` passes).
 */
function isValidHostname(host: string): boolean {
  const end = host.endsWith('.') ? host.length - 1 : host.length;
  if (end > 253 || !isAlnum(host[0])) return false;
  let labelLength = 1;
  for (let i = 0; i < end; i++) {
    if (host[i] === '.') {
      if (!isAlnum(host[i - 1]) || !isAlnum(host[i + 1])) return false;
      labelLength = 1;
    } else {
      if (labelLength > 63 || (host[i] !== '-' && !isAlnum(host[i]))) return false;
      labelLength++;
    }
  }
  return true;
}

function isAlnum(c: string | undefined): boolean {
  return c !== undefined && /^[A-Za-z0-9]$/.test(c);
}

/** PHP's `is_userinfo_valid`. */
function isValidUserinfo(part: string): boolean {
  return /^(?:[A-Za-z0-9\-._~!$&'()*+,;=:]|%[0-9][0-9A-Fa-f])*$/.test(part);
}

/**
 * What PHP's `parse_url` (`php_url_parse_ex2`) finds as scheme and authority, reduced to
 * what validation needs: `null` where PHP fails, and no `scheme` for every input PHP
 * parses as scheme-less (`host:80`, `//host`, paths), which validation rejects anyway.
 */
function parsePhpUrl(url: string): ParsedUrl | null {
  const colon = url.indexOf(':');
  if (colon <= 0) return {};
  const scheme = url.slice(0, colon);
  if (!/^[A-Za-z0-9+.-]+$/.test(scheme)) return {};
  const afterColon = url.slice(colon + 1);
  if (afterColon === '') return { scheme };
  if (afterColon[0] !== '/') {
    // `name:8080` (up to 5 digits, then the end or a slash) is a host and port.
    if (/^[0-9]{0,5}(?:\/|$)/.test(afterColon)) return {};
    return { scheme }; // `mailto:x`: a path only
  }
  if (afterColon[1] !== '/') return { scheme }; // `http:/x`: a path only
  if (scheme.toLowerCase() === 'file' && afterColon[2] === '/') return { scheme };
  const authority = parseAuthority(url.slice(colon + 3));
  return authority === null ? null : { scheme, ...authority };
}

/** The `parse_host` part of `php_url_parse_ex2`, on the text after `scheme://`. */
function parseAuthority(rest: string): Omit<ParsedUrl, 'scheme'> | null {
  const result: Omit<ParsedUrl, 'scheme'> = {};
  const end = rest.search(/[/?#]/);
  let hostPart = end === -1 ? rest : rest.slice(0, end);
  const at = hostPart.lastIndexOf('@');
  if (at !== -1) {
    const userinfo = hostPart.slice(0, at);
    const sep = userinfo.indexOf(':');
    result.user = sep === -1 ? userinfo : userinfo.slice(0, sep);
    if (sep !== -1) result.pass = userinfo.slice(sep + 1);
    hostPart = hostPart.slice(at + 1);
  }
  const ipv6 = hostPart.startsWith('[') && hostPart.endsWith(']');
  const portColon = ipv6 ? -1 : hostPart.lastIndexOf(':');
  if (portColon !== -1) {
    const port = hostPart.slice(portColon + 1);
    if (port.length > 5) return null;
    if (port.length > 0) {
      // strtol: leading digits are enough (`:8x` is port 8); none at all is an error.
      const digits = /^[+-]?\d+/.exec(port);
      if (digits === null || Number(digits[0]) < 0 || Number(digits[0]) > 65535) return null;
    }
    hostPart = hostPart.slice(0, portColon);
  }
  if (hostPart === '') return null;
  result.host = hostPart;
  return result;
}

/**
 * WordPress' `esc_url_raw`: leading white space trimmed, spaces → `%20`, characters
 * outside the URL set removed, `%0a`/`%0d` removed (except `mailto:`), `http://` added
 * to scheme-less hosts, and `""` when the scheme is not an allowed protocol
 * (`javascript:alert(1)` → `""`).
 */
export function sanitizeUrl(value: string): string {
  if (value === '') return '';
  let url = value.replace(/^[ \t\n\r\0\x0B]+/, '').replace(/ /g, '%20');
  // Non-ASCII stays (upstream keeps the bytes \x80-\xff, i.e. any UTF-8 character).
  url = url.replace(/[^a-z0-9\-~+_.?#=!&;,/:%@$|*'()[\]\u0080-\uffff]/gi, '');
  if (url === '') return '';
  if (!/^mailto:/i.test(url)) url = deepRemove(url, ['%0d', '%0a', '%0D', '%0A']);
  url = url.split(';//').join('://');
  if (!url.includes(':') && !['/', '#', '?'].includes(url.charAt(0)) && !/^[a-z0-9-]+?\.php/i.test(url)) {
    url = `http://${url}`;
  }
  if (url.includes('[') || url.includes(']')) url = encodeBracketsAfterHost(url);
  if (url[0] === '/') return url;
  return hasAllowedProtocol(url) ? url : '';
}

/** `_deep_replace`: removes the needles until none is left (`%0%0aa` → ``). */
function deepRemove(text: string, needles: readonly string[]): string {
  let s = text;
  let before: string;
  do {
    before = s;
    for (const needle of needles) s = s.split(needle).join('');
  } while (s !== before);
  return s;
}

/** `[` and `]` are only kept in the host part (IPv6 literals); elsewhere they are percent-encoded. */
function encodeBracketsAfterHost(url: string): string {
  const m = /^([A-Za-z][A-Za-z0-9+.-]*:\/\/)?([^/?#]*)/.exec(url);
  const front = m === null ? '' : m[0];
  return front + url.slice(front.length).replace(/\[/g, '%5B').replace(/\]/g, '%5D');
}

/**
 * Whether `url` is relative or uses an allowed scheme, decided the way `wp_kses_bad_protocol`
 * does for `esc_url`: the text before the first `:` (ignoring white space, case-insensitive)
 * must be an allowed protocol.
 */
function hasAllowedProtocol(url: string): boolean {
  const colon = url.indexOf(':');
  if (colon === -1) return true;
  const scheme = url.slice(0, colon);
  // Upstream does not treat text containing "/?" before the colon as a scheme.
  if (scheme.includes('/?')) return true;
  return ALLOWED_PROTOCOLS.has(scheme.replace(/[\t\n\v\f\r ]/g, '').toLowerCase());
}

/** The event `website` as output: HTML-escaped like `esc_attr` (`&` → `&amp;`, quotes and `<>` too, entities kept). */
export function escapeWebsite(url: string): string {
  return escapeHtml(url, 'both');
}
