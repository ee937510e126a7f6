/** The parts of the API's JSON the page reads (docs: the API's responses; every other field is ignored). */

/** A venue as embedded in an event or listed by `/venues`. */
export interface ApiVenue {
  id: number;
  venue: string;
  address?: string;
  city?: string;
  stateprovince?: string;
  zip?: string;
  country?: string;
}

/** An organizer as embedded in an event. */
export interface ApiOrganizer {
  id: number;
  organizer: string;
  email?: string;
  phone?: string;
  website?: string;
}

/** A category as listed by `/categories`. */
export interface ApiTerm {
  id: number;
  name: string;
}

/** An event of the archive: its times are wall times in the event's own zone (`timezone`). */
export interface ApiEvent {
  id: number;
  status: string;
  title: string;
  description: string;
  /** `YYYY-MM-DD HH:MM:SS` in the event's zone. */
  start_date: string;
  end_date: string;
  all_day: boolean;
  /** An IANA name, an offset such as `UTC+2`, or `""`. */
  timezone: string;
  /** The zone's abbreviation at the start (`PST`, `CEST`, `UTC+2`), or `""`. */
  timezone_abbr: string;
  cost: string;
  /** `[]` when the event has none. */
  venue: ApiVenue | [];
  organizer: ApiOrganizer[];
}

/** An archive page: the items under the kind's key (`events`, `venues`, `categories`). */
export type ApiArchive<K extends string, T> = { [key in K]: T[] } & { total: number; total_pages: number };

/** The API's error body (`{ code, message, data: { status } }`). */
export interface ApiError {
  code: string;
  message: string;
}
