import { arg } from '../../args/arg.js';
import { nonEmptyString } from '../../args/checks.js';
import type { HostKind } from '../../host-kinds/registry.js';
import { isDescriptionKey, type Description } from '../../i18n/index.js';
import { en } from '../../i18n/en.js';
import { imageCheck } from '../../images/args.js';
import { existingUser, registeredStatus, stringOrEmpty, time } from '../../posts/args.js';
import { SCHEMAS, type Field } from '../../schemas/responses.js';
import { resourceDoc } from '../doc/resources.js';
import { linkedRoutes } from '../linked/routes.js';
import type { Resource } from '../resource.js';

/** The name of a kind's item schema in `/doc`: its noun in Pascal case (`sponsor` → `Sponsor`, `price_tier` → `PriceTier`). */
export function schemaName(noun: string): string {
  return noun.replace(/(^|_)([a-z0-9])/g, (_, __, c: string) => c.toUpperCase());
}

/** A text for a host's kind, in English (the other languages fall back to it), or the host's own. */
const english = (text: string): Description => ({ en: text });

/** What `/doc` says of each response, with the kind's noun (upstream's texts for organizers, reworded). */
const RESPONSES: Readonly<Record<string, (noun: string, collection: string) => string>> = {
  archive: (_, c) => `Returns the ${c} matching the query`,
  read: (n) => `Returns the data of the ${n}`,
  read_forbidden: (n) => `The ${n} is not accessible to the current user`,
  not_found: (n) => `The ${n} does not exist`,
  updated: (n) => `Returns the data of the updated ${n}`,
  created: (n) => `Returns the data of the created ${n}`,
  write_forbidden: (n) => `The current user may not create or edit this ${n}`,
  deleted: (n) => `Returns the data of the deleted ${n}`,
  delete_forbidden: (n) => `The current user may not delete this ${n}`,
  gone: (n) => `The ${n} has already been deleted`,
  delete_failed: (n) => `The ${n} could not be deleted`,
};

/** The write arguments of a host's kind: an organizer's, with its name under the noun and no contact details; its fields are added with the others' (`resources/fields.ts`). */
function writeArgs(kind: HostKind) {
  const { noun } = kind;
  return <R extends boolean>(required: R) => ({
    author: arg({ type: 'integer', default: null, description: english(`The ${noun} author ID`) }, { check: existingUser }),
    date: arg({ type: 'string', default: null, description: english(`The ${noun} publication date`) }, { check: time }),
    date_utc: arg({ type: 'string', default: null, description: english(`The ${noun} publication date (UTC timezone)`) }, { check: time }),
    [noun]: arg({ type: 'string', default: null, description: english(`The ${noun} name`) }, { required, check: nonEmptyString }),
    description: arg({ type: 'string', default: null, description: english(`The ${noun} description`) }, { check: stringOrEmpty }),
    status: arg({ type: 'string', default: null, description: english(`The ${noun} post status`) }, { check: registeredStatus }),
    image: arg({ type: 'string', default: null, description: english(`The ${noun} featured image ID or URL`) }, { check: imageCheck({ allowEmpty: true }) }),
  });
}

/**
 * An organizer's description of a property, said of the kind (`The organizer post ID` → `The
 * sponsor post ID`), in English: the other languages fall back to it.
 */
function reworded(description: Description, kind: HostKind): Description {
  if (!isDescriptionKey(description)) return description;
  const text = en[description].replaceAll('organizers', kind.collection).replaceAll('organizer', kind.noun).replaceAll('Organizer', schemaName(kind.noun));
  return english(text);
}

/** The names of the complete document's own schemas of the built-in kinds (`EventCreate`, `VenueList`). */
const BUILT_IN_BODIES = /^(Event|Venue|Organizer|Category|Tag)(Create|Update|List)$/;

/** Organizer properties a host's kind does not have. */
const NOT_HOSTED = new Set(['organizer', 'phone', 'website', 'email', 'json_ld']);

/** The response schemas of a host's kind: its items (an organizer's properties, its name under its noun) and its lists. */
function schemasOf(kind: HostKind): Readonly<Record<string, Readonly<Record<string, Field>>>> {
  const item: Record<string, Field> = {};
  for (const [key, field] of Object.entries<Field>(SCHEMAS.Organizer)) {
    if (key === 'organizer') item[kind.noun] = { ...field, description: english(`The ${kind.noun} name`) };
    else if (!NOT_HOSTED.has(key)) item[key] = { ...field, description: reworded(field.description, kind) };
  }
  const name = schemaName(kind.noun);
  const { organizers, ...paging } = SCHEMAS.OrganizerList;
  const list = {
    [kind.collection]: {
      ...organizers,
      description: english(`The ${kind.collection}`),
      json: { type: 'array', items: { $ref: `#/components/schemas/${name}` } },
    },
    ...paging,
  };
  return { [name]: item, [`${name}List`]: list };
}

/**
 * The resource of a host's kind: `/{collection}`, by id and by slug, on the rules venues and
 * organizers share (`linked/`), documented like organizers.
 */
export function hostKindResource(kind: HostKind): Resource {
  const name = schemaName(kind.noun);
  // Its schemas (`Sponsor`, `SponsorList`, `SponsorCreate`, `SponsorUpdate`) beside the API's own.
  if (name in SCHEMAS || BUILT_IN_BODIES.test(name))
    throw new TypeError(
      `calendar-events-rest: option \`kinds.${kind.collection}\` uses the noun '${kind.noun}', whose schema ${name} the API already has; choose another`,
    );
  const describe = (suffix: string): Description => english(RESPONSES[suffix]?.(kind.noun, kind.collection) ?? '');
  return {
    collection: kind.collection,
    routes: linkedRoutes((ctx) => ctx.services.linked(kind.info), kind.info, writeArgs(kind)),
    doc: resourceDoc(
      kind.collection,
      { schema: name, body: 'read+create', readForbidden: true, updateResponse: true, noun: name, trash: true, writeNotFound: false },
      describe,
    ),
    schemas: schemasOf(kind),
  };
}
