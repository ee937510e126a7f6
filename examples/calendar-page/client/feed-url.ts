/** The filters the page applies: one category and one venue at most, by id. */
export interface PageFilters {
  category: string;
  venue: string;
}

/** The archive's (and the feed's) parameters for the chosen filters. */
export function filterParams(filters: PageFilters): Record<string, string> {
  const params: Record<string, string> = {};
  if (filters.category) params.categories = filters.category;
  if (filters.venue) params.venue = filters.venue;
  return params;
}

/**
 * The iCalendar feed of the same selection (`GET {namespace}/ics/events`, the library's
 * subscription feed): the filters only, no date window (a calendar app keeps following it) and
 * never a token (a feed address is shared and logged; it lists published events).
 */
export function feedUrl(namespaceUrl: URL, filters: PageFilters): string {
  const url = new URL('ics/events', namespaceUrl);
  for (const [key, value] of Object.entries(filterParams(filters))) url.searchParams.set(key, value);
  return url.href;
}
