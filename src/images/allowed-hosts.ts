import { isIPv6 } from 'node:net';
import { stripBrackets } from './address-policy.js';

/** One `imageHosts` entry: a host in canonical form, and the one port it allows (none: 80 and 443). */
export type AllowedHost = { host: string; port?: number };

// A bare entry names a web server, not every service on that machine.
const DEFAULT_PORTS: readonly number[] = [80, 443];

/**
 * Parses an allow-list entry: `host`, `host:port`, `[v6]`, `[v6]:port` or a bare IPv6
 * address; `undefined` for anything else (paths, credentials, bad ports), which must
 * match nothing rather than be widened to a guess.
 */
export function parseAllowedHost(entry: string): AllowedHost | undefined {
  const text = entry.trim().toLowerCase();
  if (isIPv6(text)) return hostOnly(text, undefined);
  const withPort = /^(.*):([0-9]+)$/.exec(text);
  if (!withPort) return hostOnly(text, undefined);
  const [, host = '', portText] = withPort;
  const port = Number(portText);
  if (!Number.isSafeInteger(port) || port < 1 || port > 65535) return undefined;
  return hostOnly(host, port);
}

/** Whether a URL's host and effective port are covered by one of the entries. */
export function allowsUrl(entries: readonly AllowedHost[], url: URL): boolean {
  const host = stripBrackets(url.hostname);
  const port = effectivePort(url);
  return entries.some((e) => e.host === host && (e.port === undefined ? DEFAULT_PORTS.includes(port) : e.port === port));
}

/** The port a URL connects to: its explicit port, else its scheme's default. */
export function effectivePort(url: URL): number {
  if (url.port) return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}

/** The host in the form the WHATWG URL parser gives it (so `2130706433` is `127.0.0.1`). */
function hostOnly(text: string, port: number | undefined): AllowedHost | undefined {
  const bare = stripBrackets(text);
  // A colon left outside an IPv6 literal is a second or empty port, which the URL parser
  // would quietly drop when it is the scheme's default.
  if (!bare || (bare.includes(':') && !isIPv6(bare))) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(`http://${isIPv6(bare) ? `[${bare}]` : bare}/`);
  } catch {
    return undefined;
  }
  // Anything the parser read as more than a host (a second port, a path, credentials)
  // was not a host name.
  if (parsed.port || parsed.username || parsed.password || parsed.href !== `http://${parsed.host}/`) return undefined;
  return port === undefined ? { host: stripBrackets(parsed.hostname) } : { host: stripBrackets(parsed.hostname), port };
}
