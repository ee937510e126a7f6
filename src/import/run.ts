/** What every importer of one run shares: where it reads and writes, and how. */
import type { HostFields } from '../fields/values.js';
import type { ImportedPostKind } from './types.js';
import type { Store } from '../resources/store.js';
import type { ImageImporter } from './images.js';
import type { SeriesService } from '../recurrence/series.js';
import type { ImportMap } from './map.js';
import type { AuthorMapping } from './types.js';
import type { KindReport } from './report.js';
import type { Source } from './source.js';
import type { CollectionFacts } from './types.js';

/** One import run's settings and shared state. */
export interface ImportRun {
  source: Source;
  store: Store;
  /** The record of what this source's items became. */
  map: ImportMap;
  now: Date;
  authors: AuthorMapping;
  /** The author of items whose source author has no user here. */
  fallbackAuthor: number;
  /** Nothing is written: the report says what a run would do. */
  dryRun: boolean;
  /** New items take their source id where it is free here. */
  keepIds: boolean;
  /** Titles and texts keep the source's HTML as an administrator's write would (else filtered as an author's). */
  keepHtml: boolean;
  /** Items the source modified before this UTC time (`YYYY-MM-DD HH:MM:SS`) are left as they are. */
  since?: string;
  /** The fields the calendar declares: copied from source items that have keys of those names. */
  fields: HostFields;
  /** The rules and index of recurring events here (the calendar's default recurrence options). */
  series: SeriesService;
  /** Side-loads featured images; absent: images are not copied. */
  images?: ImageImporter;
  /** What became of the images. */
  imageReport: KindReport;
  /** The query of post archives: explicit statuses, `context=edit` when signed in. */
  query: Record<string, string>;
  /** Whether the source is WordPress: its own collections (`wp/v2/…`) are read beside the API. */
  wordpress: boolean;
  /** What WordPress' own collection of each kind told (protected items, passwords), where it could be read. */
  collections: Map<ImportedPostKind, CollectionFacts>;
  /** Venues and organizers left out under `since` and never imported, in case an event links them. */
  deferred: Map<'venue' | 'organizer', Map<number, Record<string, unknown>>>;
  /** Told how many items of a kind were read, of how many. */
  onProgress?: (kind: ImportedPostKind, done: number, total: number) => void;
}
