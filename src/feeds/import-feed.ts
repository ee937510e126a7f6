/**
 * One import of an iCalendar feed: fetched (conditionally) or given as text, read in slices,
 * its entries mapped and written through the calendar's API, within the limits of
 * {@link FeedLimits}. What `calendar-events-rest import-ics` and every subscription run do.
 */
import type { User } from '../auth/capabilities.js';
import type { Store } from '../resources/store.js';
import { FeedApplier, type ApiCall, type FeedReport } from './apply.js';
import { fetchFeed, type FeedAnswer } from './fetch-feed.js';
import { parseFeed } from './parse.js';
import { feedKey } from './records.js';
import { sliceClock } from './slices.js';
import { FeedZones } from './tzid.js';

/** The bounds of one import. */
export interface FeedLimits {
  /** Largest feed read, in bytes (default 16 MiB). */
  maxBytes?: number;
  /** Time limit of the fetch, in milliseconds (default 30 s). */
  timeoutMs?: number;
  /** Time limit of reading and writing the feed once fetched, in milliseconds (default 10 minutes). */
  runTimeoutMs?: number;
  /** Most VEVENTs read from one feed (default 5000): past them, the feed is cut and nothing is trashed. */
  maxEvents?: number;
  /** Hosts (`host`, `host:port`) the feed may be fetched from (or redirect to) whatever their address; elsewhere public addresses on web ports only. */
  allowHosts?: readonly string[];
}

/** The defaults of {@link FeedLimits}. */
export const FEED_DEFAULTS = { maxBytes: 16 * 1024 * 1024, timeoutMs: 30_000, runTimeoutMs: 600_000, maxEvents: 5000 } as const;

/** The limits given, checked, with the defaults for the others. */
export function feedLimits(o: FeedLimits): Required<Omit<FeedLimits, 'allowHosts'>> {
  const whole = (name: keyof typeof FEED_DEFAULTS) => {
    const value = o[name] ?? FEED_DEFAULTS[name];
    if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`feed ${name} must be a whole number of at least 1, not ${String(value)}`);
    return value;
  };
  return { maxBytes: whole('maxBytes'), timeoutMs: whole('timeoutMs'), runTimeoutMs: whole('runTimeoutMs'), maxEvents: whole('maxEvents') };
}

/** What to import, where, and how. */
export interface FeedImportOptions extends FeedLimits {
  /** The feed: a URL (http, https, webcal), or a file's text with its path as its key. */
  source: { url: string } | { file: string; text: string };
  store: Store;
  call: ApiCall;
  /** The user the writes are made as (an administrator). */
  user: User;
  /** The calendar's zone (floating times are read in it). */
  siteZone: string;
  status?: 'publish' | 'draft';
  categories?: readonly string[];
  overwrite?: boolean;
  dryRun?: boolean;
  /** The validators of the last fetch: an unchanged feed answers 304 and nothing is read. */
  validators?: { etag: string; lastModified: string };
  onProgress?: (done: number, total: number) => void;
  /** Stops the fetch, and the run at its next slice (the events written so far stay). */
  signal?: AbortSignal;
}

/** What an import did: the report, or that the feed had not changed; the new validators. */
export interface FeedImport {
  /** `undefined` when the feed answered 304. */
  report?: FeedReport;
  notModified: boolean;
  validators: { etag: string; lastModified: string };
  seconds: number;
}

/** Imports a feed once; rejects when it cannot be fetched or is no iCalendar file. */
export async function importFeed(o: FeedImportOptions): Promise<FeedImport> {
  const started = performance.now();
  const limits = feedLimits(o);
  let text: string;
  let validators = o.validators ?? { etag: '', lastModified: '' };
  let key: string;
  if ('url' in o.source) {
    key = feedKey(o.source.url);
    const answer: FeedAnswer = await fetchFeed(o.source.url, {
      allowHosts: o.allowHosts ?? [],
      maxBytes: limits.maxBytes,
      timeoutMs: limits.timeoutMs,
      etag: validators.etag,
      lastModified: validators.lastModified,
      ...(o.signal ? { signal: o.signal } : {}),
    });
    if (answer.status === 304) return { notModified: true, validators, seconds: (performance.now() - started) / 1000 };
    text = answer.text;
    validators = { etag: answer.etag, lastModified: answer.lastModified };
  } else {
    key = feedKey(o.source.file);
    text = o.source.text;
  }
  const clock = sliceClock(limits.runTimeoutMs, o.signal);
  const parsed = await parseFeed(text, { maxEvents: limits.maxEvents, clock });
  const applier = new FeedApplier(
    {
      store: o.store,
      call: o.call,
      user: o.user,
      feed: key,
      status: o.status ?? 'publish',
      categories: o.categories ?? [],
      overwrite: o.overwrite ?? false,
      dryRun: o.dryRun ?? false,
      complete: parsed.leftOut === 0 && parsed.unreadable.length === 0,
      clock,
      onProgress: o.onProgress,
    },
    { zones: new FeedZones(parsed.timezones, clock), siteZone: o.siteZone },
  );
  const report = await applier.apply(parsed.events);
  if (parsed.name) report.name = parsed.name;
  if (parsed.leftOut) report.warnings.unshift(`${parsed.leftOut} events past the first ${limits.maxEvents} (maxEvents) were not read`);
  for (const u of parsed.unreadable) report.skipped.push({ uid: '', reason: `unreadable: ${u}` });
  return { report, notModified: false, validators, seconds: (performance.now() - started) / 1000 };
}
