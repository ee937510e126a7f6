/**
 * Imports everything of a source site into a store: categories (parents first), tags, venues,
 * organizers, then events with their links. With credentials, every status the account may
 * read is asked for explicitly (never `status=any`, which the original refuses in the paging
 * URLs it writes); an account that may not list other statuses is read as the public is.
 */
import type { ImportedKind } from '../store/database.js';
import type { Store } from '../store/index.js';
import { CATEGORIES, TAGS } from '../resources/terms/args.js';
import { importEvents } from './events.js';
import { importLinked, type PostImportOptions } from './linked.js';
import { ImportMap, sourceKey } from './map.js';
import type { AuthorMapping } from './posts.js';
import { emptyReport, type KindReport } from './report.js';
import { Source, SourceError, type SourceOptions } from './source.js';
import { importTerms } from './terms.js';

/** What to import from where, and how. */
export interface ImportCalendarOptions extends SourceOptions {
  /** The user here of each source author (a mapping file's content, or a callback). */
  authors?: Record<string, number> | AuthorMapping;
  /** The author of items whose source author has no user here (default 0: nobody). */
  fallbackAuthor?: number;
  /** Told how far each kind has come. */
  onProgress?: (kind: ImportedKind, done: number, total: number) => void;
}

/** What an import did, kind by kind. */
export interface ImportReport {
  source: string;
  kinds: Record<ImportedKind, KindReport>;
  seconds: number;
}

/** Every status an account that may read them can list (the original's `any`, spelled out). */
const ALL_STATUSES = 'publish,future,draft,pending,private';

/** Imports the source's calendar into `store`; safe to run again (it updates and adds) and to resume. */
export async function importCalendar(store: Store, options: ImportCalendarOptions): Promise<ImportReport> {
  const started = performance.now();
  const source = new Source(options);
  const key = sourceKey(options.root, options.namespace ?? 'tribe/events/v1');
  const map = new ImportMap(store.db, key);
  const given = options.authors;
  const authors: AuthorMapping = typeof given === 'function' ? given : given ? (id) => given[String(id)] : () => undefined;
  const kinds: ImportReport['kinds'] = { category: emptyReport(), tag: emptyReport(), venue: emptyReport(), organizer: emptyReport(), event: emptyReport() };
  const progress = (kind: ImportedKind) => (done: number, total: number) => options.onProgress?.(kind, done, total);
  const postOptions = (kind: ImportedKind, query: Record<string, string>): PostImportOptions => ({
    authors,
    fallbackAuthor: options.fallbackAuthor ?? 0,
    query,
    onProgress: progress(kind),
  });
  /** Runs a kind with every status, or as the public sees it when the account may not list them. */
  const withStatuses = async <T>(kind: ImportedKind, run: (query: Record<string, string>) => Promise<T>): Promise<T> => {
    if (!source.signedIn) return run({});
    try {
      return await run({ status: ALL_STATUSES });
    } catch (e) {
      if (!(e instanceof SourceError && e.status === 400 && e.code === 'rest_invalid_param')) throw e;
      kinds[kind].warnings.push('the account may not list unpublished items: published ones only');
      return run({});
    }
  };

  const categories = await importTerms(source, store, map, CATEGORIES, { onProgress: progress('category') });
  kinds.category = categories.report;
  const tags = await importTerms(source, store, map, TAGS, { onProgress: progress('tag') });
  kinds.tag = tags.report;
  const venues = await withStatuses('venue', (query) => importLinked(source, store, map, 'venue', postOptions('venue', query)));
  kinds.venue = { ...venues.report, warnings: [...kinds.venue.warnings, ...venues.report.warnings] };
  const organizers = await withStatuses('organizer', (query) => importLinked(source, store, map, 'organizer', postOptions('organizer', query)));
  kinds.organizer = { ...organizers.report, warnings: [...kinds.organizer.warnings, ...organizers.report.warnings] };
  const events = await withStatuses('event', (query) =>
    importEvents(source, store, map, { categories: categories.ids, tags: tags.ids, venues: venues.ids, organizers: organizers.ids }, postOptions('event', query)),
  );
  kinds.event = { ...events.report, warnings: [...kinds.event.warnings, ...events.report.warnings] };
  return { source: key, kinds, seconds: (performance.now() - started) / 1000 };
}
