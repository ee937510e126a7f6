/**
 * Days of the proleptic Gregorian calendar as whole numbers (days since 1970-01-01), the unit
 * the rule walk counts in: plain integer arithmetic, no date objects, no zone.
 */

/** Seconds in one day. */
export const DAY_SECONDS = 86_400;

/** The day number of a date (month 1–12); the civil-from-days algorithm's inverse (H. Hinnant). */
export function dayNumber(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

/** A date of a day number. */
export interface CivilDate {
  year: number;
  month: number;
  day: number;
}

/** The date of a day number. */
export function civil(dn: number): CivilDate {
  const z = dn + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: yoe + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

/** The weekday of a day number, 0 for Monday to 6 for Sunday (1970-01-01 was a Thursday). */
export const weekdayOf = (dn: number): number => (((dn + 3) % 7) + 7) % 7;

/** Whether a year has 29 February. */
export const isLeapYear = (year: number): boolean => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

/** Days in a year. */
export const yearLength = (year: number): number => (isLeapYear(year) ? 366 : 365);

/** Days in a month (1–12). */
export function monthLength(year: number, month: number): number {
  switch (month) {
    case 2:
      return isLeapYear(year) ? 29 : 28;
    case 4:
    case 6:
    case 9:
    case 11:
      return 30;
    default:
      return 31;
  }
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** `YYYY-MM-DD HH:MM:SS` of a wall clock given in seconds since 1970-01-01 00:00:00 (no zone). */
export function formatSeconds(seconds: number): string {
  const dn = Math.floor(seconds / DAY_SECONDS);
  const s = seconds - dn * DAY_SECONDS;
  const { year, month, day } = civil(dn);
  return `${pad(year, 4)}-${pad(month)}-${pad(day)} ${pad(Math.floor(s / 3600))}:${pad(Math.floor(s / 60) % 60)}:${pad(s % 60)}`;
}

/** Seconds since 1970-01-01 00:00:00 of a `YYYY-MM-DD HH:MM:SS` wall clock (or a `YYYY-MM-DD` date), without checking it. */
export function secondsOf(wallClock: string): number {
  const dn = dayNumber(Number(wallClock.slice(0, 4)), Number(wallClock.slice(5, 7)), Number(wallClock.slice(8, 10)));
  if (wallClock.length < 19) return dn * DAY_SECONDS;
  return dn * DAY_SECONDS + Number(wallClock.slice(11, 13)) * 3600 + Number(wallClock.slice(14, 16)) * 60 + Number(wallClock.slice(17, 19));
}
