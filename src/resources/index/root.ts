import { resolveZone } from '../../dates/index.js';
import type { ResolvedOptions } from '../../options.js';

/** The namespace index as the namespace route answers it. */
interface NamespaceIndex {
  namespace: string;
  routes: Record<string, unknown>;
}

/**
 * The REST root's index (WordPress' `GET /wp-json/`), for the routes this calendar serves:
 * every response links the root as `https://api.w.org/`, and clients such as wpapi discover
 * routes there. The site fields describe the calendar's configuration; `namespaces` lists
 * only the calendar's own, as the root belongs to it only where the host mounts nothing else.
 */
export function rootIndex(index: NamespaceIndex, home: string, root: string, options: ResolvedOptions, now: Date): Record<string, unknown> {
  const zone = resolveZone(options.timezone);
  const offsetMinutes = zone ? zone.zone.offset(now.getTime()) : 0;
  return {
    name: new URL(home).hostname,
    description: '',
    url: home,
    home,
    gmt_offset: offsetMinutes / 60,
    timezone_string: zone?.kind === 'iana' ? options.timezone : '',
    namespaces: [index.namespace],
    authentication: {},
    routes: {
      '/': { namespace: '', methods: ['GET'], endpoints: [{ methods: ['GET'], args: { context: { default: 'view', required: false } } }], _links: { self: [{ href: root }] } },
      ...index.routes,
    },
    _links: { help: [{ href: 'https://developer.wordpress.org/rest-api/' }] },
  };
}
