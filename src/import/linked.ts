/**
 * Imports a source's venues or organizers: each becomes the item it became last time (updated
 * when the source changed it since), or a new one; in one transaction per item, with its record.
 */
import type { Store } from '../store/index.js';
import { importPost, sourcePost } from './posts.js';
import { emptyReport, type KindReport } from './report.js';
import type { ImportRun } from './run.js';

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

/** What was imported of a kind: source id → id here, and the report. */
export interface KindImport {
  ids: Map<number, number>;
  report: KindReport;
}

/** Imports one venue or organizer of the source (`item`, as the source shows it). */
export async function importLinkedItem(run: ImportRun, kind: 'venue' | 'organizer', item: unknown, into: KindImport, options: { ignoreSince?: boolean } = {}): Promise<void> {
  const post = sourcePost(item, KINDS[kind].titleKey);
  if (!post) {
    const id = typeof item === 'object' && item !== null && 'id' in item && typeof item.id === 'number' ? item.id : undefined;
    into.report.skipped.push({ sourceId: id, reason: `not a ${kind} (no id or dates)` });
    return;
  }
  const fields = item as Record<string, unknown>;
  await importPost(
    run,
    fields,
    post,
    {
      kind,
      // What the original shows of an item it did not unlock: `[]` for its name (`venue`, `organizer`).
      redacted: Array.isArray(fields[KINDS[kind].titleKey]),
      get: (tx, id, lock) => (kind === 'venue' ? tx.venues : tx.organizers).get(id, { lock }),
      details: (tx, id, isNew) => saveDetails(tx, kind, id, fields, !isNew),
    },
    into.ids,
    into.report,
    options,
  );
}

/** Imports the venues or organizers of the source; the source ids and the items they became. */
export async function importLinked(run: ImportRun, kind: 'venue' | 'organizer'): Promise<KindImport> {
  const into: KindImport = { ids: new Map(), report: emptyReport() };
  let done = 0;
  for await (const page of run.source.pages(KINDS[kind].archive, run.query)) {
    if (page.failure) into.report.unreadPages.push(`page ${page.page} of ${page.totalPages} (${page.failure.message})`);
    for (const item of page.items) await importLinkedItem(run, kind, item, into);
    done += page.items.length;
    run.onProgress?.(kind, done, page.total);
  }
  return into;
}
