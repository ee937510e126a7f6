import { SCHEMAS } from '../schemas/responses.js';

/** `cost_details` of a password-protected item; note its own key order. */
export const REDACTED_COST_DETAILS: Readonly<{
  currency_symbol: '';
  currency_position: '';
  currency_code: '';
  values: readonly never[];
}> = Object.freeze({
  currency_symbol: '',
  currency_position: '',
  currency_code: '',
  values: Object.freeze([]),
});

/** What each key of a password-protected item becomes. */
const REPLACEMENTS: Record<string, () => unknown> = {
  description: () => '',
  excerpt: () => '',
  image: () => false,
  all_day: () => null,
  cost: () => '',
  cost_details: () => ({ ...REDACTED_COST_DETAILS, values: [] }),
  website: () => '',
  show_map: () => null,
  show_map_link: () => null,
  hide_from_listings: () => null,
  sticky: () => null,
  featured: () => null,
  categories: () => [],
  tags: () => [],
  venue: () => [],
  organizer: () => [],
  ticketed: () => null,
  is_virtual: () => null,
  virtual_url: () => '',
  virtual_video_source: () => '',
  attendance: () => ({ total_attendees: null, checked_in: null, not_checked_in: null }),
  custom_fields: () => [],
  email: () => '',
  phone: () => '',
  geo_lat: () => 0,
  geo_lng: () => 0,
  stateprovince: () => '',
  zip: () => '',
  province: () => '',
  country: () => '',
  city: () => '',
  address: () => '',
};

/** The keys of the API's own items: any other key of an item is a host's field (`fields/`). */
const OWN_KEYS: ReadonlySet<string> = new Set([SCHEMAS.Event, SCHEMAS.Venue, SCHEMAS.Organizer].flatMap((schema) => Object.keys(schema)));

/**
 * Redacts a password-protected item in place of its keys, walking nested objects. The host's
 * fields of the item show `null`: what they hold is the host's, and may be as private as its text.
 */
export function redact<T extends object>(value: T): T {
  // Every key stays; the replacements are values the item types allow for them (flags `null`,
  // lists empty, a redacted venue's or organizer's name `[]`).
  const out = redactObject(value);
  for (const key of Object.keys(out)) if (!OWN_KEYS.has(key)) out[key] = null;
  return out as T;
}

function redactObject(value: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    const replace = REPLACEMENTS[key];
    if (replace) out[key] = replace();
    else if (Array.isArray(v)) out[key] = v.map((x: unknown) => (typeof x === 'object' && x !== null ? redactObject(x) : x));
    else if (typeof v === 'object' && v !== null) out[key] = redactObject(v);
    else out[key] = v;
  }
  return out;
}
