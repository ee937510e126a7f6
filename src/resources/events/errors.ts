/** The errors event routes and rules answer with: each code and message written once, as upstream words them. */
import { apiError, invalidParams, type ApiError } from '../../http/errors.js';

/** 404 `rest-event-not-found`: no event has this id (upstream says ID 0 when a slug finds none). */
export const eventNotFound = (id: number | string = 0): ApiError => apiError('rest-event-not-found', `Event with ID ${id} does not exist.`, 404);

/** 400 `rest-invalid-event-id`: the id is another kind's post. */
export const notAnEventId = (): ApiError => apiError('rest-invalid-event-id', 'The specified ID is not a valid event.', 400);

/** 404 `rest-event-occurrence-cancelled`: an occurrence read by its id was cancelled. */
export const occurrenceCancelled = (id: number): ApiError => apiError('rest-event-occurrence-cancelled', `The occurrence with ID ${id} was cancelled.`, 404);

/** 400 `rest-event-not-recurring`: occurrences asked of an event that is no series. */
export const eventNotRecurring = (id: number): ApiError => apiError('rest-event-not-recurring', `The event with ID ${id} does not recur.`, 400);

/** 403 `event-no-longer-available`: a single read of a trashed event. */
export const eventTrashed = (): ApiError => apiError('event-no-longer-available', 'This event is no longer available', 403);

/** 403 `event-not-accessible`: an event the caller may not read. */
export const eventNotAccessible = (): ApiError => apiError('event-not-accessible', 'The requested event is not accessible', 403);

/** 403 `event-password-protected`: a locked event read without its password. */
export const eventLocked = (): ApiError => apiError('event-password-protected', 'The requested event is not accessible without a password', 403);

/** 404 `event-archive-page-not-found`: a page past the last of an archive. */
export const eventPageNotFound = (): ApiError => apiError('event-archive-page-not-found', 'The requested event archive page does not exist', 404);

/** 400 `could-not-create-event`: a create whose event cannot be read back. */
export const eventNotCreated = (): ApiError => apiError('could-not-create-event', 'The event could not be created from the provided data', 400);

/**
 * 400 `rest_invalid_param` on `search`: it would test more events than `most` allows
 * (docs/security.md, "Limits", `searchTests`), its words too common or too short for the search index within the
 * window asked.
 */
export function searchTooBroad(most: number): ApiError {
  const message = `search would test too many events (more than ${most}): use longer or rarer words, or narrow it (start_date and end_date, venue, categories).`;
  return invalidParams(new Map([['search', { message, detail: { code: 'rest_search_too_broad', message, data: { param: 'search', most } } }]]));
}

/**
 * 503 `rest_count_too_slow`: counting the archive's matches took longer than `ms`
 * (docs/security.md, "Limits", `countMs`); the count was stopped.
 */
export const countTooSlow = (ms: number): ApiError =>
  apiError(
    'rest_count_too_slow',
    `Counting the matching events took longer than ${ms} ms and was stopped: narrow the request (start_date and end_date, categories, venue) or try again shortly.`,
    503,
  );
