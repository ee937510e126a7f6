import { resolveZone } from '../../dates/index.js';
import type { Urls } from '../../http/urls.js';

/** The namespace index as the namespace route answers it. */
interface NamespaceIndex {
  namespace: string;
  routes: Record<string, unknown>;
}

/** The namespace index in the JSON the namespace route answered (the pipeline hands it over parsed). */
function namespaceIndex(json: unknown): NamespaceIndex {
  const { namespace, routes } = typeof json === 'object' && json !== null ? (json as Partial<Record<keyof NamespaceIndex, unknown>>) : {};
  if (typeof namespace !== 'string' || typeof routes !== 'object' || routes === null)
    throw new TypeError('calendar: the namespace index has no namespace or routes');
  return { namespace, routes: { ...routes } };
}

/**
 * The REST root's index (WordPress' `GET /wp-json/`), for the routes this calendar serves:
 * every response links the root as `https://api.w.org/`, and clients such as wpapi discover
 * routes there. The site fields describe the calendar's configuration; `namespaces` lists
 * only the calendar's own, as the root belongs to it only where the host mounts nothing else.
 */
export function rootIndex(json: unknown, { home, root }: Pick<Urls, 'home' | 'root'>, timezone: string, now: Date): Record<string, unknown> {
  const index = namespaceIndex(json);
  const zone = resolveZone(timezone);
  const offsetMinutes = zone ? zone.zone.offset(now.getTime()) : 0;
  return {
    name: new URL(home).hostname,
    description: '',
    url: home,
    home,
    gmt_offset: offsetMinutes / 60,
    timezone_string: zone?.kind === 'iana' ? timezone : '',
    namespaces: [index.namespace],
    authentication: {},
    routes: {
      '/': {
        namespace: '',
        methods: ['GET'],
        endpoints: [{ methods: ['GET'], args: { context: { default: 'view', required: false } } }],
        _links: { self: [{ href: root }] },
      },
      ...index.routes,
    },
    _links: { help: [{ href: 'https://developer.wordpress.org/rest-api/' }] },
  };
}
