/**
 * A venue write's coordinates: sent as a pair, or asked of the host's geocoder (`geo.geocoder`)
 * when the write changes the address and sends none. Runs before the write's transaction, so
 * that no lock is held while the geocoder works.
 */
import type { ResolvedGeo, VenueAddress } from '../../geo/options.js';
import { MAX_LAT, MAX_LNG, readCoordinate } from '../../geo/coordinates.js';
import { invalidParams } from '../../http/errors.js';
import type { LinkedInput } from '../linked/args.js';
import type { LinkedRow } from '../linked/store.js';
import { venueKind } from './kind.js';

/** The fields that make a venue's address, in the order a one-line address names them. */
const ADDRESS_FIELDS = ['address', 'city', 'state', 'province', 'zip', 'country'] as const;

/** Reads a venue write's coordinates, and asks the host's geocoder for those of a changed address. */
export class VenueLocator {
  constructor(
    private readonly geo: Pick<ResolvedGeo, 'geocoder' | 'timeoutMs'>,
    private readonly onError: (error: unknown) => void,
  ) {}

  /**
   * The input to store: unchanged when it sends both coordinates (or neither and no new address,
   * or there is no geocoder); with the geocoder's coordinates when it changes the address, or
   * without any (`null`) when the geocoder has none or fails (reported to `onError`). One
   * coordinate without the other is a 400.
   */
  async locate(input: LinkedInput, current: LinkedRow<'venues'> | undefined): Promise<LinkedInput> {
    const latSent = input.geo_lat !== undefined;
    if (latSent !== (input.geo_lng !== undefined)) {
      const [missing, given] = latSent ? ['geo_lng', 'geo_lat'] : ['geo_lat', 'geo_lng'];
      throw invalidParams(new Map([[missing, { message: `${missing} is required with ${given}.` }]]));
    }
    const geocoder = this.geo.geocoder;
    if (latSent || !geocoder) return input;
    const address = changedAddress(input, current);
    if (!address) return input;
    const none = { ...input, geo_lat: null, geo_lng: null };
    // No address left: coordinates of the old one would place the venue where it no longer is.
    if (!address.text) return none;
    try {
      const found = await this.withTimeout((signal) => geocoder(address, signal));
      if (found === null || found === undefined) return none;
      const lat = readCoordinate(found.lat, MAX_LAT);
      const lng = readCoordinate(found.lng, MAX_LNG);
      if (lat === undefined || lng === undefined) throw new TypeError('it answered something other than { lat, lng } in degrees, or null');
      return { ...input, geo_lat: lat, geo_lng: lng };
    } catch (error) {
      this.onError(
        new Error(
          `calendar-events-rest: the geocoder failed for the venue address ${JSON.stringify(address.text)}; the venue is written without coordinates.`,
          {
            cause: error,
          },
        ),
      );
      return none;
    }
  }

  /** `work`, given up on (its signal aborted) after `geo.timeoutMs`. */
  private async withTimeout<R>(work: (signal: AbortSignal) => R | Promise<R>): Promise<R> {
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(new Error(`no answer in ${this.geo.timeoutMs} ms`));
      }, this.geo.timeoutMs);
    });
    try {
      return await Promise.race([Promise.resolve().then(() => work(controller.signal)), expired]);
    } finally {
      clearTimeout(timer);
    }
  }
}

/**
 * The venue's address after the write when the write changes it (a new venue: when it has one),
 * as the geocoder is given it; `undefined` when the address stays as it was.
 */
function changedAddress(input: LinkedInput, current: LinkedRow<'venues'> | undefined): VenueAddress | undefined {
  const next = venueKind.details(input, current);
  const before = (f: (typeof ADDRESS_FIELDS)[number]) => current?.[f] ?? '';
  if (!ADDRESS_FIELDS.some((f) => next[f] !== undefined && next[f] !== before(f))) return undefined;
  const fields = Object.fromEntries(ADDRESS_FIELDS.map((f) => [f, next[f] ?? before(f)])) as Record<(typeof ADDRESS_FIELDS)[number], string>;
  const parts = ADDRESS_FIELDS.map((f) => fields[f].trim()).filter((v, i, all) => v !== '' && all.indexOf(v) === i);
  const name = input.venue !== undefined ? String(input.venue) : (current?.title ?? '');
  return { venue: name, ...fields, text: parts.join(', ') };
}
