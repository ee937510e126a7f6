/**
 * Imports a source's venues or organizers: each becomes the item it became last time (updated
 * when the source changed it since), or a new one; in one transaction per item, with its record.
 */
import type { Store } from '../store/index.js';
import type { ImportMap } from './map.js';
import { freeSlug, importPost, postColumns, sourcePost, type AuthorMapping } from './posts.js';
import { emptyReport, type KindReport } from './report.js';
import type { Source } from './source.js';

/** How items of the source are read and written. */
export interface PostImportOptions {
  authors: AuthorMapping;
  /** The author of items whose source author has no user here. */
  fallbackAuthor: number;
  /** The source's archive query (explicit statuses when signed in). */
  query: Record<string, string | number>;
  now?: Date;
  /** Told how many items of the kind were read, of how many. */
  onProgress?: (done: number, total: number) => void;
}

const text = (item: Record<string, unknown>, key: string) => (typeof item[key] === 'string' ? (item[key] as string) : '');
const flag = (item: Record<string, unknown>, key: string) => (item[key] === true ? 1 : 0);

/** A coordinate the source shows, if it is one. */
function coordinate(value: unknown, most: number): number | null {
  const n = Number(value);
  return value !== undefined && value !== null && value !== '' && Number.isFinite(n) && Math.abs(n) <= most ? n : null;
}

/** A venue's details as the source shows them. */
function venueDetails(item: Record<string, unknown>) {
  return {
    address: text(item, 'address'),
    city: text(item, 'city'),
    country: text(item, 'country'),
    province: text(item, 'province'),
    state: text(item, 'state'),
    zip: text(item, 'zip'),
    phone: text(item, 'phone'),
    stateprovince: text(item, 'stateprovince'),
    website: text(item, 'website'),
    show_map: flag(item, 'show_map'),
    show_map_link: flag(item, 'show_map_link'),
    geo_lat: coordinate(item.geo_lat, 90),
    geo_lng: coordinate(item.geo_lng, 180),
  };
}

/** An organizer's details as the source shows them. */
const organizerDetails = (item: Record<string, unknown>) => ({ phone: text(item, 'phone'), website: text(item, 'website'), email: text(item, 'email') });

/** Writes the details of an imported item (`update`: it has some already). */
async function saveDetails(tx: Store, kind: 'venue' | 'organizer', id: number, item: Record<string, unknown>, update: boolean): Promise<void> {
  if (kind === 'venue') {
    const details = venueDetails(item);
    await (update ? tx.venues.updateDetails(id, details) : tx.venues.insertDetails(id, details));
  } else {
    const details = organizerDetails(item);
    await (update ? tx.organizers.updateDetails(id, details) : tx.organizers.insertDetails(id, details));
  }
}

/** Where each kind is listed at the source, and the key of its title. */
const KINDS = { venue: { archive: 'venues', titleKey: 'venue' }, organizer: { archive: 'organizers', titleKey: 'organizer' } } as const;

/** Imports the venues or organizers of the source; the source ids and the items they became. */
export async function importLinked(source: Source, store: Store, map: ImportMap, kind: 'venue' | 'organizer', options: PostImportOptions): Promise<{ ids: Map<number, number>; report: KindReport }> {
  const report = emptyReport();
  const ids = new Map<number, number>();
  const shape = KINDS[kind];
  const now = options.now ?? new Date();
  let done = 0;
  for await (const page of source.pages(shape.archive, options.query)) {
    for (const item of page.items) {
      const post = sourcePost(item, shape.titleKey);
      if (!post) {
        const id = typeof item === 'object' && item !== null && 'id' in item && typeof item.id === 'number' ? item.id : undefined;
        report.skipped.push({ sourceId: id, reason: `not a ${kind} (no id or dates)` });
        continue;
      }
      const fields = item as Record<string, unknown>;
      await importPost(
        store,
        map,
        post,
        {
          kind,
          get: (tx, id) => (kind === 'venue' ? tx.venues : tx.organizers).get(id, { lock: true }),
          write: async (tx, existing) => {
            const columns = postColumns(kind, post, options.authors, options.fallbackAuthor, report);
            const slug = await freeSlug(tx, kind, post.slug, existing, report, post.id);
            if (existing !== undefined) await tx.posts.update(existing, { ...columns, slug });
            const id = existing ?? (await tx.posts.insert({ ...columns, slug, status_before_trash: null, password: null, menu_order: 0, parent: 0, image_id: null }));
            await saveDetails(tx, kind, id, fields, existing !== undefined);
            return id;
          },
        },
        now,
        ids,
        report,
      );
    }
    done += page.items.length;
    options.onProgress?.(done, page.total);
  }
  return { ids, report };
}
