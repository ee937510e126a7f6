import { arg, type Arg, type ParamsOf } from '../../args/arg.js';
import { nonEmptyString } from '../../args/checks.js';
import { toId } from '../../ids.js';
import type { RequestContext } from '../../http/context.js';
import type { PostKindInfo } from '../../posts/kinds.js';
import type { DescriptionKey } from '../../i18n/en.js';
import { pageArg, perPageArg } from '../../archive/args.js';
import { archiveStatusCheck, existingEvent, existingUser, registeredStatus, stringOrEmpty, time, urlOrEmpty } from '../../posts/args.js';
import { imageCheck } from '../../images/args.js';
import { linkedSearchCheck } from '../../args/search.js';
import { geolocArgs } from '../venues/geoloc.js';
import { z } from 'zod';
import type { ParamFailure } from '../../args/failure.js';
import { MAX_LAT, MAX_LNG, readCoordinate } from '../../geo/coordinates.js';

type Ctx = RequestContext;

/**
 * Arguments of the venue and organizer archives; a host's kind's (`kinds` option) has no links to
 * events to filter by, and its descriptions name its noun.
 */
export function linkedArchiveArgs(kind: PostKindInfo) {
  const k = kind.noun === 'venue' ? 'venue' : kind.noun === 'organizer' ? 'organizer' : undefined;
  return {
    page: pageArg,
    per_page: perPageArg,
    search: arg(
      {
        description: k ? `${k}s.search` : { en: `Limit results to ${kind.collection} containing the string in the name, description or excerpt` },
        type: 'string',
      },
      { check: linkedSearchCheck },
    ),
    ...(k
      ? {
          event: arg({ description: `${k}s.event`, type: 'integer' }, { check: existingEvent }),
          has_events: arg({ description: `${k}s.has_events` }, { swaggerType: 'boolean' }),
          only_with_upcoming: arg({ description: `${k}s.only_with_upcoming`, default: false }),
        }
      : {}),
    status: arg({ format: 'string', description: k ? `${k}s.status` : { en: `The ${kind.noun} post status` } }, { check: archiveStatusCheck(kind) }),
    // Venues have coordinates: the distance filter of the events archive, on the venues themselves.
    ...(k === 'venue' ? geolocArgs('venues') : {}),
  };
}

/** An existing item of the kind, by id (else 400). */
export function linkedIdArg(kind: PostKindInfo) {
  return arg(
    { type: 'integer', description: `${kind.noun}.id` as DescriptionKey },
    {
      required: true,
      in: 'path',
      check: async (value: unknown, ctx: Ctx) => {
        const id = toId(value);
        return id !== undefined && (await ctx.services.posts.typeOf(id)) === kind.type;
      },
    },
  );
}

/** An existing item of the kind, by slug (else 400). */
export function linkedSlugArg(kind: PostKindInfo) {
  return arg(
    { type: 'string', description: `${kind.noun}.slug` as DescriptionKey },
    {
      required: true,
      in: 'path',
      check: async (value: unknown, ctx: Ctx) => typeof value === 'string' && value !== '' && (await ctx.services.linked(kind).bySlug(value)) !== undefined,
    },
  );
}

const stringArg = (description: DescriptionKey) => arg({ type: 'string', default: null, description }, { check: stringOrEmpty });

/** Venue create arguments, in upstream order. */
export function venueWriteArgs<R extends boolean>(required: R) {
  return {
    author: arg({ type: 'integer', description: 'venue.author' }, { check: existingUser }),
    date: arg({ type: 'string', description: 'venue.date' }, { check: time }),
    date_utc: arg({ type: 'string', description: 'venue.date_utc' }, { check: time }),
    venue: arg({ type: 'string', description: 'venue.venue' }, { required, check: nonEmptyString }),
    description: arg({ type: 'string', default: null, description: 'venue.description' }, { check: stringOrEmpty }),
    status: arg({ type: 'string', description: 'venue.status' }, { check: registeredStatus }),
    // Type-checked only: a JSON boolean is `show_map is not of type string.`
    show_map: arg({ type: 'string', default: null, description: 'venue.show_map' }),
    show_map_link: arg({ type: 'string', default: null, description: 'venue.show_map_link' }),
    address: stringArg('venue.address'),
    city: stringArg('venue.city'),
    country: stringArg('venue.country'),
    province: stringArg('venue.province'),
    state: stringArg('venue.state'),
    zip: stringArg('venue.zip'),
    phone: stringArg('venue.phone'),
    stateprovince: stringArg('venue.stateprovince'),
    website: arg({ type: 'string', default: null, description: 'venue.website' }, { check: urlOrEmpty }),
    image: arg({ type: 'string', default: null, description: 'venue.image' }, { check: imageCheck({ allowEmpty: true }) }),
    // This library's own (the original's Pro add-on fills them from its geocoder): not in the index nor the original /doc.
    geo_lat: coordinateArg('geo_lat', MAX_LAT),
    geo_lng: coordinateArg('geo_lng', MAX_LNG),
  };
}

/** A venue coordinate of a write: a number within `±most`, or `""` to remove the venue's coordinates (`null`). */
function coordinateArg(name: 'geo_lat' | 'geo_lng', most: number) {
  return arg(
    { format: 'double', description: `venue.${name}` },
    {
      check: (value: unknown): true | ParamFailure =>
        value === '' || readCoordinate(value, most) !== undefined
          ? true
          : { message: `${name} must be a number from -${most} to ${most}, or an empty string.` },
      sanitize: (value: unknown): number | null => readCoordinate(value, most) ?? null,
      accepts: z.union([z.number(), z.string()]),
      addition: true,
    },
  );
}

/** Organizer create arguments, in upstream order. */
export function organizerWriteArgs<R extends boolean>(required: R) {
  return {
    author: arg({ type: 'integer', default: null, description: 'organizer.author' }, { check: existingUser }),
    date: arg({ type: 'string', default: null, description: 'organizer.date' }, { check: time }),
    date_utc: arg({ type: 'string', default: null, description: 'organizer.date_utc' }, { check: time }),
    organizer: arg({ type: 'string', default: null, description: 'organizer.organizer' }, { required, check: nonEmptyString }),
    description: stringArg('organizer.description'),
    status: arg({ type: 'string', default: null, description: 'organizer.status' }, { check: registeredStatus }),
    phone: stringArg('organizer.phone'),
    website: arg({ type: 'string', default: null, description: 'organizer.website' }, { check: urlOrEmpty }),
    email: stringArg('organizer.email'),
    image: arg({ type: 'string', default: null, description: 'organizer.image' }, { check: imageCheck({ allowEmpty: true }) }),
  };
}

/** The write arguments of a linked kind. */
export type LinkedWriteArgs = Record<string, Arg<unknown, boolean, Ctx>>;

/** A venue or organizer write's parameters, after validation: what their write arguments declare (none required on update). */
export type LinkedInput = Partial<ParamsOf<ReturnType<typeof venueWriteArgs<false>>> & ParamsOf<ReturnType<typeof organizerWriteArgs<false>>>> & {
  // A host's kind's name (its noun) and fields.
  readonly [param: string]: unknown;
};
