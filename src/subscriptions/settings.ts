/**
 * What a subscription is: a feed's URL, how often it is read, and how its events are written;
 * and the `subscriptions` option of a calendar, checked once.
 */
import { invalidOption } from '../option-error.js';
import { parseAllowedHost } from '../images/allowed-hosts.js';
import type { FeedReport } from '../feeds/apply.js';
import { FEED_DEFAULTS, type FeedLimits } from '../feeds/import-feed.js';
import { feedUrl } from '../feeds/fetch-feed.js';

/** One feed the calendar follows. */
export interface SubscriptionFeed {
  /** The feed: an http(s) or webcal URL (Google Calendar's public or secret address, Outlook's, another site's `/ics/events`…). */
  url: string;
  /** Its name in the store, the status and the command line (default: its URL). */
  name?: string;
  /** How often it is read: minutes, or `'90m'`, `'6h'`, `'1d'` (default `'60m'`). */
  every?: number | string;
  /** Categories every event of the feed gets, besides its own (created when missing). */
  categories?: readonly string[];
  /** The status of its events (default `'publish'`). */
  status?: 'publish' | 'draft';
  /** Write over events edited through the API since their last import (default `false`: they are left alone). */
  overwrite?: boolean;
}

/** The `subscriptions` option: the feeds, where they may be fetched from, and how the timer runs them. */
export interface SubscriptionsOption extends FeedLimits {
  /** Feeds followed (kept in the store, beside those added with `calendar-events-rest subscribe`). */
  feeds?: readonly SubscriptionFeed[];
  /** Whether this instance runs due subscriptions on its timer (default `true`; one instance at a time runs each, through a lease). */
  run?: boolean;
  /** How often the timer looks for due subscriptions, in milliseconds (default 60000). */
  pollMs?: number;
  /** How long an instance holds a subscription while it runs it, in milliseconds (default 15 minutes; more than the fetch and run time limits). */
  leaseMs?: number;
  /** The user the events are written as, their author (default 0: nobody). */
  author?: number;
  /** Told of each run's outcome (failures also go to `onError`). */
  onRun?: (status: SubscriptionStatus) => void;
}

/** A subscription's settings, as stored. */
export interface SubscriptionSettings {
  everyMinutes: number;
  categories: string[];
  status: 'publish' | 'draft';
  overwrite: boolean;
  /** Hosts the feed may be fetched from on any address (`--allow-host` of `subscribe`). */
  allowHosts: string[];
}

/** A subscription and what its runs did, as `calendar.subscriptions.status()` and `subscriptions list` show it. */
export interface SubscriptionStatus {
  name: string;
  url: string;
  settings: SubscriptionSettings;
  /** `option` (the `subscriptions` option) or `cli` (`calendar-events-rest subscribe`). */
  origin: string;
  /** When it is due next (ISO; `''`: now). */
  nextRunAt: string;
  lastRunAt: string;
  /** `imported`, `not-modified`, `failed`, or `''` before its first run. */
  lastOutcome: string;
  lastError: string;
  /** What its last import did. */
  lastReport?: FeedReport;
  runs: number;
  /** Runs the feed answered 304 (unchanged since the last). */
  notModified: number;
  failures: number;
  /** Whether an instance holds it (running it) now. */
  running: boolean;
}

/** The option resolved. */
export interface ResolvedSubscriptions extends Required<Omit<SubscriptionsOption, 'feeds' | 'onRun' | 'allowHosts'>> {
  feeds: { name: string; url: string; settings: SubscriptionSettings }[];
  allowHosts: readonly string[];
  onRun?: (status: SubscriptionStatus) => void;
}

const UNITS: Record<string, number> = { m: 1, min: 1, h: 60, d: 1440 };

/** Minutes of an interval (`60`, `'90m'`, `'6h'`, `'1d'`), at least one; `undefined` when it is none. */
export function intervalMinutes(value: number | string): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 1 ? value : undefined;
  const m = /^\s*(\d{1,6})\s*(m|min|h|d)?\s*$/i.exec(value);
  if (!m) return undefined;
  const minutes = Number(m[1]) * (UNITS[(m[2] ?? 'm').toLowerCase()] ?? 1);
  return minutes >= 1 ? minutes : undefined;
}

/** The widest name stored (the column's width). */
const NAME_MAX = 190;

/** A subscription's name: the one given, else its URL (cut to the column). */
export function subscriptionName(feed: { url: string; name?: string }): string {
  return (feed.name ?? feed.url).trim().slice(0, NAME_MAX);
}

/** Whether a URL is one a feed can be read from. */
export function isFeedUrl(url: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(feedUrl(url)).protocol);
  } catch {
    return false;
  }
}

/** A whole number option of at least `least`, or the error naming it. */
function whole(name: string, value: number, least: number): number {
  if (!Number.isSafeInteger(value) || value < least) throw invalidOption(name, value, `a whole number of at least ${least}`);
  return value;
}

/** Checks the `subscriptions` option once, naming what is wrong. */
export function resolveSubscriptions(o: SubscriptionsOption | undefined): ResolvedSubscriptions | undefined {
  if (o === undefined) return undefined;
  const names = new Set<string>();
  const feeds = (o.feeds ?? []).map((f, i) => {
    const at = `subscriptions.feeds[${i}]`;
    if (typeof f.url !== 'string' || !isFeedUrl(f.url)) throw invalidOption(`${at}.url`, f.url, 'an http, https or webcal URL');
    const name = subscriptionName(f);
    if (!name || names.has(name)) throw invalidOption(`${at}.name`, name, 'a name no other feed has');
    names.add(name);
    const everyMinutes = intervalMinutes(f.every ?? 60);
    if (everyMinutes === undefined) throw invalidOption(`${at}.every`, f.every, "minutes, or a text such as '90m', '6h' or '1d'");
    if (f.status !== undefined && f.status !== 'publish' && f.status !== 'draft') throw invalidOption(`${at}.status`, f.status, "'publish' or 'draft'");
    if (f.categories !== undefined && (!Array.isArray(f.categories) || !f.categories.every((c) => typeof c === 'string' && c.trim())))
      throw invalidOption(`${at}.categories`, f.categories, 'a list of category names');
    const settings: SubscriptionSettings = {
      everyMinutes,
      categories: (f.categories ?? []).map((c) => c.trim()),
      status: f.status ?? 'publish',
      overwrite: f.overwrite === true,
      allowHosts: [],
    };
    return { name, url: f.url, settings };
  });
  const allowHosts = o.allowHosts ?? [];
  allowHosts.forEach((h, i) => {
    if (typeof h !== 'string' || !parseAllowedHost(h))
      throw invalidOption(`subscriptions.allowHosts[${i}]`, h, 'a host or host:port such as intranet.example or 10.0.0.5:8080');
  });
  const limit = (name: keyof typeof FEED_DEFAULTS) => whole(`subscriptions.${name}`, o[name] ?? FEED_DEFAULTS[name], 1);
  const timeoutMs = limit('timeoutMs');
  const runTimeoutMs = limit('runTimeoutMs');
  const leaseMs = whole('subscriptions.leaseMs', o.leaseMs ?? 900_000, 1);
  // The lease must outlast a whole run, or another instance could take the feed over while it runs.
  if (leaseMs <= timeoutMs + runTimeoutMs)
    throw invalidOption('subscriptions.leaseMs', leaseMs, `more than timeoutMs + runTimeoutMs (${timeoutMs + runTimeoutMs})`);
  return {
    feeds,
    run: o.run ?? true,
    pollMs: whole('subscriptions.pollMs', o.pollMs ?? 60_000, 1),
    leaseMs,
    author: whole('subscriptions.author', o.author ?? 0, 0),
    allowHosts,
    maxBytes: limit('maxBytes'),
    timeoutMs,
    runTimeoutMs,
    maxEvents: limit('maxEvents'),
    ...(o.onRun ? { onRun: o.onRun } : {}),
  };
}
