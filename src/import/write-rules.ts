/**
 * What a source shows goes through the rules of an API write of the same fields: the checks
 * and the cleaning a write by a caller without `unfiltered_html` gets (with `keepHtml`, an
 * administrator's). Each step here is the API's own function (request limits, `cleanText`,
 * the declared checks of the fields, the HTML filter); this module only says which field is
 * which, refuses an item with the field that failed, and keeps what cleaning changed.
 */
import { nonEmptyString } from '../args/checks.js';
import { ApiError } from '../http/errors.js';
import { DEFAULT_LIMITS, limitFailure } from '../http/limits.js';
import { cleanText } from '../http/params.js';
import { phpEmpty } from '../php/empty.js';
import { ZERO_DATE } from '../posts/status.js';
import { isEventTimezone, isWriteTime } from '../resources/events/args.js';
import { assertStorable } from '../resources/linked/service.js';
import { filterForCaller, type FilteredField } from '../text/render.js';
import { isUrlOrEmpty } from '../text/url.js';

/** A field of a source item that an API write would refuse: the item is skipped, with this reason. */
export class Refusal extends Error {
  constructor(
    readonly field: string,
    why: string,
  ) {
    super(`${field}: ${why}`);
  }
}

/** A value the rules changed, as the report lists it. */
export interface Alteration {
  field: string;
  /** What the source showed (its first {@link SHOWN} characters). */
  from: string;
  /** What was stored (its first {@link SHOWN} characters). */
  to: string;
}

/** Characters of a value a report shows: a hostile source's megabyte is not worth repeating. */
const SHOWN = 200;

/** The start of a value, as a report shows it. */
const shown = (value: string) => (value.length > SHOWN ? `${value.slice(0, SHOWN)}…` : value);

/** A value quoted for a reason. */
const quoted = (value: unknown) => JSON.stringify(shown(typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value))));

/** A date as the source writes it (`YYYY-MM-DD HH:MM:SS`). */
const WALL_CLOCK = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/** The rules of an API write, applied to the fields of one source item; what they change is kept in {@link altered}. */
export class ItemRules {
  /** What cleaning changed, field by field. */
  readonly altered: Alteration[] = [];

  constructor(
    /** Titles and texts filtered as an administrator's write (`unfiltered_html`), not an author's. */
    private readonly keepHtml: boolean,
    /** The run's clock (dates relative to it, as a request's). */
    private readonly now: Date,
  ) {}

  /** `to`, recorded as what became of `from` when the source showed a different string. */
  note(field: string, from: unknown, to: string): string {
    if (typeof from === 'string' && from !== to) this.altered.push({ field, from: shown(from), to: shown(to) });
    return to;
  }

  /** Refuses a value over the limits of one API parameter (its strings, its items, its depth). */
  within(field: string, value: unknown, list = false): void {
    if (limitFailure(field, value, DEFAULT_LIMITS, list)) {
      throw new Refusal(
        field,
        `too large (an API write takes strings of at most ${DEFAULT_LIMITS.stringLength} characters, lists of at most ${DEFAULT_LIMITS.listItems} items)`,
      );
    }
  }

  /** A text as a write receives it: within the limits, cleaned as request bodies are (`cleanText`); PHP-empty values are `''`. */
  text(field: string, value: unknown): string {
    if (phpEmpty(value)) return '';
    if (typeof value !== 'string') throw new Refusal(field, `${quoted(value)} is not a text`);
    this.within(field, value);
    return cleanText(value);
  }

  /** A field a write requires (a title, a name): the declared check's non-empty string. */
  required(field: string, value: unknown): void {
    if (!nonEmptyString.safeParse(value).success) throw new Refusal(field, 'empty, and an API write requires it');
  }

  /** A title, description or excerpt, through the HTML filter of the write's caller. */
  html(field: string, value: unknown, filter: FilteredField): string {
    return this.note(field, value, filterForCaller(this.text(field, value), this.keepHtml, filter));
  }

  /** A URL field as a write's check accepts it (`FILTER_VALIDATE_URL`, or empty), not yet cleaned (`sanitizeUrl` is the store's step). */
  url(field: string, value: unknown): string {
    const url = this.text(field, value);
    if (!isUrlOrEmpty(url)) throw new Refusal(field, `${quoted(url)} is not a URL an API write accepts`);
    return url;
  }

  /** A date as an event write accepts it (a day that exists), in the source's wall-clock form; `undated`: a draft's `0000-00-00 00:00:00` too. */
  date(field: string, value: unknown, undated = false): string {
    if (undated && value === ZERO_DATE) return ZERO_DATE;
    if (typeof value !== 'string' || !WALL_CLOCK.test(value) || !isWriteTime(value, this.now)) throw new Refusal(field, `${quoted(value)} is not a date`);
    return value;
  }

  /** An event's `timezone` as a write accepts it: empty, or a zone. */
  timezone(field: string, value: unknown): string {
    const zone = this.text(field, value);
    if (!isEventTimezone(zone)) throw new Refusal(field, `${quoted(zone)} is not a time zone an API write accepts`);
    return zone;
  }

  /** Refuses values no store holds, as venue and organizer writes do (`assertStorable`: 64 KiB a text, measured once cleaned). */
  storable(values: Record<string, unknown>): void {
    try {
      assertStorable(values);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      const params = e.data && typeof e.data.params === 'object' && e.data.params !== null ? Object.keys(e.data.params) : [];
      throw new Refusal(params.join(', ') || 'item', 'too large to store once cleaned (an API write refuses it)');
    }
  }
}
