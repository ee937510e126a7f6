/**
 * Imports everything of a source site into a store: categories (parents first), tags, venues,
 * organizers, then events with their links and images. With credentials, every status the
 * account may read is asked for explicitly (never `status=any`, which the original refuses in
 * the paging URLs it writes); an account that may not list other statuses is read as the public
 * is.
 */
import { HostFields } from '../fields/values.js';
import { FieldRegistry } from '../fields/registry.js';
import type { FieldsOption } from '../fields/declare.js';
import type { ImportedKind } from '../store/database.js';
import type { Store } from '../resources/store.js';
import { CATEGORIES, TAGS } from '../resources/terms/args.js';
import { importEvents } from './events.js';
import { ImageImporter, type ImageImportOptions } from './images.js';
import { importLinked, type KindImport } from './linked.js';
import { ImportMap, sourceKey } from './map.js';
import type { AuthorMapping } from './types.js';
import { emptyReport, type KindReport } from './report.js';
import type { ImportRun } from './run.js';
import type { ImportedPostKind } from './types.js';
import { Source, SourceError, type SourceOptions } from './source.js';
import { discoverSource, ORIGINAL_NAMESPACE, type SourceSite } from './discover.js';
import { importTerms } from './terms.js';
import { resolveOptions, type CalendarOptions } from '../options.js';
import { SeriesService } from '../recurrence/series.js';
import { readCollection } from './wordpress.js';
import type { CollectionFacts } from './types.js';

/** What to import from where, and how. */
export interface ImportCalendarOptions extends SourceOptions {
  /** The fields the calendar declares (its `fields` option): a source item's keys of those names are copied, checked by them. */
  fields?: FieldsOption;
  /** The user here of each source author (a mapping file's content, or a callback). */
  authors?: Record<string, number> | AuthorMapping;
  /** The author of items whose source author has no user here (default 0: nobody). */
  fallbackAuthor?: number;
  /** Write nothing: read the whole source and report what a run would create, update and leave. */
  dryRun?: boolean;
  /** Leave as they are the items the source modified before this instant (terms, which have no dates, are always read). */
  since?: Date;
  /** New items take their source id where it is free here (best into an empty store), so that old links keep working. */
  keepIds?: boolean;
  /**
   * Keep the source's HTML in titles, descriptions and excerpts as an administrator's write
   * (`unfiltered_html`) keeps it; by default it is filtered as an author's write is.
   */
  keepHtml?: boolean;
  /** How featured images are side-loaded (the calendar's image policy), or `false` not to copy them. */
  images?: ImageImportOptions | false;
  /** The calendar's `recurrence` options (its id base and limits), for the series imported. */
  recurrence?: CalendarOptions['recurrence'];
  /** Told how far each kind has come. */
  onProgress?: (kind: ImportedKind, done: number, total: number) => void;
}

/** What an import did, kind by kind. */
export interface ImportReport {
  source: string;
  kinds: Record<ImportedKind, KindReport>;
  seconds: number;
  dryRun: boolean;
}

/** Every status an account that may read them can list (the original's `any`, spelled out). */
const ALL_STATUSES = 'publish,future,draft,pending,private';

/** `date` as the source's UTC wall clock (`modified_utc`). */
const utcWallClock = (date: Date) => date.toISOString().slice(0, 19).replace('T', ' ');

/**
 * The settings and shared state of a run into `store` (options checked), and its report per
 * kind; `site` is what {@link discoverSource} found (by default: the namespace given, else the
 * original's, on WordPress).
 */
export function prepareRun(
  store: Store,
  options: ImportCalendarOptions,
  site: SourceSite = { namespace: options.namespace ?? ORIGINAL_NAMESPACE, wordpress: true, detected: false },
): { run: ImportRun; kinds: ImportReport['kinds'] } {
  const source = new Source({ ...options, namespace: site.namespace });
  const given = options.authors;
  if (options.since !== undefined && Number.isNaN(options.since.getTime())) throw new RangeError('import: since is not a date');
  const kinds: ImportReport['kinds'] = {
    category: emptyReport(),
    tag: emptyReport(),
    venue: emptyReport(),
    organizer: emptyReport(),
    event: emptyReport(),
    image: emptyReport(),
  };
  const run: ImportRun = {
    source,
    store,
    map: new ImportMap(store.db, sourceKey(options.root, site.namespace)),
    wordpress: site.wordpress,
    now: new Date(),
    authors: typeof given === 'function' ? given : given ? (id) => given[String(id)] : () => undefined,
    fallbackAuthor: options.fallbackAuthor ?? 0,
    dryRun: options.dryRun ?? false,
    keepIds: options.keepIds ?? false,
    keepHtml: options.keepHtml ?? false,
    since: options.since && utcWallClock(options.since),
    // Images on the source's own origin come as its pages do; elsewhere they face the image policy and the hosts allowed.
    images:
      options.images === false
        ? undefined
        : new ImageImporter({ ...options.images, hosts: [...(options.images?.hosts ?? []), ...source.policy.allowHosts, source.policy.originHost] }),
    series: new SeriesService(resolveOptions({ db: store.db, recurrence: options.recurrence }).recurrence),
    fields: new HostFields(new FieldRegistry(options.fields)),
    imageReport: kinds.image,
    query: {},
    collections: new Map(),
    deferred: new Map([
      ['venue', new Map()],
      ['organizer', new Map()],
    ]),
    onProgress: options.onProgress,
  };
  return { run, kinds };
}

/**
 * Imports the source's calendar into `store`; safe to run again (it updates and adds) and to
 * resume. `site` is what {@link discoverSource} found, read from the source when not given.
 */
export async function importCalendar(store: Store, options: ImportCalendarOptions, site?: SourceSite): Promise<ImportReport> {
  const started = performance.now();
  const { run, kinds } = prepareRun(store, options, site ?? (await discoverSource(options)));
  const { source } = run;

  /**
   * Runs a post kind with every status (or as the public sees it when the account may not list
   * them), after reading what WordPress' own collection tells of it: the protected items, and
   * for events the ids the API's archive leaves out.
   */
  const postKind = async <T extends KindImport>(kind: ImportedPostKind, importKind: (facts: CollectionFacts | undefined) => Promise<T>): Promise<T> => {
    const notes: string[] = [];
    const attempt = async (statuses: string | undefined) => {
      // Beside this library (or another source that is not WordPress) there is no such collection to ask for.
      const facts = run.wordpress ? await readCollection(source, kind, statuses) : undefined;
      if (typeof facts === 'string') {
        const missing =
          kind === 'event'
            ? 'events hidden from listings are not imported, and password-protected ones only where the API shows them whole'
            : 'password-protected ones are imported only where the API shows them whole';
        notes.push(`WordPress' own collection of ${kind}s could not be read (${facts}): ${missing}`);
        run.collections.delete(kind);
      } else if (facts) {
        run.collections.set(kind, facts);
      }
      const known = typeof facts === 'string' ? undefined : facts;
      // Protected items are asked for whole only when their passwords are known, so that none
      // becomes readable here without its password.
      run.query = { ...(statuses ? { status: statuses } : {}), ...(known?.passwords ? { context: 'edit' } : {}) };
      return importKind(known);
    };
    let result: T;
    if (!source.signedIn) result = await attempt(undefined);
    else {
      try {
        result = await attempt(ALL_STATUSES);
      } catch (e) {
        if (!(e instanceof SourceError && e.status === 400 && e.code === 'rest_invalid_param')) throw e;
        notes.length = 0;
        notes.push('the account may not list unpublished items: published ones only');
        result = await attempt(undefined);
      }
    }
    if (!run.wordpress && kind === 'event') notes.push('the source is not WordPress (its index lists no wp/v2): events hidden from listings are not imported');
    result.report.warnings.unshift(...notes);
    // The same report: venues and organizers an event pulls in under `since` count with their kind.
    kinds[kind] = result.report;
    return result;
  };

  const terms = async (kind: typeof CATEGORIES | typeof TAGS) => {
    const result = await importTerms(run, kind, (done, total) => options.onProgress?.(kind.key, done, total));
    kinds[kind.key] = result.report;
    return result.ids;
  };
  try {
    const categories = await terms(CATEGORIES);
    const tags = await terms(TAGS);
    const venues = await postKind('venue', () => importLinked(run, 'venue'));
    const organizers = await postKind('organizer', () => importLinked(run, 'organizer'));
    await postKind('event', (facts) => importEvents(run, { categories, tags, venues, organizers }, facts ? [...facts.items.keys()] : []));
  } finally {
    source.close();
  }
  return { source: run.map.source, kinds, seconds: (performance.now() - started) / 1000, dryRun: run.dryRun };
}
