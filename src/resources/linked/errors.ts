/**
 * The errors venue and organizer routes and rules answer with, named by the kind's noun
 * (`venue`, `organizer`): each code and message written once, as upstream words them.
 */
import { apiError, type ApiError } from '../../http/errors.js';

/** 400 `could-not-create-venue` (`-organizer`): data that makes no item, or more than one venue. */
export const linkedNotCreated = (noun: string): ApiError =>
  apiError(`could-not-create-${noun}`, `The ${noun} could not be created from the provided data`, 400);

/** 400 `could-not-update-venue` (`-organizer`): an update that would leave neither name nor description. */
export const linkedNotUpdated = (noun: string): ApiError => apiError(`could-not-update-${noun}`, `The ${noun} could not be updated`, 400);

/** 403 `venue-not-accessible` (`organizer-`): an item the caller may not read, or none. */
export const linkedNotAccessible = (noun: string): ApiError => apiError(`${noun}-not-accessible`, `The requested ${noun} is not accessible`, 403);

/** 404 `venue-archive-page-not-found` (`organizer-`): a page past the last of an archive. */
export const linkedPageNotFound = (noun: string): ApiError =>
  apiError(`${noun}-archive-page-not-found`, `The requested ${noun} archive page does not exist`, 404);
