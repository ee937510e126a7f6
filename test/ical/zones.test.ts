import ICAL from 'ical.js';
import { IANAZone } from 'luxon';
import { describe, expect, it } from 'vitest';
import { FIRST_CHANGE_YEAR, icalZone, localTime, onsetsOf, vtimezone, walkedOnsets } from '../../src/ical/zones.js';

// The VTIMEZONEs the feeds write, read back by ical.js: every local time they give must denote
// the instant it was written for, in zones with unusual rules and in years whose rules differ.

/** The instant ical.js reads for a `YYYYMMDDTHHMMSS` local time of `zone` defined by `vtimezone`. */
function readBack(vtz: string, local: string): number {
  const component = new ICAL.Component(ICAL.parse(`BEGIN:VCALENDAR\r\n${vtz}END:VCALENDAR\r\n`)).getFirstSubcomponent('vtimezone')!;
  const time = ICAL.Time.fromDateTimeString(
    `${local.slice(0, 4)}-${local.slice(4, 6)}-${local.slice(6, 8)}T${local.slice(9, 11)}:${local.slice(11, 13)}:${local.slice(13, 15)}`,
  );
  time.zone = new ICAL.Timezone(component);
  return time.toUnixTime() * 1000;
}

describe('VTIMEZONE', () => {
  const cases: [string, number[]][] = [
    ['Europe/Paris', [1990, 2026, 2027]],
    ['America/New_York', [2006, 2007, 2027]],
    // Half-hour DST; southern hemisphere.
    ['Australia/Lord_Howe', [2026]],
    // DST suspended during Ramadan: four changes a year.
    ['Africa/Casablanca', [2026]],
    // DST abolished in 2019 (Brazil) and 2022 (Iran, Mexico): rules a static file of today's would get wrong before.
    ['America/Sao_Paulo', [2018, 2026]],
    ['Asia/Tehran', [2021, 2023]],
    ['America/Mexico_City', [2021, 2023]],
    // Negative DST in the tz database: winter is the "daylight" offset there.
    ['Europe/Dublin', [2026]],
    ['Asia/Kolkata', [2026]],
    ['Pacific/Chatham', [2026]],
  ];

  it.each(cases)('gives every local time of %s its instant (%j)', async (zone, years) => {
    const vtz = await vtimezone(zone, years);
    let checked = 0;
    for (const year of years) {
      // Every 5 hours 17 minutes through the year: all hours of the day, both sides of each change.
      for (let ms = Date.UTC(year, 0, 1, 3); ms < Date.UTC(year + 1, 0, 1); ms += 317 * 60_000) {
        const local = localTime(ms, zone);
        // Outside the local years covered (a UTC new year is still the old one west of Greenwich).
        if (local === undefined || !years.includes(Number(local.slice(0, 4)))) continue;
        expect(readBack(vtz, local), `${zone} ${new Date(ms).toISOString()} as ${local}`).toBe(ms);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(1600 * years.length);
  });

  it('is folded, names the zone and lists one observance per change', async () => {
    const vtz = await vtimezone('Europe/Paris', [2027]);
    expect(vtz).toMatch(/^BEGIN:VTIMEZONE\r\nTZID:Europe\/Paris\r\n/);
    expect(vtz.endsWith('END:VTIMEZONE\r\n')).toBe(true);
    expect(vtz.match(/BEGIN:(?:STANDARD|DAYLIGHT)/g)).toEqual(['BEGIN:STANDARD', 'BEGIN:DAYLIGHT', 'BEGIN:STANDARD']);
    expect(vtz).toContain('BEGIN:DAYLIGHT\r\nDTSTART:20270328T020000\r\nTZOFFSETFROM:+0100\r\nTZOFFSETTO:+0200\r\n');
    expect((await vtimezone('Asia/Tokyo', [2027])).match(/BEGIN:(?:STANDARD|DAYLIGHT)/g)).toEqual(['BEGIN:STANDARD']);
  });
});

describe('local times', () => {
  it('writes a repeated hour in UTC, whichever occurrence', () => {
    // New York, 2027-11-07: 01:30 EDT is 05:30 UTC, 01:30 EST 06:30 UTC.
    expect(localTime(Date.UTC(2027, 10, 7, 5, 30), 'America/New_York')).toBeUndefined();
    expect(localTime(Date.UTC(2027, 10, 7, 6, 30), 'America/New_York')).toBeUndefined();
    expect(localTime(Date.UTC(2027, 10, 7, 7, 30), 'America/New_York')).toBe('20271107T023000');
    // Paris, 2027-10-31: 02:30 CEST is 00:30 UTC, 02:30 CET 01:30 UTC.
    expect(localTime(Date.UTC(2027, 9, 31, 0, 30), 'Europe/Paris')).toBeUndefined();
    expect(localTime(Date.UTC(2027, 9, 31, 1, 30), 'Europe/Paris')).toBeUndefined();
    // Lord Howe repeats half an hour only.
    expect(localTime(Date.UTC(2027, 3, 3, 14, 45), 'Australia/Lord_Howe')).toBeUndefined();
    expect(localTime(Date.UTC(2027, 3, 3, 15, 15), 'Australia/Lord_Howe')).toBeUndefined();
    expect(localTime(Date.UTC(2027, 3, 3, 15, 45), 'Australia/Lord_Howe')).toBe('20270404T021500');
  });

  it('writes the time after a spring gap', () => {
    expect(localTime(Date.UTC(2027, 2, 14, 7, 30), 'America/New_York')).toBe('20270314T033000');
  });

  it('names zones by their canonical tz-database name, and UTC-like zones not at all', () => {
    expect(icalZone('europe/paris')).toBe('Europe/Paris');
    expect(icalZone('US/Eastern')).toBe('America/New_York');
    for (const zone of ['UTC', 'Etc/UTC', 'GMT', 'UTC+2', 'UTC-3:30', 'EST', '+02:00', '', 'Not/AZone']) expect(icalZone(zone), zone).toBeUndefined();
  });
});

describe('the years a VTIMEZONE is worked out for (issue 28, finding 2)', () => {
  const zones = Intl.supportedValuesOf('timeZone');

  it(`finds no zone changing its offset before ${FIRST_CHANGE_YEAR}, so those years take one observance`, () => {
    const changed = zones.filter((zone) => {
      const first = walkedOnsets(zone, 1000)[0]!.to;
      for (let year = 1000; year < FIRST_CHANGE_YEAR; year += 3) {
        for (const month of [0, 6]) if (IANAZone.create(zone).offset(Date.UTC(year, month, 1)) !== first) return true;
      }
      return false;
    });
    expect(changed).toEqual([]);
  });

  it('gives far years the onsets a walk of them finds, in every zone', () => {
    const wrong: string[] = [];
    for (const zone of zones) {
      for (const year of [2129, 3001, 9999]) {
        if (JSON.stringify(onsetsOf(zone, year)) !== JSON.stringify(walkedOnsets(zone, year))) wrong.push(`${zone} ${year}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('writes the observances of the years used only, and a year without change only when its offset is new', async () => {
    // The review's series: from 1001, with one date in 9998 (25,102 observances before, one per year of the span).
    const vtz = await vtimezone('Europe/Paris', [1001, 9998]);
    expect(vtz.match(/BEGIN:(?:STANDARD|DAYLIGHT)/g)).toEqual(['BEGIN:STANDARD', 'BEGIN:STANDARD', 'BEGIN:DAYLIGHT', 'BEGIN:STANDARD']);
    expect(vtz).toContain('DTSTART:10010101T000000');
    expect(vtz).toContain('DTSTART:99980101T000000');
    // Forty years of a zone without daylight time: one observance.
    expect(
      (
        await vtimezone(
          'Asia/Tokyo',
          Array.from({ length: 40 }, (_, i) => 1990 + i),
        )
      ).match(/BEGIN:(?:STANDARD|DAYLIGHT)/g),
    ).toEqual(['BEGIN:STANDARD']);
  });
});
