/**
 * A feed's entries written into the calendar through its own API (`calendar.call`), as an
 * administrator's writes: every value is checked, sanitised and stored by the rules of an API
 * write, the host's hooks run, and the change log, webhooks and caches follow. Each VEVENT
 * becomes the event it became last time (`records.ts`) or a new one: a series with its rules,
 * an edited occurrence the occurrence's own edit (`scope=this`), a cancelled one the
 * occurrence's cancellation, a cancelled event or one gone from the feed the trash. An entry
 * whose digest is the one recorded is left alone, and so is an event written through the API
 * since its last import, unless `overwrite`.
 */
import ICAL from 'ical.js';
import { roleCapabilities, type User } from '../auth/capabilities.js';
import type { Store } from '../resources/store.js';
import { mapEvent, plainTextHtml, venueGeoFields, type EntryOrganizer, type EntryVenue, type FeedEntry, type MapContext } from './map-event.js';
import { FeedRecords, itemKey, sha256, type FeedItem, type FeedItemKind } from './records.js';
import { yieldIfLate, type SliceClock } from './slices.js';

/** A call of the calendar's API without HTTP: `calendar.call`'s shape. */
export type ApiCall = (
  method: string,
  path: string,
  options: { params?: Record<string, unknown>; user?: User | null },
) => Promise<{ status: number; body: unknown }>;

/**
 * The user a feed's events are written as (`author`: their author): an administrator's
 * capabilities without `unfiltered_html`, so that a feed's HTML is filtered as an author's
 * write filters it, never kept as it came.
 */
export function importUser(author: number): User {
  return { id: author, capabilities: roleCapabilities('administrator').filter((c) => c !== 'unfiltered_html') };
}

/** What one run of a feed did. */
export interface FeedReport {
  /** The feed's URL or file. */
  feed: string;
  /** Its name (`X-WR-CALNAME`), if it has one. */
  name?: string;
  created: number;
  updated: number;
  unchanged: number;
  /** Events cancelled in the feed or gone from it, moved to the trash. */
  trashed: number;
  /** Occurrences cancelled. */
  cancelled: number;
  /** Events written through the API since their last import, left as they are (no `overwrite`). */
  leftAlone: number;
  /** Entries not imported, with why. */
  skipped: { uid: string; reason: string }[];
  /** Imported, but not quite as the feed has it. */
  warnings: string[];
  /** Nothing was written: the counts say what a run would do. */
  dryRun: boolean;
}

/** A report with nothing in it yet. */
export function emptyFeedReport(feed: string, dryRun: boolean): FeedReport {
  return { feed, created: 0, updated: 0, unchanged: 0, trashed: 0, cancelled: 0, leftAlone: 0, skipped: [], warnings: [], dryRun };
}

/** How a feed is written. */
export interface ApplyOptions {
  store: Store;
  call: ApiCall;
  /** The user the writes are made as (an administrator; its id is the new items' author). */
  user: User;
  /** The feed's key in the record (`feedKey`). */
  feed: string;
  /** The status of new and updated events (`publish` by default). */
  status: 'publish' | 'draft';
  /** Categories every event of the feed gets, besides its own. */
  categories: readonly string[];
  /** Write over events edited through the API since their last import. */
  overwrite: boolean;
  dryRun: boolean;
  /**
   * Whether every entry of the feed was read: only then are events gone from it trashed (a
   * feed cut at `maxEvents`, or with entries that could not be read, trashes nothing).
   */
  complete: boolean;
  clock: SliceClock;
  /** Told how many events of how many were done. */
  onProgress?: (done: number, total: number) => void;
}

/** A feed's VEVENTs grouped by UID: the event (or none) and the exceptions that edit its occurrences. */
interface UidGroup {
  master?: ICAL.Component;
  exceptions: ICAL.Component[];
}

/** The VEVENTs grouped by UID, in the feed's order. */
function byUid(events: readonly ICAL.Component[]): Map<string, UidGroup> {
  const groups = new Map<string, UidGroup>();
  for (const c of events) {
    const uidValue = c.getFirstPropertyValue('uid');
    const uid = typeof uidValue === 'string' ? uidValue.trim() : '';
    let group = groups.get(uid);
    if (!group) {
      group = { exceptions: [] };
      groups.set(uid, group);
    }
    if (c.hasProperty('recurrence-id')) group.exceptions.push(c);
    // Two events of one UID without RECURRENCE-ID: the later (a higher SEQUENCE, in practice) wins.
    else group.master = c;
  }
  return groups;
}

/** The message of an API error answer. */
function apiMessage(answer: { status: number; body: unknown }): string {
  const body = answer.body as { message?: unknown; data?: { params?: unknown } } | undefined;
  const params =
    body?.data?.params && typeof body.data.params === 'object' ? ` (${Object.values(body.data.params as Record<string, unknown>).join('; ')})` : '';
  return `the API refused it: HTTP ${answer.status} ${typeof body?.message === 'string' ? body.message : ''}${params}`.trim();
}

/** A write the API refused: the entry is skipped with its message. */
class Refused extends Error {}

/** Writes one feed's entries (`events`: its VEVENTs, as read) and trashes what left it. */
export class FeedApplier {
  readonly report: FeedReport;
  readonly #records: FeedRecords;
  #known = new Map<string, FeedItem>();
  readonly #now = new Date();

  constructor(
    private readonly o: ApplyOptions,
    private readonly map: MapContext,
  ) {
    this.report = emptyFeedReport(o.feed, o.dryRun);
    this.#records = new FeedRecords(o.store.db, o.feed);
  }

  /** Writes the VEVENTs of the feed, and trashes what left it; the report. */
  async apply(events: readonly ICAL.Component[]): Promise<FeedReport> {
    const groups = [...byUid(events)].map(([uid, group]) => ({
      uid,
      write: async (seen: Set<string>) => {
        if (group.master) await this.#series(uid, group.master, group.exceptions, seen);
        // Occurrences of an event the feed does not hold (an invitation to one of them): each an event of its own.
        else for (const c of group.exceptions) await this.#single(uid, c, seen);
      },
    }));
    return this.#each(groups);
  }

  /** Writes entries already mapped (a CSV file's rows, each an event of its own), and trashes what left the file; the report. */
  async applyEntries(entries: readonly FeedEntry[]): Promise<FeedReport> {
    return this.#each(entries.map((entry) => ({ uid: entry.uid, write: (seen: Set<string>) => this.#series(entry.uid, entry, [], seen) })));
  }

  /** Runs the writes of each UID in slices, an entry the API refuses skipped; then trashes the events gone from the feed. */
  async #each(items: readonly { uid: string; write: (seen: Set<string>) => Promise<void> }[]): Promise<FeedReport> {
    this.#known = await this.#records.all();
    const seen = new Set<string>();
    let done = 0;
    for (const { uid, write } of items) {
      await yieldIfLate(this.o.clock);
      if (!uid) this.report.skipped.push({ uid: '', reason: 'no UID' });
      else {
        try {
          await write(seen);
        } catch (e) {
          if (!(e instanceof Refused)) throw e;
          this.report.skipped.push({ uid, reason: e.message });
        }
      }
      this.o.onProgress?.(++done, items.length);
    }
    if (this.o.complete) await this.#trashGone(seen);
    else if (this.#known.size) this.report.warnings.push('the feed was not read whole: events gone from it are left as they are this time');
    return this.report;
  }

  async #write(method: string, path: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
    let answer = await this.o.call(method, path, { params, user: this.o.user });
    // An image that cannot be side-loaded (a CSV's featured_image) costs the event its image, not the event.
    if (answer.status === 400 && params.image !== undefined && /\bimage\b/.test(JSON.stringify(answer.body))) {
      const { image, ...rest } = params;
      this.report.warnings.push(`${String(params.title ?? path)}: image ${JSON.stringify(String(image).slice(0, 100))} could not be side-loaded: left out`);
      answer = await this.o.call(method, path, { params: rest, user: this.o.user });
    }
    if (answer.status >= 400) throw new Refused(apiMessage(answer));
    return (answer.body ?? {}) as Record<string, unknown>;
  }

  /** The record of an item, saved unless this is a dry run. */
  async #save(kind: FeedItemKind, uid: string, recurrenceId: string, itemId: number, digest: string, modified: string): Promise<void> {
    if (this.o.dryRun) return;
    const item: FeedItem = {
      item_key: itemKey(kind, uid, recurrenceId),
      uid,
      recurrence_id: recurrenceId,
      kind,
      item_id: itemId,
      digest,
      written_modified: modified,
      imported_at: this.#now.toISOString(),
    };
    await this.#records.save(item);
    this.#known.set(item.item_key, item);
  }

  /**
   * What an item is now, to tell later whether the API wrote it since: its `modified_utc` and
   * the change log's position (dates have a second's precision, and an edit may come within
   * the second of an import); `''` when it is gone.
   */
  async #stamp(id: number): Promise<string> {
    const modified = (await this.o.store.posts.get(id))?.modified_utc;
    return modified === undefined ? '' : `${modified}|${(await this.o.store.changes.head()).lastSeq}`;
  }

  /** Whether an event (or an occurrence of it) was written since the import that recorded `stamp`. */
  async #editedSince(stamp: string, id: number, modified: string): Promise<boolean> {
    const [written = '', seq = ''] = stamp.split('|');
    if (written !== modified) return true;
    if (!/^\d+$/.test(seq)) return false;
    const later = await this.o.store.db
      .selectFrom('changes')
      .select('seq')
      .where('kind', '=', 'event')
      .where((eb) => eb.or([eb('item_id', '=', id), eb('item_id', 'in', eb.selectFrom('occurrences').select('id').where('series_id', '=', id))]))
      .where('seq', '>', Number(seq))
      .limit(1)
      .executeTakeFirst();
    return later !== undefined;
  }

  /** An entry's write parameters, its venue, organizers and categories resolved (venues and organizers found by name, else created with it). */
  async #params(entry: FeedEntry): Promise<Record<string, unknown>> {
    const params: Record<string, unknown> = {
      ...entry.params,
      website: entry.params.website ?? '',
      // An event that no longer recurs stops being a series.
      recurrence: entry.params.recurrence ?? [],
      status: entry.private ? 'private' : this.o.status,
    };
    // A write refuses an empty description: none is sent (an update then keeps the one it had).
    if (!entry.params.description) delete params.description;
    const categories = [...new Set([...entry.categories, ...this.o.categories])];
    params.categories = categories;
    params.venue = entry.venue ? await this.#venueOf(entry.venue) : null;
    const organizers: unknown[] = [];
    for (const o of entry.organizers) organizers.push(await this.#organizerOf(o));
    params.organizer = organizers;
    return params;
  }

  /** The venue of a name: the one it became before, else one of that name here, else a new one. */
  async #venueOf(venue: EntryVenue): Promise<{ id: number } | Record<string, unknown>> {
    const id = await this.#linkedByName('venue', venue.name);
    return id !== undefined ? { id } : { venue: venue.name, ...venueGeoFields(venue.geo) };
  }

  async #organizerOf(o: EntryOrganizer): Promise<{ id: number } | Record<string, unknown>> {
    const id = await this.#linkedByName('organizer', o.name);
    return id !== undefined ? { id } : { organizer: o.name, ...(o.email ? { email: o.email } : {}) };
  }

  /** A venue or organizer of this name: the one a feed entry named before, else one titled so (not in the trash). */
  async #linkedByName(kind: 'venue' | 'organizer', name: string): Promise<number | undefined> {
    const known = this.#known.get(itemKey(kind, name.toLowerCase()));
    if (known) {
      const row = await this.o.store.posts.get(known.item_id);
      if (row && row.type === kind && row.status !== 'trash') return row.id;
    }
    const found = await this.o.store.db
      .selectFrom('posts')
      .select('id')
      .where('type', '=', kind)
      .where('title', 'in', [...new Set([name, plainTextHtml(name)])])
      .where('status', '!=', 'trash')
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
    return found?.id;
  }

  /** Records the venue and organizers an event write created, so that the next entry naming them finds them. */
  async #recordLinked(entry: FeedEntry, body: Record<string, unknown>): Promise<void> {
    const venue = body.venue as { id?: unknown } | undefined;
    if (entry.venue && typeof venue?.id === 'number') await this.#save('venue', entry.venue.name.toLowerCase(), '', venue.id, '', '');
    const organizers = Array.isArray(body.organizer) ? (body.organizer as { id?: unknown }[]) : [];
    for (const [i, o] of entry.organizers.entries()) {
      const id = organizers[i]?.id;
      if (typeof id === 'number') await this.#save('organizer', o.name.toLowerCase(), '', id, '', '');
    }
  }

  /** The digest of what an entry writes, with the run's own settings (a change of them writes it again). */
  #digest(entry: FeedEntry): string {
    const { params, venue, organizers, categories, cancelled } = entry;
    return sha256(JSON.stringify([params, venue, organizers, categories, cancelled, entry.private === true, this.o.status, this.o.categories]));
  }

  /** An event and the exceptions that edit or cancel its occurrences. */
  async #series(uid: string, master: ICAL.Component | FeedEntry, exceptions: readonly ICAL.Component[], seen: Set<string>): Promise<void> {
    const entry = master instanceof ICAL.Component ? await mapEvent(master, this.map) : master;
    if (typeof entry === 'string') throw new Refused(entry);
    seen.add(itemKey('event', uid));
    this.report.warnings.push(...entry.warnings.map((w) => `${uid}: ${w}`));
    const key = itemKey('event', uid);
    const record = this.#known.get(key);
    const row = record ? await this.o.store.events.get(record.item_id) : undefined;
    const zone = entry.params.timezone;
    const mapped: FeedEntry[] = [];
    for (const c of exceptions) {
      const e = await mapEvent(c, this.map, { zone });
      if (typeof e === 'string') this.report.skipped.push({ uid, reason: `an occurrence: ${e}` });
      else if (e.recurrenceId !== undefined) {
        mapped.push(e);
        seen.add(itemKey('occurrence', uid, e.recurrenceId));
      }
    }
    if (entry.cancelled) {
      if (row && row.status !== 'trash') {
        await this.#leaveOrTrash(record, row.id, row.modified_utc, uid);
        if (record) await this.#save('event', uid, '', record.item_id, this.#digest(entry), await this.#stamp(record.item_id));
      } else if (!row) this.report.skipped.push({ uid, reason: 'cancelled in the feed: not imported' });
      return;
    }
    const ridsNow = new Set(mapped.map((e) => e.recurrenceId));
    const ridsGone = [...this.#known.values()].filter((r) => r.kind === 'occurrence' && r.uid === uid && !ridsNow.has(r.recurrence_id));
    const digest = this.#digest(entry);
    let id: number;
    let rewritten = false;
    if (row && record) {
      if (!this.o.overwrite && (await this.#editedSince(record.written_modified, row.id, row.modified_utc))) {
        this.report.leftAlone++;
        return;
      }
      id = row.id;
      if (record.digest === digest && !ridsGone.length && row.status !== 'trash') this.report.unchanged++;
      else {
        const params = await this.#params(entry);
        // Occurrences the feed no longer edits show the series again: every edit is reset, and those still in the feed made anew.
        if (ridsGone.length) params.reset_overrides = true;
        if (!this.o.dryRun) await this.#recordLinked(entry, await this.#write('POST', `/events/${id}`, params));
        this.report.updated++;
        rewritten = true;
        for (const r of ridsGone) if (!this.o.dryRun) await this.#records.remove(r.item_key);
      }
    } else {
      if (this.o.dryRun) {
        this.report.created++;
        return;
      }
      const body = await this.#write('POST', '/events', await this.#params(entry));
      if (typeof body.id !== 'number') throw new Refused('the API answered no id');
      id = body.id;
      await this.#recordLinked(entry, body);
      this.report.created++;
      rewritten = true;
    }
    for (const e of mapped) await this.#exception(uid, id, e, rewritten || ridsGone.length > 0);
    // Recorded last: editing occurrences moves the series' modification date.
    if (!this.o.dryRun) await this.#save('event', uid, '', id, digest, await this.#stamp(id));
  }

  /** An occurrence edited or cancelled by an exception of the feed (`force`: its series was written again, so is it). */
  async #exception(uid: string, seriesId: number, entry: FeedEntry, force: boolean): Promise<void> {
    const rid = entry.recurrenceId ?? '';
    const key = itemKey('occurrence', uid, rid);
    const digest = this.#digest(entry);
    const record = this.#known.get(key);
    if (record && record.digest === digest && !force) {
      this.report.unchanged++;
      return;
    }
    const occurrence = (await this.o.store.occurrences.of(seriesId, { from: rid, to: rid })).find((o) => o.original_start === rid);
    if (!occurrence) {
      this.report.warnings.push(`${uid}: RECURRENCE-ID ${rid} names no occurrence of the series here: left out`);
      return;
    }
    try {
      if (entry.cancelled) {
        if (!occurrence.cancelled && !this.o.dryRun) await this.#write('DELETE', `/events/${occurrence.id}`, { scope: 'this' });
        if (!occurrence.cancelled) this.report.cancelled++;
        else this.report.unchanged++;
      } else {
        const params = await this.#params(entry);
        delete params.recurrence;
        if (!this.o.dryRun) await this.#recordLinked(entry, await this.#write('POST', `/events/${occurrence.id}`, { ...params, scope: 'this' }));
        this.report.updated++;
      }
    } catch (e) {
      if (!(e instanceof Refused)) throw e;
      this.report.skipped.push({ uid, reason: `occurrence ${rid}: ${e.message}` });
      return;
    }
    await this.#save('occurrence', uid, rid, occurrence.id, digest, '');
  }

  /** An exception without its event in the feed: an event of its own, keyed by UID and RECURRENCE-ID. */
  async #single(uid: string, c: ICAL.Component, seen: Set<string>): Promise<void> {
    const rid = c.getFirstPropertyValue('recurrence-id');
    await this.#series(`${uid}#${rid instanceof Object ? rid.toString() : String(rid)}`, c, [], seen);
  }

  /** Moves an event to the trash, unless it was written through the API since its import (and no `overwrite`). */
  async #leaveOrTrash(record: FeedItem | undefined, id: number, modified: string, uid: string): Promise<void> {
    if (record && !this.o.overwrite && (await this.#editedSince(record.written_modified, id, modified))) {
      this.report.leftAlone++;
      return;
    }
    try {
      if (!this.o.dryRun) await this.#write('DELETE', `/events/${id}`, {});
      this.report.trashed++;
    } catch (e) {
      if (!(e instanceof Refused)) throw e;
      this.report.skipped.push({ uid, reason: `trashing it: ${e.message}` });
    }
  }

  /** Trashes the events of the feed that left it. */
  async #trashGone(seen: ReadonlySet<string>): Promise<void> {
    for (const record of [...this.#known.values()]) {
      if (record.kind !== 'event' || seen.has(record.item_key)) continue;
      await yieldIfLate(this.o.clock);
      const row = await this.o.store.events.get(record.item_id);
      if (!row) {
        if (!this.o.dryRun) await this.#records.remove(record.item_key);
        continue;
      }
      if (row.status === 'trash') continue;
      await this.#leaveOrTrash(record, row.id, row.modified_utc, record.uid);
      if (!this.o.dryRun) await this.#save('event', record.uid, '', row.id, 'gone', await this.#stamp(row.id));
    }
  }
}
