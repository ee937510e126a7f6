/**
 * Time-zone abbreviations PHP accepts as a zone (`new DateTimeZone('EST')`, or inside a
 * date string such as `2018-01-01 10:00 EST`), with the UTC offset PHP gives each one
 * (minutes east of UTC, daylight saving already included: `EDT` = −4 h).
 *
 * PHP's own table (timelib's `timezonemap.h`) has about 1,000 entries, most of them
 * historical (`lmt`, `cmt`, …); this is the subset in current use, with the offsets PHP
 * 8.2 gives them (checked with `new DateTimeZone()`: note `KST` = +08:30 and `IST` =
 * +02:00, PHP's first table entries). An abbreviation missing here (military letters,
 * historical ones, `NDT` whose PHP offset is not whole minutes) is rejected where PHP
 * would accept it. `utc` is not here: PHP treats `UTC` as the tz-database zone.
 */
export const PHP_ABBREVIATION_OFFSETS: Readonly<Record<string, number>> = {
  // Universal
  gmt: 0,
  z: 0,
  // North America
  est: -300,
  edt: -240,
  cst: -360,
  cdt: -300,
  mst: -420,
  mdt: -360,
  pst: -480,
  pdt: -420,
  akst: -540,
  akdt: -480,
  hst: -600,
  ast: -240,
  adt: -180,
  nst: -210,
  // Europe
  wet: 0,
  west: 60,
  bst: 60,
  cet: 60,
  cest: 120,
  met: 60,
  mest: 120,
  eet: 120,
  eest: 180,
  msk: 180,
  ist: 120,
  // Africa
  wat: 60,
  cat: 120,
  eat: 180,
  sast: 120,
  // Asia and Oceania
  sst: -660,
  pkt: 300,
  wib: 420,
  hkt: 480,
  wita: 480,
  awst: 480,
  jst: 540,
  wit: 540,
  kst: 510,
  acst: 570,
  acdt: 630,
  aest: 600,
  aedt: 660,
  chst: 600,
  nzst: 720,
  nzdt: 780,
};

/** The offset (minutes east of UTC) PHP gives a zone abbreviation, or `undefined` if not one. */
export function phpAbbreviationOffset(name: string): number | undefined {
  const key = name.toLowerCase();
  return Object.prototype.hasOwnProperty.call(PHP_ABBREVIATION_OFFSETS, key) ? PHP_ABBREVIATION_OFFSETS[key] : undefined;
}
