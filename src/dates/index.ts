/** Pure date and time-zone helpers of the events API (no database, no HTTP). */
export { parseTime, isNumericString, type ParsedTime, type ParseOptions } from './parse.js';
export { isTime, isTimeThisSecond, isRealCalendarDate, type IsTimeOptions } from './validate.js';
export {
  resolveZone,
  isValidTimezone,
  formatWallClock,
  wallClockToInstant,
  wallClockToFirstInstant,
  localToUtc,
  utcToLocal,
  zoneOffsetMinutes,
  type ResolvedZone,
  type ZoneKind,
} from './zones.js';
export { timezoneAbbr } from './abbreviation.js';
export { dateDetails, isoWithOffset, formatOffset, type DateDetails } from './format.js';
export { DEFAULT_CUTOFF, snapToDayStart, snapToDayEnd, startOfDay, endOfDay } from './day-bounds.js';
export { strictBound, rawDefaultStart, rawDefaultEnd, defaultStartBound, defaultEndBound } from './archive-window.js';
export { parseWallClock, formatFields, type WallClockFields } from './wall-clock.js';
