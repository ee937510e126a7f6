/** The checks of a Fetch mount (`fetchHandler`, Next's `calendarHandlers`), run when it is made. */
import { aChoice } from '../src/options-shape.js';
import { checkCalendar, checkMountOptions, MOUNT_SHAPES } from '../src/options-mount.js';

const FETCH_MOUNT_SHAPES = { ...MOUNT_SHAPES, protocol: aChoice(['http', 'https'], "'http' or 'https'") };

/**
 * Checks a Fetch mount's calendar and options; `call` names the call as the host wrote it. A
 * function giving the calendar on first use is checked then (`next build` must open no database).
 */
export function checkFetchMount(call: string, source: unknown, options: unknown): void {
  if (typeof source !== 'function') checkCalendar(`${call}(calendar, options)`, 'calendar', source);
  checkMountOptions(call, options, FETCH_MOUNT_SHAPES);
}
