import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { expandStarts, occurrenceTimes, type SeriesTimes } from '../../src/recurrence/expand.js';
import { secondsOf } from '../../src/recurrence/days.js';
import { ruleParts } from '../../src/recurrence/rrule.js';
import { parseRecurrence, RecurrenceError } from '../../src/recurrence/rules.js';
import { walkRule } from '../../src/recurrence/walk.js';

// The expansion of a series (issue 19): the RFC 5545 §3.8.5.3 examples give the same wall
// clocks as ical.js, and occurrences are placed in the event's zone by §3.3.5 whatever the
// host's TZ.

const LIMITS = { lines: 50, dates: 500 };

/** The walk's default budget (recurrence.maxCandidates). */
const BUDGET = 250_000;

/** A series starting at `start` (an hour long) in `zone` with these lines. */
const series = (start: string, lines: string[], zone = 'America/New_York'): SeriesTimes => {
  const end = `${start.slice(0, 11)}${String(Number(start.slice(11, 13)) + 1).padStart(2, '0')}${start.slice(13)}`;
  return { start, end, zone, recurrence: parseRecurrence(lines, zone, LIMITS)! };
};

/** ical.js's wall clocks of a rule from a floating DTSTART, up to `to`, with EXDATEs (wall clocks). */
function oracle(start: string, rule: string, to: string, exdates: string[] = []): string[] {
  const recur = ICAL.Recur.fromString(rule);
  const iterator = recur.iterator(ICAL.Time.fromDateTimeString(start.replace(' ', 'T')));
  const out: string[] = [];
  for (let next = iterator.next(); next; next = iterator.next()) {
    const clock = next.toString().replace('T', ' ');
    if (clock > to) break;
    if (!exdates.includes(clock)) out.push(clock);
    if (out.length > 2000) break;
  }
  return out;
}

// RFC 5545 §3.8.5.3, the examples of a day or more (DTSTART;TZID=America/New_York).
const EXAMPLES: [string, string, string, string[]?][] = [
  ['Daily for 10 occurrences', '1997-09-02 09:00:00', 'FREQ=DAILY;COUNT=10'],
  ['Daily until December 24, 1997', '1997-09-02 09:00:00', 'FREQ=DAILY;UNTIL=19971224T000000Z'],
  ['Every other day', '1997-09-02 09:00:00', 'FREQ=DAILY;INTERVAL=2'],
  ['Every 10 days, 5 occurrences', '1997-09-02 09:00:00', 'FREQ=DAILY;INTERVAL=10;COUNT=5'],
  ['Every day in January, for 3 years (yearly)', '1998-01-01 09:00:00', 'FREQ=YEARLY;UNTIL=20000131T140000Z;BYMONTH=1;BYDAY=SU,MO,TU,WE,TH,FR,SA'],
  ['Every day in January, for 3 years (daily)', '1998-01-01 09:00:00', 'FREQ=DAILY;UNTIL=20000131T140000Z;BYMONTH=1'],
  ['Weekly for 10 occurrences', '1997-09-02 09:00:00', 'FREQ=WEEKLY;COUNT=10'],
  ['Weekly until December 24, 1997', '1997-09-02 09:00:00', 'FREQ=WEEKLY;UNTIL=19971224T000000Z'],
  ['Every other week', '1997-09-02 09:00:00', 'FREQ=WEEKLY;INTERVAL=2;WKST=SU'],
  ['Weekly on Tuesday and Thursday for five weeks (until)', '1997-09-02 09:00:00', 'FREQ=WEEKLY;UNTIL=19971007T000000Z;WKST=SU;BYDAY=TU,TH'],
  ['Weekly on Tuesday and Thursday for five weeks (count)', '1997-09-02 09:00:00', 'FREQ=WEEKLY;COUNT=10;WKST=SU;BYDAY=TU,TH'],
  [
    'Every other week on Monday, Wednesday and Friday until December 24, 1997',
    '1997-09-01 09:00:00',
    'FREQ=WEEKLY;INTERVAL=2;UNTIL=19971224T000000Z;WKST=SU;BYDAY=MO,WE,FR',
  ],
  ['Every other week on Tuesday and Thursday, for 8 occurrences', '1997-09-02 09:00:00', 'FREQ=WEEKLY;INTERVAL=2;COUNT=8;WKST=SU;BYDAY=TU,TH'],
  ['Monthly on the first Friday for 10 occurrences', '1997-09-05 09:00:00', 'FREQ=MONTHLY;COUNT=10;BYDAY=1FR'],
  ['Monthly on the first Friday until December 24, 1997', '1997-09-05 09:00:00', 'FREQ=MONTHLY;UNTIL=19971224T000000Z;BYDAY=1FR'],
  ['Every other month on the first and last Sunday, 10 occurrences', '1997-09-07 09:00:00', 'FREQ=MONTHLY;INTERVAL=2;COUNT=10;BYDAY=1SU,-1SU'],
  ['Monthly on the second-to-last Monday for 6 months', '1997-09-22 09:00:00', 'FREQ=MONTHLY;COUNT=6;BYDAY=-2MO'],
  ['Monthly on the third-to-the-last day of the month', '1997-09-28 09:00:00', 'FREQ=MONTHLY;BYMONTHDAY=-3'],
  ['Monthly on the 2nd and 15th for 10 occurrences', '1997-09-02 09:00:00', 'FREQ=MONTHLY;COUNT=10;BYMONTHDAY=2,15'],
  ['Monthly on the first and last day for 10 occurrences', '1997-09-30 09:00:00', 'FREQ=MONTHLY;COUNT=10;BYMONTHDAY=1,-1'],
  ['Every 18 months on the 10th thru 15th, 10 occurrences', '1997-09-10 09:00:00', 'FREQ=MONTHLY;INTERVAL=18;COUNT=10;BYMONTHDAY=10,11,12,13,14,15'],
  ['Every Tuesday, every other month', '1997-09-02 09:00:00', 'FREQ=MONTHLY;INTERVAL=2;BYDAY=TU'],
  ['Yearly in June and July for 10 occurrences', '1997-06-10 09:00:00', 'FREQ=YEARLY;COUNT=10;BYMONTH=6,7'],
  ['Every other year on January, February and March, 10 occurrences', '1997-03-10 09:00:00', 'FREQ=YEARLY;INTERVAL=2;COUNT=10;BYMONTH=1,2,3'],
  ['Every third year on the 1st, 100th and 200th day, 10 occurrences', '1997-01-01 09:00:00', 'FREQ=YEARLY;INTERVAL=3;COUNT=10;BYYEARDAY=1,100,200'],
  ['Every Thursday in March', '1997-03-13 09:00:00', 'FREQ=YEARLY;BYMONTH=3;BYDAY=TH'],
  ['Every Thursday, but only during June, July and August', '1997-06-05 09:00:00', 'FREQ=YEARLY;BYDAY=TH;BYMONTH=6,7,8'],
  ['Every Friday the 13th', '1997-09-02 09:00:00', 'FREQ=MONTHLY;BYDAY=FR;BYMONTHDAY=13', ['1997-09-02 09:00:00']],
  ['The first Saturday that follows the first Sunday of the month', '1997-09-13 09:00:00', 'FREQ=MONTHLY;BYDAY=SA;BYMONTHDAY=7,8,9,10,11,12,13'],
  ['U.S. Presidential Election day', '1996-11-05 09:00:00', 'FREQ=YEARLY;INTERVAL=4;BYMONTH=11;BYDAY=TU;BYMONTHDAY=2,3,4,5,6,7,8'],
  [
    'The third instance into the month of one of Tuesday, Wednesday or Thursday, for 3 months',
    '1997-09-04 09:00:00',
    'FREQ=MONTHLY;COUNT=3;BYDAY=TU,WE,TH;BYSETPOS=3',
  ],
  ['The second-to-last weekday of the month', '1997-09-29 09:00:00', 'FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-2'],
  ['WKST=MO changes the set', '1997-08-05 09:00:00', 'FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=MO'],
  ['WKST=SU changes the set', '1997-08-05 09:00:00', 'FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=SU'],
  ['An invalid date (February 30) is ignored', '2007-01-15 09:00:00', 'FREQ=MONTHLY;BYMONTHDAY=15,30;COUNT=5'],
];

// Two examples ical.js 2 gets wrong (it lists every Monday from DTSTART on): the RFC's own
// lists are the reference for these.
const RFC_ONLY: [string, string, string, string[]][] = [
  ['Every 20th Monday of the year', '1997-05-19 09:00:00', 'FREQ=YEARLY;BYDAY=20MO', ['1997-05-19 09:00:00', '1998-05-18 09:00:00', '1999-05-17 09:00:00']],
  [
    'Monday of week number 20',
    '1997-05-12 09:00:00',
    'FREQ=YEARLY;BYWEEKNO=20;BYDAY=MO',
    ['1997-05-12 09:00:00', '1998-05-11 09:00:00', '1999-05-17 09:00:00'],
  ],
];

describe('expanding RFC 5545 rules', () => {
  it.each(RFC_ONLY)('%s (as the RFC lists it)', (_, start, rule, expected) => {
    expect(expandStarts(series(start, [`RRULE:${rule}`]), undefined, '1999-12-31 23:59:59', 100, BUDGET).starts).toEqual(expected);
  });

  it.each(EXAMPLES)('%s', (_, start, rule, exdates = []) => {
    const lines = [`RRULE:${rule}`, ...exdates.map((d) => `EXDATE;TZID=America/New_York:${d.replace(/[-:]/g, '').replace(' ', 'T')}`)];
    const to = '2007-12-31 23:59:59';
    const expected = oracle(start, rule, to, exdates);
    expect(expected.length).toBeGreaterThan(2);
    expect(expandStarts(series(start, lines), undefined, to, 5000, BUDGET).starts).toEqual(expected);
    // A window in the middle gives the same occurrences as the whole, cut.
    const [from, until] = [expected[1]!, expected[Math.min(expected.length - 1, 5)]!];
    expect(expandStarts(series(start, lines), from, until, 5000, BUDGET).starts).toEqual(expected.filter((c) => c >= from && c <= until));
  });

  it('stops at the limit and says there were more', () => {
    const s = series('2026-01-01 09:00:00', ['RRULE:FREQ=DAILY']);
    expect(expandStarts(s, undefined, '2026-12-31 23:59:59', 10, BUDGET)).toEqual({
      starts: expect.arrayContaining(['2026-01-10 09:00:00']),
      more: true,
      exhausted: false,
    });
    expect(expandStarts(s, undefined, '2026-01-05 23:59:59', 10, BUDGET)).toEqual({
      starts: ['2026-01-01 09:00:00', '2026-01-02 09:00:00', '2026-01-03 09:00:00', '2026-01-04 09:00:00', '2026-01-05 09:00:00'],
      more: false,
      exhausted: false,
    });
  });

  it('adds RDATEs and takes EXDATEs out, given in UTC, in another zone, floating or as dates', () => {
    const s = series('2026-03-02 09:00:00', [
      'RRULE:FREQ=WEEKLY;COUNT=6',
      'EXDATE:20260309T130000Z',
      'EXDATE;TZID=Europe/Paris:20260316T140000',
      'EXDATE;VALUE=DATE:20260323',
      'RDATE:20260304T180000',
      'RDATE;VALUE=DATE:20260305',
    ]);
    expect(expandStarts(s, undefined, '2026-12-31 00:00:00', 100, BUDGET).starts).toEqual([
      '2026-03-02 09:00:00',
      '2026-03-04 18:00:00',
      '2026-03-05 09:00:00',
      '2026-03-30 09:00:00',
      '2026-04-06 09:00:00',
    ]);
  });
});

describe('placing occurrences in the event zone (RFC 5545 §3.3.5)', () => {
  const place = (s: SeriesTimes, from: string, to: string) =>
    expandStarts(s, from, to, 100, BUDGET).starts.map((c) => {
      const t = occurrenceTimes(s, c);
      return `${t.start_local} ${t.start_utc}`;
    });

  it('keeps 09:00 in Paris across the spring change', () => {
    const s = series('2026-03-22 09:00:00', ['RRULE:FREQ=WEEKLY'], 'Europe/Paris');
    expect(place(s, '2026-03-22 00:00:00', '2026-04-05 23:59:59')).toEqual([
      '2026-03-22 09:00:00 2026-03-22 08:00:00',
      '2026-03-29 09:00:00 2026-03-29 07:00:00',
      '2026-04-05 09:00:00 2026-04-05 07:00:00',
    ]);
  });

  it('moves a time in the spring gap forward for that day only, and takes the first of a repeated hour', () => {
    const daily = series('2026-03-07 02:30:00', ['RRULE:FREQ=DAILY;COUNT=4']);
    expect(place(daily, '2026-03-01 00:00:00', '2026-03-31 00:00:00')).toEqual([
      '2026-03-07 02:30:00 2026-03-07 07:30:00',
      '2026-03-08 03:30:00 2026-03-08 07:30:00',
      '2026-03-09 02:30:00 2026-03-09 06:30:00',
      '2026-03-10 02:30:00 2026-03-10 06:30:00',
    ]);
    // The occurrence keeps the original start it is known by.
    expect(occurrenceTimes(daily, '2026-03-08 02:30:00')).toMatchObject({
      originalStart: '2026-03-08 02:30:00',
      start_local: '2026-03-08 03:30:00',
      end_local: '2026-03-08 03:30:00',
    });
    const autumn = series('2026-10-31 01:30:00', ['RRULE:FREQ=DAILY;COUNT=2']);
    expect(place(autumn, '2026-10-01 00:00:00', '2026-11-30 00:00:00')).toEqual([
      '2026-10-31 01:30:00 2026-10-31 05:30:00',
      '2026-11-01 01:30:00 2026-11-01 05:30:00',
    ]);
    const paris = series('2026-10-24 02:30:00', ['RRULE:FREQ=DAILY;COUNT=2'], 'Europe/Paris');
    expect(place(paris, '2026-10-01 00:00:00', '2026-11-30 00:00:00')).toEqual([
      '2026-10-24 02:30:00 2026-10-24 00:30:00',
      '2026-10-25 02:30:00 2026-10-25 00:30:00',
    ]);
  });

  it("gives the same instants whatever the host process's TZ", () => {
    const cases = () =>
      [
        place(series('2026-03-22 09:00:00', ['RRULE:FREQ=WEEKLY;COUNT=3'], 'Europe/Paris'), '2026-01-01 00:00:00', '2026-12-31 00:00:00'),
        place(series('2026-03-07 02:30:00', ['RRULE:FREQ=DAILY;COUNT=4']), '2026-01-01 00:00:00', '2026-12-31 00:00:00'),
        place(series('2026-10-31 01:30:00', ['RRULE:FREQ=DAILY;COUNT=2', 'RDATE:20261101T063000Z']), '2026-01-01 00:00:00', '2026-12-31 00:00:00'),
        place(
          series('2026-01-30 23:30:00', ['RRULE:FREQ=MONTHLY;BYDAY=-1FR;UNTIL=20261231T000000Z'], 'Asia/Tokyo'),
          '2026-01-01 00:00:00',
          '2026-12-31 00:00:00',
        ),
      ].flat();
    const saved = process.env.TZ;
    try {
      process.env.TZ = 'UTC';
      const utc = cases();
      expect(utc).toContain('2026-03-08 03:30:00 2026-03-08 07:30:00');
      for (const zone of ['Asia/Tokyo', 'America/Los_Angeles']) {
        process.env.TZ = zone;
        expect(new Date(Date.UTC(2027, 0, 1)).getHours(), zone).not.toBe(0);
        expect(cases(), zone).toEqual(utc);
      }
    } finally {
      if (saved === undefined) delete process.env.TZ;
      else process.env.TZ = saved;
    }
  });

  it('keeps the length of all-day and multi-day occurrences in days', () => {
    const s: SeriesTimes = {
      start: '2026-03-28 00:00:00',
      end: '2026-03-29 23:59:59',
      zone: 'Europe/Paris',
      recurrence: parseRecurrence(['RRULE:FREQ=WEEKLY;COUNT=2'], 'Europe/Paris', LIMITS)!,
    };
    expect(occurrenceTimes(s, '2026-04-04 00:00:00')).toMatchObject({
      start_local: '2026-04-04 00:00:00',
      end_local: '2026-04-05 23:59:59',
      start_utc: '2026-04-03 22:00:00',
      end_utc: '2026-04-05 21:59:59',
    });
  });
});

describe('reading recurrence lines', () => {
  const refused = (lines: unknown) => {
    try {
      parseRecurrence(lines, 'Europe/Paris', LIMITS);
    } catch (e) {
      expect(e).toBeInstanceOf(RecurrenceError);
      return (e as Error).message;
    }
    throw new Error(`accepted: ${JSON.stringify(lines)}`);
  };

  it('refuses sub-daily rules, bad lines, bad dates and too much', () => {
    expect(refused(['RRULE:FREQ=HOURLY'])).toMatch(/more often than daily/);
    expect(refused(['RRULE:FREQ=MINUTELY;COUNT=3'])).toMatch(/more often than daily/);
    expect(refused(['RRULE:FREQ=DAILY;BYMINUTE=0,15,30,45'])).toMatch(/more often than hourly/);
    expect(refused(['RRULE:FREQ=FORTNIGHTLY'])).toMatch(/not DAILY, WEEKLY, MONTHLY or YEARLY/);
    expect(refused(['RRULE:BYDAY=MO'])).toMatch(/no FREQ/);
    expect(refused(['RRULE:FREQ=DAILY', 'RRULE:FREQ=WEEKLY'])).toMatch(/more than one RRULE/);
    expect(refused(['RRULE:FREQ=DAILY;UNTIL=tomorrow'])).toMatch(/UNTIL/);
    expect(refused(['EXDATE:2026-01-01'])).toMatch(/not a date/);
    expect(refused(['EXRULE:FREQ=DAILY'])).toMatch(/EXRULE/);
    expect(refused(['DTSTART:20260101T000000'])).toMatch(/not RRULE, RDATE or EXDATE/);
    expect(refused(['RDATE;TZID=Mars/Olympus:20260101T000000'])).toMatch(/unknown time zone/);
    expect(refused('nonsense')).toMatch(/not NAME:VALUE/);
    expect(refused([1, 2])).toMatch(/list of RRULE/);
    expect(refused(Array.from({ length: 51 }, () => 'RDATE:20260101'))).toMatch(/more than 50 lines/);
    expect(refused([`RDATE:${Array.from({ length: 501 }, (_, i) => `2026${String(1 + (i % 12)).padStart(2, '0')}01`).join(',')}`])).toMatch(/more than 500/);
  });

  it('normalises what it keeps, and reads an empty list as no recurrence', () => {
    expect(parseRecurrence([' rrule:freq=weekly;byday=mo ', 'exdate;tzid=Europe/Paris:20260406T090000'], 'Europe/Paris', LIMITS)).toEqual({
      lines: ['RRULE:FREQ=WEEKLY;BYDAY=MO', 'EXDATE;tzid=Europe/Paris:20260406T090000'],
      rrule: 'FREQ=WEEKLY;BYDAY=MO',
      rdates: [],
      exdates: ['2026-04-06 09:00:00'],
    });
    expect(parseRecurrence([], 'UTC', LIMITS)).toBeUndefined();
    expect(parseRecurrence(null, 'UTC', LIMITS)).toBeUndefined();
    expect(parseRecurrence(['EXDATE:20260101T000000Z'], 'UTC', LIMITS)).toBeUndefined();
  });
});

describe('rules that cannot be expanded', () => {
  const refuse = (rule: string) => expect(() => parseRecurrence([`RRULE:${rule}`], 'UTC', LIMITS), rule).toThrow(RecurrenceError);

  it("refuses parts out of RFC 5545's ranges, parts it does not name, and COUNT with UNTIL", () => {
    for (const rule of [
      'FREQ=YEARLY;BYWEEKNO=60',
      'FREQ=DAILY;BYHOUR=25',
      'FREQ=MONTHLY;BYMONTHDAY=0',
      'FREQ=WEEKLY;BYDAY=MX',
      'FREQ=MONTHLY;BYDAY=60MO',
      'FREQ=WEEKLY;INTERVAL=0',
      'FREQ=WEEKLY;WKST=XX',
      'FREQ=YEARLY;BYSETPOS=400;BYDAY=MO',
    ])
      refuse(rule);
    for (const rule of ['FREQ=DAILY;RSCALE=GREGORIAN', 'FREQ=DAILY;X-FOO=1', 'FREQ=DAILY;FREQ=WEEKLY', 'FREQ=DAILY;COUNT=2;UNTIL=20300101T000000Z'])
      refuse(rule);
  });

  it('refuses, before any walk, a BYSETPOS past the set it selects from and days that never come (issue 28)', () => {
    const days = Array.from({ length: 366 }, (_, i) => i + 1).join(',');
    // The outside review's rules: 259 s and 40 s of blocked event loop before.
    expect(() => parseRecurrence([`RRULE:FREQ=YEARLY;BYYEARDAY=${days};BYSETPOS=366;BYMONTH=2`], 'UTC', LIMITS)).toThrow(
      /BYSETPOS=366 selects from at most 29 instants per year/,
    );
    expect(() => parseRecurrence(['RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR,SA,SU;BYSETPOS=8'], 'UTC', LIMITS)).toThrow(
      /BYSETPOS=8 selects from at most 7 instants per week/,
    );
    expect(() => parseRecurrence(['RRULE:FREQ=MONTHLY;BYHOUR=9,10;BYDAY=MO;BYSETPOS=11'], 'UTC', LIMITS)).toThrow(/at most 10 instants per month/);
    expect(() => parseRecurrence(['RRULE:FREQ=YEARLY;BYMONTH=4,6;BYMONTHDAY=31'], 'UTC', LIMITS)).toThrow(/never matches/);
    // A BYSETPOS of which one value can select is a rule that works.
    expect(parseRecurrence(['RRULE:FREQ=MONTHLY;BYDAY=MO;BYSETPOS=-1,-9'], 'UTC', LIMITS)?.rrule).toBe('FREQ=MONTHLY;BYDAY=MO;BYSETPOS=-1,-9');
    // Stored before these checks, such a rule is still read (and walked within the budget).
    expect(parseRecurrence(['RRULE:FREQ=WEEKLY;BYDAY=MO,TU;BYSETPOS=8'], 'UTC', { ...LIMITS, stored: true })?.rrule).toBe('FREQ=WEEKLY;BYDAY=MO,TU;BYSETPOS=8');
  });

  it('walks a rule that never matches only as far as its budget of work', () => {
    // Day 366 of a year is never in January: nothing tells before the walk.
    const never = {
      start: '2026-01-01 09:00:00',
      end: '2026-01-01 10:00:00',
      zone: 'UTC',
      recurrence: parseRecurrence(['RRULE:FREQ=DAILY;BYYEARDAY=366;BYMONTH=1'], 'UTC', LIMITS)!,
    };
    expect(expandStarts(never, undefined, '2036-12-31 00:00:00', 100, BUDGET)).toEqual({ starts: ['2026-01-01 09:00:00'], more: false, exhausted: false });
    expect(expandStarts(never, undefined, '9999-12-31 00:00:00', 100, BUDGET)).toEqual({ starts: ['2026-01-01 09:00:00'], more: false, exhausted: true });
    // The same answer for the same budget, whatever the machine: the walk counts, it does not time.
    const parts = ruleParts('FREQ=DAILY;BYYEARDAY=366;BYMONTH=1')!;
    const walk = (budget: number) =>
      walkRule(parts, { start: secondsOf('2026-01-01 09:00:00'), from: 0, to: secondsOf('9999-12-31 00:00:00'), max: 10, budget });
    expect(walk(1000).spent).toBe(walk(1000).spent);
    expect(walk(1000).spent).toBeLessThan(1010);
    expect(walk(BUDGET).spent).toBeLessThan(BUDGET + 10);
  });
});
