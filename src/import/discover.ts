/**
 * What a source site is, read from its REST root's index (WordPress' `GET /wp-json/`, which
 * this library serves too) before anything is written: which namespace serves the events API
 * (the original's `tribe/events/v1`, this library's `calendar/events/v1` or another it was
 * configured with), and whether the site is WordPress, whose own collections (`wp/v2/…`) are
 * then read as well. An import that cannot find an events API stops here, with the namespaces
 * the source does serve, rather than after migrating its target.
 */
import { Source, SourceError, type SourceOptions } from './source.js';

/** The original plugin's namespace: preferred when a site serves several events APIs. */
export const ORIGINAL_NAMESPACE = 'tribe/events/v1';

/** What the import learnt of its source. */
export interface SourceSite {
  /** The namespace of its events API, e.g. `tribe/events/v1`. */
  namespace: string;
  /** Whether it is WordPress (its index lists `wp/v2`), or could not be told (index unreadable): its own collections are read. */
  wordpress: boolean;
  /** Whether the namespace was found in the index rather than given. */
  detected: boolean;
}

/** A source that serves no events API where it was pointed. */
export class NotAnEventsApi extends SourceError {}

/** Tries of the index: a REST root that answers a web page is a wrong root, not a failing one. */
const INDEX_ATTEMPTS = 3;

/** `tribe/events/v1` without the slashes a user may add around it. */
const trimmed = (namespace: string) => namespace.replace(/^\/+|\/+$/g, '');

/** The fields of the index the import reads, when the answer has the shape of a REST root's index. */
function indexOf(body: unknown): { namespaces: string[]; routes?: Record<string, unknown> } | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const { namespaces, routes } = body as { namespaces?: unknown; routes?: unknown };
  if (!Array.isArray(namespaces)) return undefined;
  return {
    namespaces: namespaces.filter((n): n is string => typeof n === 'string'),
    routes: typeof routes === 'object' && routes !== null ? (routes as Record<string, unknown>) : undefined,
  };
}

/**
 * The namespaces of an index that serve events: those with an `/events` route, or, in an index
 * without routes, those named like an events API (`…/events/v1`).
 */
function eventsNamespaces({ namespaces, routes }: { namespaces: string[]; routes?: Record<string, unknown> }): string[] {
  return namespaces.filter((n) => (routes ? Object.hasOwn(routes, `/${n}/events`) : /(^|\/)events\/v\d+$/.test(n)));
}

/** The advice that closes a message: the namespace to give, or what to check. */
function advice(found: string[]): string {
  if (found.length === 1) return `set the namespace to ${found[0]} (--namespace ${found[0]})`;
  if (found.length > 1) return `choose one with the namespace option (--namespace ${found[0]})`;
  return 'check that the REST root is the one of a site serving the events calendar API';
}

/** The namespace to import from an index, or why none fits. */
function chosen(root: string, index: { namespaces: string[]; routes?: Record<string, unknown> }, given: string | undefined): string {
  const found = eventsNamespaces(index);
  const listed = index.namespaces.length ? index.namespaces.join(', ') : 'none';
  if (given !== undefined) {
    if (index.namespaces.includes(given)) return given;
    throw new NotAnEventsApi(`${root} serves no ${given} (its index lists the namespaces ${listed}): ${advice(found)}`, `${root}/`);
  }
  if (found.includes(ORIGINAL_NAMESPACE)) return ORIGINAL_NAMESPACE;
  const [only] = found;
  if (found.length === 1 && only !== undefined) return only;
  if (only === undefined) throw new NotAnEventsApi(`${root} serves no events API (its index lists the namespaces ${listed}): ${advice(found)}`, `${root}/`);
  throw new NotAnEventsApi(`${root} serves several events APIs (${found.join(', ')}): ${advice(found)}`, `${root}/`);
}

/** What went wrong reading the source, for a message; anything else than the source failing is thrown on. */
function sourceFailure(e: unknown): string {
  if (e instanceof SourceError) return e.message;
  throw e;
}

/**
 * Reads the source's REST index and tells which namespace to import and whether the site is
 * WordPress; `options.namespace`, when given, must be one it lists. A source whose index
 * cannot be read (some sites hide it) is checked through its namespace's own index instead
 * (`GET {root}/{namespace}`), and counts as WordPress. Throws {@link NotAnEventsApi} (a
 * {@link SourceError}) when no events API answers there, naming what does.
 */
export async function discoverSource(options: SourceOptions): Promise<SourceSite> {
  const given = options.namespace === undefined ? undefined : trimmed(options.namespace);
  const source = new Source({ ...options, attempts: Math.min(options.attempts ?? INDEX_ATTEMPTS, INDEX_ATTEMPTS) });
  const root = options.root.replace(/\/+$/, '');
  try {
    let why: string;
    try {
      const { body } = await source.fromRoot('/');
      const index = indexOf(body);
      if (index) return { namespace: chosen(root, index, given), wordpress: index.namespaces.includes('wp/v2'), detected: given === undefined };
      const namespace = typeof body === 'object' && body !== null && 'namespace' in body ? body.namespace : undefined;
      // A namespace's own index: the user gave the API's base rather than the REST root.
      if (typeof namespace === 'string' && root.endsWith(`/${namespace}`))
        throw new NotAnEventsApi(`${root} is the ${namespace} API, not a REST root: import from ${root.slice(0, -namespace.length - 1)}`, `${root}/`);
      why = `GET ${root}/ answered no REST index`;
    } catch (e) {
      if (e instanceof NotAnEventsApi) throw e;
      why = sourceFailure(e);
      // A web page where the index should be: most often the site's address given for its REST root.
      if (e instanceof SourceError && e.status === 200) why += ` (a web page: a WordPress site's REST root is ${root}/wp-json)`;
    }
    const namespace = given ?? ORIGINAL_NAMESPACE;
    try {
      const { body } = await source.fromRoot(`/${namespace}`);
      // Whether it is WordPress cannot be told: its collections are tried, as before indexes were read.
      if (typeof body === 'object' && body !== null && 'namespace' in body && body.namespace === namespace)
        return { namespace, wordpress: true, detected: false };
      throw new NotAnEventsApi(`${root}/${namespace} is not the index of an events API`, `${root}/${namespace}`);
    } catch (e) {
      const more = e instanceof NotAnEventsApi ? e.message : sourceFailure(e);
      throw new NotAnEventsApi(`${root} does not answer as an events API: ${why}, and ${more}; ${advice([])} (and its namespace)`, `${root}/`);
    }
  } finally {
    source.close();
  }
}
