/**
 * The venue and organizers of an event write: parsed and checked before anything is fetched or
 * stored (their images side-loaded then too), and linked inside the write's transaction, where
 * the items given as data are created.
 */
import type { Principal } from '../../auth/capabilities.js';
import { ApiError, invalidParam, invalidParams } from '../../http/errors.js';
import type { ImageChoice, ImageService } from '../../images/service.js';
import type { EventInput } from './args.js';
import { parseLinkedEntries, type EntryParser, type LinkedEntry } from '../linked/entries.js';
import { linkedNotCreated } from '../linked/errors.js';
import type { LinkedPostService } from '../linked/service.js';
import type { LinkedRow } from '../linked/store.js';
import type { Store } from '../store.js';
import type { Taxonomy } from '../../store/database.js';
import type { TermRow } from '../terms/store.js';

/** What linking needs of the calendar: the linked kinds' services, images, and the site's zone. */
export interface LinkDeps {
  images: ImageService;
  venues: LinkedPostService<'venues'>;
  organizers: LinkedPostService<'organizers'>;
  timezone: string;
  /** Most images one write may side-load (`limits.imagesPerRequest`). */
  imagesPerRequest: number;
}

/** A linked entry ready to store: data entries carry their side-loaded image. */
type ResolvedEntry = LinkedEntry & { image?: ImageChoice };

/** The venue (`null`: none) and organizers a write sends; absent keys were not sent. */
export interface LinkedEntries {
  venue?: ResolvedEntry | null;
  organizers?: ResolvedEntry[];
}

/** What a write linked: the venue and organizer ids (`undefined`: not sent), and the rows of those given by id. */
export interface Linked {
  venue: number | null | undefined;
  organizers: number[] | undefined;
  venueRows: LinkedRow<'venues'>[];
  organizerRows: LinkedRow<'organizers'>[];
}

/** 400 for a write that would side-load more images than `limits.imagesPerRequest`, named by the parameter that went over. */
function tooManyImages(param: string, most: number): ApiError {
  const message = `${param} has more than ${most} images to download.`;
  return invalidParams(new Map([[param, { message, detail: { code: 'rest_param_too_large', message, data: { param } } }]]));
}

/**
 * The linked entries of a write, checked before anything is fetched or stored: one venue
 * at most (upstream 400 `could-not-create-venue`), organizers as a list. Images of
 * entries given as data are side-loaded here too, so that a bad one stops the write early.
 * `parse` reads the values (over HTTP: as the argument checks read them, kept for the request).
 */
export async function linkedEntries(deps: LinkDeps, input: EventInput, p: Principal | null, parse: EntryParser = parseLinkedEntries): Promise<LinkedEntries> {
  let venue: LinkedEntry[] | undefined;
  let organizers: LinkedEntry[] | undefined;
  if (input.venue !== undefined) {
    venue = parse('venue', input.venue);
    if (!venue || venue.length > 1) throw linkedNotCreated('venue');
  }
  if (input.organizer !== undefined) {
    organizers = parse('organizer', input.organizer);
    if (!organizers) throw linkedNotCreated('organizer');
  }
  // Items given as data are created: their authors follow the rule of a create of their kind.
  for (const [service, entries] of [
    [deps.venues, venue],
    [deps.organizers, organizers],
  ] as const) {
    for (const e of entries ?? []) if ('data' in e) service.assertAuthor(e.data, p, 'create');
  }
  // Each image URL is a download of up to `imageBytes` for up to 8 s: a request may ask for a bounded number.
  let downloads = deps.images.downloads(input.image) ? 1 : 0;
  for (const [name, entries] of [
    ['venue', venue],
    ['organizer', organizers],
  ] as const) {
    downloads += (entries ?? []).filter((e) => 'data' in e && deps.images.downloads(e.data.image)).length;
    if (downloads > deps.imagesPerRequest) throw tooManyImages(name, deps.imagesPerRequest);
  }
  const out: LinkedEntries = {};
  if (venue) {
    const entry = venue[0];
    // A new venue's coordinates (the host's geocoder) are read here too, outside the write's transaction.
    out.venue = entry ? await withImage(deps, 'venue', 'data' in entry ? { data: await deps.venues.prepared(entry.data, undefined) } : entry, p) : null;
  }
  if (organizers) {
    out.organizers = [];
    for (const entry of organizers) out.organizers.push(await withImage(deps, 'organizer', entry, p));
  }
  return out;
}

/** A linked entry with the attachment id of its `image`, if it is data with one. */
async function withImage(deps: LinkDeps, type: 'venue' | 'organizer', entry: LinkedEntry, p: Principal | null): Promise<ResolvedEntry> {
  if ('id' in entry || entry.data.image === undefined) return entry;
  try {
    return { ...entry, image: await deps.images.choose(entry.data.image, p) };
  } catch (e) {
    // The image is part of the venue (organizer) value: report that parameter.
    if (e instanceof ApiError && e.code === 'rest_invalid_param') throw invalidParam(type);
    throw e;
  }
}

/**
 * Venue and organizer ids for the write, creating the items given as data (inside `tx`).
 * Items given by id are locked and must still exist: a link never points at nothing. The lock
 * is shared (`lock: 'share'`): events written at once may link the same venue without waiting
 * for each other, while a change or delete of the venue waits for them. They are locked in one
 * order (the venue, then organizers by id) and before the event itself, as deleting a venue or
 * organizer locks it before the events it leaves: two writes then never wait on each other in
 * a circle.
 */
export async function link(deps: LinkDeps, tx: Store, entries: LinkedEntries, p: Principal | null, now: Date): Promise<Linked> {
  const byId = (list: (ResolvedEntry | null | undefined)[]) => list.flatMap((e) => (e && 'id' in e ? [e.id] : []));
  // The rows read here are the rows the answer shows: a write that renders the event reuses them.
  const venueRows: LinkedRow<'venues'>[] = [];
  const organizerRows: LinkedRow<'organizers'>[] = [];
  for (const id of byId([entries.venue])) {
    const row = await tx.venues.get(id, { lock: 'share' });
    if (!row) throw invalidParam('venue');
    venueRows.push(row);
  }
  // The organizers in one statement, whatever their number, locked in the order of their ids.
  const organizerIds = [...new Set(byId(entries.organizers ?? []))];
  if (organizerIds.length) {
    organizerRows.push(...(await tx.organizers.getMany(organizerIds, { lock: 'share' })));
    if (organizerRows.length < organizerIds.length) throw invalidParam('organizer');
  }
  const linked = (service: LinkedPostService<'venues'> | LinkedPostService<'organizers'>, entry: ResolvedEntry) =>
    'id' in entry ? entry.id : service.insertIn(tx, entry.data, p, deps.timezone, now, entry.image);
  const venue = entries.venue === undefined ? undefined : entries.venue && (await linked(deps.venues, entries.venue));
  let organizers: number[] | undefined;
  if (entries.organizers) {
    organizers = [];
    for (const entry of entries.organizers) organizers.push(await linked(deps.organizers, entry));
    organizers = [...new Set(organizers)];
  }
  return { venue, organizers, venueRows, organizerRows };
}

/** What an event links to: its organizers in order, and its terms; rows of linked items a write has read, when it has. */
export interface EventLinks {
  organizers: readonly number[];
  terms: readonly { taxonomy: Taxonomy; id: number }[];
  venueRows?: readonly LinkedRow<'venues'>[];
  organizerRows?: readonly LinkedRow<'organizers'>[];
  /** The terms a create has just linked, as it left them (counts moved): its answer reads none again. */
  termRows?: readonly TermRow[];
  /** A new event's host field values, all it has (`HostFields.save`): its rendering reads none. */
  fieldValues?: ReadonlyMap<string, unknown>;
}
