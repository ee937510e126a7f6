import { viewerKey, type Principal } from '../../auth/capabilities.js';
import { VersionedItems } from '../../cache/versioned-items.js';
import type { Urls } from '../../http/urls.js';
import { vevent, type Vevent } from '../../ical/vevent.js';
import type { RawJson } from '../../http/raw-json.js';
import { redact } from '../../posts/redact.js';
import { slices } from '../../scheduling/turns.js';
import type { CalendarEvent } from '../../schemas/types.js';
import type { EventService } from '../events/service.js';
import type { EventKey } from '../events/store.js';

/** Bytes of written events kept per store version: the feeds of many callers' views. */
const WRITTEN_BYTES = 32 * 1024 * 1024;

/** Bytes of whole feeds kept per store version. */
const FEED_BYTES = 16 * 1024 * 1024;

/** Events rendered and written between two turns of the event loop (up to a millisecond each on a busy machine). */
export const ENTRIES_PER_SLICE = 20;

/** A whole calendar file, as answered. */
export interface FeedFile {
  body: Buffer;
  headers: Record<string, string>;
}

/** One event of a feed: its key, and how it is written. */
export interface FeedEntry {
  key: EventKey;
  /** A password-protected event the caller may not unlock. */
  redacted: boolean;
  /** A trashed one subscribers may still hold. */
  cancelled: boolean;
}

/** How the caller sees a feed's events. */
export interface FeedView {
  urls: Urls;
  principal: Principal | null;
  /** The store version read before the keys (see `EventService.renderJson`). */
  version: string | undefined;
  /** The domain of `UID`s. */
  domain: string;
}

/**
 * The events of iCalendar feeds as `VEVENT`s, written from their JSON as the caller sees it
 * (so every rule of what a caller may see of an event holds in the feed too) and kept per store
 * version, like that JSON: a feed costs what an archive page of the same events does.
 */
export class IcalService {
  readonly #written = new VersionedItems<Vevent>({ maxSize: WRITTEN_BYTES, sizeOf: (v) => v.bytes.length + 64 });
  readonly #files = new VersionedItems<FeedFile>({ maxSize: FEED_BYTES, sizeOf: (f) => f.body.length + 256 });

  constructor(
    private readonly events: EventService,
    /** The event fields written as `X-CALENDAR-…` (`HostFields.icalNames`). */
    private readonly fields: readonly string[] = [],
  ) {}

  /**
   * A calendar file as `write` makes it, kept per store version under `key` (what decides its
   * bytes: the mount's URLs, the caller's view, the filter): a feed read again before the next
   * write costs a lookup, whatever `Cache-Control` says, as the events' JSON does.
   */
  async file(version: string | undefined, key: string, write: () => Promise<FeedFile>): Promise<FeedFile> {
    const kept = version === undefined ? undefined : this.#files.get(version, key);
    const file = kept ?? (await write());
    if (!kept && version !== undefined) this.#files.set(version, key, file);
    // Headers are the request's own from here on (CORS, caching): the kept ones stay as written.
    return { body: file.body, headers: { ...file.headers } };
  }

  /** The entries written, in order; an event deleted since its key was read, or without a start, is left out. */
  async vevents(entries: readonly FeedEntry[], view: FeedView): Promise<Vevent[]> {
    const { version } = view;
    const prefix = `${view.urls.root}\n${view.urls.home}\n${view.domain}\n${viewerKey(view.principal)}\n`;
    const keyOf = (e: FeedEntry) => `${prefix}${e.redacted ? 'r' : ''}${e.cancelled ? 'c' : ''}${e.key.id}`;
    const kept = entries.map((e) => (version === undefined ? undefined : this.#written.get(version, keyOf(e))));
    const missing = entries.filter((_, i) => kept[i] === undefined);
    const fresh = new Map<FeedEntry, Vevent>();
    // A slice at a time, the loop turning between two: a thousand events cost half a second.
    for await (const slice of slices(missing, ENTRIES_PER_SLICE)) {
      const json = await this.events.renderJson(
        slice.map((e) => e.key),
        { urls: view.urls, principal: view.principal, single: false, version },
      );
      slice.forEach((entry, i) => {
        const rendered = json[i];
        if (rendered === undefined) return;
        // What the archive shows the caller of a locked event: the same redaction.
        const event = entry.redacted ? redact(eventOf(rendered)) : eventOf(rendered);
        const written = vevent(event, { domain: view.domain, protected: !!entry.key.password, cancelled: entry.cancelled, fields: this.fields });
        if (!written) return;
        fresh.set(entry, written);
        if (version !== undefined) this.#written.set(version, keyOf(entry), written);
      });
    }
    return entries.flatMap((e, i) => kept[i] ?? fresh.get(e) ?? []);
  }
}

/** An event's kept JSON as its value. */
export function eventOf(json: RawJson): CalendarEvent {
  return json.parse() as CalendarEvent;
}
