import { SeriesService } from '../recurrence/series.js';
import { HorizonKeeper, extendIndex } from '../recurrence/horizon.js';
import type { Limits } from '../http/limits.js';
import type { RecurrenceOptions } from '../recurrence/series.js';
import type { PostKindInfo } from '../posts/kinds.js';
import type { Store } from './store.js';
import type { ItemTable } from './linked/store.js';
import type { KindRegistry } from '../host-kinds/registry.js';
import { hostLinkedKind } from './host-kinds/kind.js';
import type { PostStore } from '../posts/queries.js';
import { ImageService } from '../images/service.js';
import { LinkedPostService } from './linked/service.js';
import { organizerKind } from './organizers/kind.js';
import { TermService } from './terms/service.js';
import { EventService } from './events/service.js';
import { venueKind } from './venues/kind.js';
import type { ChangeLog } from '../changes/log.js';
import { IcalService } from './ical/service.js';
import { HostFields } from '../fields/values.js';
import type { FieldRegistry } from '../fields/registry.js';
import { NO_HOOKS, type CalendarHooks } from '../hooks/calendar-hooks.js';
import type { ResolvedGeo } from '../geo/options.js';
import { VenueLocator } from './venues/locate.js';

/** The business rules of the calendar, by resource. */
export interface Services {
  terms: TermService;
  posts: PostStore;
  images: ImageService;
  venues: LinkedPostService<'venues'>;
  organizers: LinkedPostService<'organizers'>;
  events: EventService;
  /** Events as iCalendar, for the feeds. */
  ical: IcalService;
  /** The change log, for reading (writes note their changes in their own transactions). */
  changes: ChangeLog;
  /** How far ahead the occurrences of recurring events are indexed (`recurrence/horizon.ts`). */
  horizon: HorizonKeeper;
  /** The fields the host declared, by kind: their values written and shown. */
  fields: HostFields;
  /** The service of a linked kind (venue or organizer) or of a host's kind (`kinds` option). */
  linked(kind: PostKindInfo): LinkedPostService<ItemTable>;
}

// A request reaches these services as `ctx.services` (the HTTP core names no resource).
declare module '../http/context.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the merge itself is the declaration
  interface ContextServices extends Services {}
}

/** What the services need of the calendar's options. */
export interface ServiceOptions {
  timezone: string;
  imageHosts: readonly string[];
  limits: Pick<Limits, 'imageBytes' | 'imageBytesInFlight' | 'imagesPerRequest'>;
  recurrence: RecurrenceOptions;
  onError: (error: unknown) => void;
  /** Another user as `author` only with the kind's `edit_others` (`posts/author.ts`). */
  strictAuthor: boolean;
  /** The fields the host declared (`fields/`). */
  fields: FieldRegistry;
  /** The kinds the host declared (`host-kinds/`). */
  kinds?: KindRegistry;
  /** The host's hooks (`hooks/`). */
  hooks?: CalendarHooks;
  /** The host's geocoder (`geo.geocoder`) and how long a write waits for it. */
  geo?: Pick<ResolvedGeo, 'geocoder' | 'timeoutMs'>;
}

/** Builds the services over a store. */
export function createServices(store: Store, options: ServiceOptions): Services {
  const images = new ImageService(store, options);
  const fields = new HostFields(options.fields);
  const hooks = options.hooks ?? NO_HOOKS;
  const locator = new VenueLocator(options.geo ?? { geocoder: undefined, timeoutMs: 1 }, options.onError);
  const venues = new LinkedPostService(store, images, venueKind, options.strictAuthor, fields, hooks, (input, current) => locator.locate(input, current));
  const organizers = new LinkedPostService(store, images, organizerKind, options.strictAuthor, fields, hooks);
  const hosted = new Map(
    (options.kinds?.list ?? []).map((k) => [k.collection, new LinkedPostService(store, images, hostLinkedKind(k), options.strictAuthor, fields, hooks)]),
  );
  const terms = new TermService(store, fields, hooks);
  const series = new SeriesService(options.recurrence, options.onError);
  const events = new EventService(store, {
    images,
    terms,
    venues,
    organizers,
    timezone: options.timezone,
    imagesPerRequest: options.limits.imagesPerRequest,
    series,
    strictAuthor: options.strictAuthor,
    fields,
    hooks,
  });
  const horizon = new HorizonKeeper(series, (until) => extendIndex(store, series, options.timezone, until, new Date(), options.onError), options.onError);
  return {
    terms,
    events,
    ical: new IcalService(events, fields.icalNames),
    posts: store.posts,
    changes: store.changes,
    horizon,
    images,
    venues,
    organizers,
    fields,
    linked(kind) {
      if (kind.type === 'venue') return venues;
      if (kind.type === 'organizer') return organizers;
      const service = hosted.get(kind.collection);
      if (!service) throw new Error(`calendar: no service for ${kind.collection}`);
      return service;
    },
  };
}
