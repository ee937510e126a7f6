/**
 * Imports a source's venues or organizers: each becomes the item it became last time (updated
 * when the source changed it since), or a new one; in one transaction per item, with its record.
 * Their fields go through the rules of their API writes (`venueKind.details`,
 * `organizerKind.details`: texts as `sanitize_text_field`, websites checked and cleaned).
 */
import { copyFields } from './fields.js';
import type { Store } from '../resources/store.js';
import type { LinkedInput } from '../resources/linked/args.js';
import { organizerKind } from '../resources/organizers/kind.js';
import { venueKind } from '../resources/venues/kind.js';
import type { VenuesTable, OrganizersTable } from '../store/database.js';
import { importPost, sourcePost, type PostText } from './posts.js';
import { emptyReport, type KindReport } from './report.js';
import type { ImportRun } from './run.js';
import { ItemRules, Refusal } from './write-rules.js';
import { MAX_LAT, MAX_LNG, readCoordinate } from '../geo/coordinates.js';

const flag = (item: Record<string, unknown>, key: string) => (item[key] === true ? 1 : 0);

/** The coordinates the source shows, as a pair (as an API write stores them: both, or neither). */
function coordinates(item: Record<string, unknown>): { geo_lat: number | null; geo_lng: number | null } {
  const lat = readCoordinate(item.geo_lat, MAX_LAT);
  const lng = readCoordinate(item.geo_lng, MAX_LNG);
  return lat !== undefined && lng !== undefined ? { geo_lat: lat, geo_lng: lng } : { geo_lat: null, geo_lng: null };
}

/** The text fields each kind's write takes besides its name and description. */
const TEXT_FIELDS = {
  venue: ['address', 'city', 'country', 'province', 'state', 'zip', 'phone', 'stateprovince'],
  organizer: ['phone', 'email'],
} as const;

/**
 * The details of a source venue or organizer as its API write stores them, its name and
 * description (`text`) included in the check that a store can hold them all; throws a
 * {@link Refusal} naming the field that fails.
 */
function checkedDetails(
  kind: 'venue' | 'organizer',
  item: Record<string, unknown>,
  text: PostText,
  rules: ItemRules,
): Omit<VenuesTable, 'post_id'> | Omit<OrganizersTable, 'post_id'> {
  const input: LinkedInput = { website: rules.url('website', item.website) };
  for (const field of TEXT_FIELDS[kind]) input[field] = rules.text(field, item[field]);
  // WordPress refuses a post with neither title nor content (a name of blanks, or only tags).
  if (!text.title.trim() && !text.content.trim())
    throw new Refusal(KINDS[kind].titleKey, 'empty once filtered, and so is the description: an API write refuses such an item');
  const details =
    kind === 'venue'
      ? { ...venueKind.blank(), ...venueKind.details(input, undefined) }
      : { ...organizerKind.blank(), ...organizerKind.details(input, undefined) };
  rules.storable({ [KINDS[kind].titleKey]: text.title, description: text.content, ...details });
  for (const field of [...TEXT_FIELDS[kind], 'website'] as const) rules.note(field, item[field], String((details as Record<string, unknown>)[field]));
  return kind === 'venue'
    ? {
        ...(details as Omit<VenuesTable, 'post_id'>),
        show_map: flag(item, 'show_map'),
        show_map_link: flag(item, 'show_map_link'),
        ...coordinates(item),
      }
    : details;
}

/** Writes the details of an imported item (`update`: it has some already). */
async function saveDetails(
  tx: Store,
  kind: 'venue' | 'organizer',
  id: number,
  details: Omit<VenuesTable, 'post_id'> | Omit<OrganizersTable, 'post_id'>,
  update: boolean,
): Promise<void> {
  if (kind === 'venue') {
    const venue = details as Omit<VenuesTable, 'post_id'>;
    await (update ? tx.venues.updateDetails(id, venue) : tx.venues.insertDetails(id, venue));
  } else {
    const organizer = details as Omit<OrganizersTable, 'post_id'>;
    await (update ? tx.organizers.updateDetails(id, organizer) : tx.organizers.insertDetails(id, organizer));
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
export async function importLinkedItem(
  run: ImportRun,
  kind: 'venue' | 'organizer',
  item: unknown,
  into: KindImport,
  options: { ignoreSince?: boolean } = {},
): Promise<void> {
  const rules = new ItemRules(run.keepHtml, run.now);
  const post = sourcePost(item, kind, KINDS[kind].titleKey, rules);
  if (typeof post === 'string') {
    const id = typeof item === 'object' && item !== null && 'id' in item && typeof item.id === 'number' ? item.id : undefined;
    into.report.skipped.push({ sourceId: id, reason: post });
    return;
  }
  const fields = item as Record<string, unknown>;
  let details: ReturnType<typeof checkedDetails> | undefined;
  await importPost(
    run,
    fields,
    post,
    rules,
    {
      kind,
      titleKey: KINDS[kind].titleKey,
      // What the original shows of an item it did not unlock: `[]` for its name (`venue`, `organizer`).
      redacted: Array.isArray(fields[KINDS[kind].titleKey]),
      get: (tx, id, lock) => (kind === 'venue' ? tx.venues : tx.organizers).get(id, { lock }),
      check: (checking, text) => {
        checking.required(KINDS[kind].titleKey, fields[KINDS[kind].titleKey]);
        details = checkedDetails(kind, fields, text, checking);
      },
      details: async (tx, id, isNew) => {
        if (!details) throw new Error(`${kind} details were not checked`);
        await saveDetails(tx, kind, id, details, !isNew);
        await copyFields(run, tx, KINDS[kind].archive, id, fields, post.id, into.report);
      },
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
