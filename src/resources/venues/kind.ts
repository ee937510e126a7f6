import { dropEmpty, isTruthy, phpEmpty } from '../../php/empty.js';
import { globalIds, jsonLdText, linkedHead, linkedText } from '../linked/json.js';
import { VENUE } from '../../posts/kinds.js';
import type { DetailsOf } from '../linked/store.js';
import { sanitizeTextField } from '../../text/sanitize.js';
import { sanitizeUrl } from '../../text/url.js';
import type { LinkedInput } from '../linked/args.js';
import type { LinkedKind } from '../linked/service.js';
import type { Image } from '../../schemas/types.js';
import { MAX_LAT, MAX_LNG, readCoordinate } from '../../geo/coordinates.js';
import { merged } from '../../merged.js';

type Venue = DetailsOf<'venues'>;
const TEXT_FIELDS = ['address', 'city', 'country', 'province', 'state', 'zip', 'phone'] as const;

const text = (v: unknown) => (phpEmpty(v) ? '' : sanitizeTextField(String(v)));

/**
 * `stateprovince` when not given: the state for US (or unnamed) countries,
 * else the province.
 */
function stateProvince(d: Pick<Venue, 'state' | 'province' | 'country'>): string {
  if (d.state && ['', 'US', 'United States'].includes(d.country)) return d.state;
  return d.province || '';
}

/** Venues: address fields, map flags and the state/province rule. */
export const venueKind: LinkedKind<'venues'> = {
  info: VENUE,
  rows: (store) => store.venues,
  titleKey: 'venue',
  blank: () => ({
    address: '',
    city: '',
    country: '',
    province: '',
    state: '',
    zip: '',
    phone: '',
    stateprovince: '',
    website: '',
    show_map: 1,
    show_map_link: 1,
    geo_lat: null,
    geo_lng: null,
  }),
  details(input: LinkedInput, current: Venue | undefined) {
    const out: Partial<Venue> = {};
    for (const f of TEXT_FIELDS) if (input[f] !== undefined) out[f] = text(input[f]);
    if (input.website !== undefined) out.website = phpEmpty(input.website) ? '' : sanitizeUrl(String(input.website));
    // Map flags are strings upstream: a truthy word turns them on, any other string off.
    if (input.show_map !== undefined) out.show_map = isTruthy(input.show_map) ? 1 : 0;
    if (input.show_map_link !== undefined) out.show_map_link = isTruthy(input.show_map_link) ? 1 : 0;
    // Coordinates are stored as a pair: both numbers, or neither (`""` removes them).
    if (input.geo_lat !== undefined || input.geo_lng !== undefined) {
      const lat = readCoordinate(input.geo_lat, MAX_LAT);
      const lng = readCoordinate(input.geo_lng, MAX_LNG);
      const pair = lat !== undefined && lng !== undefined;
      out.geo_lat = pair ? lat : null;
      out.geo_lng = pair ? lng : null;
    }
    const given = input.stateprovince !== undefined ? text(input.stateprovince) : '';
    const locationSent = input.state !== undefined || input.province !== undefined || input.country !== undefined;
    if (given) out.stateprovince = given;
    else if (!current || locationSent || input.stateprovince !== undefined) {
      out.stateprovince = stateProvince({
        state: out.state ?? current?.state ?? '',
        province: out.province ?? current?.province ?? '',
        country: out.country ?? current?.country ?? '',
      });
    }
    return out;
  },
  represent(row, view) {
    const { name, ...text } = linkedText(row, view);
    return merged(
      linkedHead(VENUE, row, view),
      dropEmpty({
        venue: name,
        ...text,
        address: row.address,
        city: row.city,
        country: row.country,
        province: row.province,
        state: row.state,
        zip: row.zip,
        phone: row.phone,
        website: row.website,
        stateprovince: row.stateprovince,
        ...(row.geo_lat && row.geo_lng ? { geo_lat: row.geo_lat, geo_lng: row.geo_lng } : {}),
        ...(view.jsonLd ? { json_ld: venueJsonLd(row, view.image) } : {}),
      }),
      { show_map: row.show_map === 1, show_map_link: row.show_map_link === 1 },
      globalIds(row.id, view.urls),
    );
  },
};

/** The schema.org `Place` of a venue. */
export function venueJsonLd(row: Parameters<typeof venueKind.represent>[0], image: false | Image): Record<string, unknown> {
  const address: Record<string, unknown> = { '@type': 'PostalAddress' };
  const parts: [string, string][] = [
    ['streetAddress', row.address],
    ['addressLocality', row.city],
    ['addressRegion', row.state || row.province],
    ['postalCode', row.zip],
    ['addressCountry', row.country],
  ];
  for (const [k, v] of parts) if (v) address[k] = v;
  return {
    '@type': 'Place',
    ...jsonLdText(row),
    ...(image ? { image: image.url } : {}),
    url: '',
    address,
    ...(row.geo_lat && row.geo_lng ? { geo: { '@type': 'GeoCoordinates', latitude: row.geo_lat, longitude: row.geo_lng } } : {}),
    telephone: row.phone,
    sameAs: row.website,
  };
}
