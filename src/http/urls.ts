import type { Permalinks } from './permalinks.js';
import type { CoreRequest } from './types.js';

/** The absolute URLs a response is built from (spec naming: `{home}`, `{root}`, `{base}`). */
export interface Urls {
  /** Site home, no trailing slash. */
  home: string;
  /** REST root of the mount, with a trailing slash. */
  root: string;
  /** `{root}{namespace}`, no trailing slash. */
  base: string;
  /** `{home}` without scheme and port, for global ids. */
  globalIdOrigin: string;
  /** The host's public pages of items (the `permalinks` option), where it set them. */
  permalinks?: Permalinks;
}

const HOST = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

function first(v: string | string[] | undefined): string | undefined {
  const s = Array.isArray(v) ? v[0] : v;
  const [head = ''] = s?.split(',') ?? [];
  return s === undefined ? undefined : head.trim();
}

/** A path prefix as a proxy sends it (`/blog`): segments of URL path characters, none of them `.` or `..`. */
const PREFIX = /^(?:\/(?!\.\.?(?:\/|$))[\w.~!$&'()*+,;=:@%-]+)*\/?$/;

/**
 * The home URL: configured, or from the request's (validated) host. Behind a trusted proxy,
 * its `X-Forwarded-Proto`, `-Host` and `-Prefix` (the path the proxy serves the app under,
 * `/blog` for `https://example.org/blog/wp-json`) say where clients see the site.
 */
function homeFrom(req: CoreRequest, baseUrl: string | undefined, trustProxy: boolean): string {
  if (baseUrl) return baseUrl.replace(/\/+$/, '');
  let proto = req.protocol ?? 'http';
  let host = first(req.headers.host);
  let prefix = '';
  if (trustProxy) {
    const fp = first(req.headers['x-forwarded-proto'])?.toLowerCase();
    if (fp === 'http' || fp === 'https') proto = fp;
    host = first(req.headers['x-forwarded-host']) ?? host;
    prefix = forwardedPrefix(first(req.headers['x-forwarded-prefix']));
  }
  // A Host header that is not a host name (or names a port or address no URL can hold,
  // such as `:99999` or `[:::::]`) never reaches a URL.
  return `${proto}://${usableHost(host, proto) ?? 'localhost'}${prefix}`;
}

/** The proxy's path prefix without its trailing slash (`""` for none); one that is not a plain path is ignored. */
function forwardedPrefix(value: string | undefined): string {
  return value && PREFIX.test(value) ? value.replace(/\/+$/, '') : '';
}

/**
 * What was found of the hosts and homes seen so far: a server sees few, and parsing them as
 * URLs was most of building a request's URLs (two `new URL` per request, profiled). Plain maps
 * emptied when full: any Host header may be sent.
 */
const USABLE_HOSTS = new Map<string, string | null>();
const ID_ORIGINS = new Map<string, string>();
const SEEN_ENTRIES = 256;

/** Keeps `value` under `key` (emptying `map` first when full) and gives it back. */
function remember<V>(map: Map<string, V>, key: string, value: V): V {
  if (map.size >= SEEN_ENTRIES) map.clear();
  map.set(key, value);
  return value;
}

function usableHost(host: string | undefined, proto: string): string | undefined {
  if (!host) return undefined;
  const url = `${proto}://${host}`;
  let usable = USABLE_HOSTS.get(url);
  if (usable === undefined) usable = remember(USABLE_HOSTS, url, judgedHost(host, url));
  return usable ?? undefined;
}

/** `host` in lower case when it is a host name a URL (`url`, with it) can hold, else `null`. */
function judgedHost(host: string, url: string): string | null {
  if (!HOST.test(host)) return null;
  try {
    new URL(url);
    return host.toLowerCase();
  } catch {
    return null;
  }
}

/** The host and path of `home` (no trailing slash), which global ids start with. */
function idOrigin(home: string): string {
  const seen = ID_ORIGINS.get(home);
  if (seen !== undefined) return seen;
  const parsed = new URL(home);
  return remember(ID_ORIGINS, home, `${parsed.hostname}${parsed.pathname.replace(/\/+$/, '')}`);
}

/** Normalises a mount root to `/segment/...` without a trailing slash (`""` for the site root). */
export function normalizeRoot(root: string): string {
  const trimmed = root.replace(/^\/+|\/+$/g, '');
  return trimmed ? `/${trimmed}` : '';
}

/** Builds the URLs of one request. */
export function urlsFor(req: CoreRequest, namespace: string, baseUrl: string | undefined, trustProxy: boolean, permalinks?: Permalinks): Urls {
  const home = homeFrom(req, baseUrl, trustProxy);
  const root = `${home}${normalizeRoot(req.root)}/`;
  return {
    home,
    root,
    base: `${root}${namespace}`,
    globalIdOrigin: idOrigin(home),
    permalinks,
  };
}
