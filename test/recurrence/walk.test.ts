import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatSeconds, secondsOf } from '../../src/recurrence/days.js';
import { maxInstantsPerPeriod, ruleParts } from '../../src/recurrence/rrule.js';
import { walkRule } from '../../src/recurrence/walk.js';

// The walk of RRULEs (issue 28) against python-dateutil, a long-standing RFC 5545
// implementation: 1,000 random rules of every frequency and BY part, expanded by it into
// fixtures/dateutil-walks.json (fixtures/dateutil-walks.py). The maintained JavaScript
// libraries were no oracle: rrule-temporal ignores BYDAY beside BYYEARDAY, and both it and
// ical.js jump to a month an INTERVAL never reaches (FREQ=MONTHLY;INTERVAL=2;BYMONTH=12 from
// January).

interface Case {
  rule: string;
  start: string;
  to: string;
  instants: string[];
}
const CASES = JSON.parse(readFileSync(new URL('./fixtures/dateutil-walks.json', import.meta.url), 'utf8')) as Case[];

/** UNTIL (`YYYYMMDDTHHMMSS`, floating as the start) as a wall clock. */
const untilOf = (v: string) => `${v.slice(0, 4)}-${v.slice(4, 6)}-${v.slice(6, 8)} ${v.slice(9, 11)}:${v.slice(11, 13)}:${v.slice(13, 15)}`;

describe('walking an RRULE', () => {
  it('gives the instants python-dateutil gives, for 1,000 random rules', () => {
    let compared = 0;
    let refused = 0;
    for (const c of CASES) {
      const parts = ruleParts(c.rule)!;
      // Refused when written (no BYSETPOS value can select anything), and rightly: such a rule
      // has no instant but DTSTART.
      if (parts.bySetPos?.every((p) => Math.abs(p) > maxInstantsPerPeriod(parts))) {
        expect({ rule: c.rule, instants: c.instants.filter((t) => t !== c.start) }).toEqual({ rule: c.rule, instants: [] });
        refused++;
        continue;
      }
      // RFC 5545 leaves the set undefined when DTSTART is not one of the rule's instants: the walk
      // keeps it first (a series' own event) and counts it, dateutil drops it. Such starts are
      // left out of the comparison, and rules with COUNT then skipped.
      const synchronized = c.instants[0] === c.start;
      if (!synchronized && parts.count !== undefined) continue;
      const walk = walkRule(parts, {
        start: secondsOf(c.start),
        until: parts.until === undefined ? undefined : secondsOf(untilOf(parts.until)),
        from: secondsOf(c.start),
        to: secondsOf(c.to),
        max: 41,
        budget: 10_000_000,
      });
      expect(walk.exhausted).toBe(false);
      const got = walk.instants.map(formatSeconds);
      const drop = (list: string[]) => (synchronized ? list : list.filter((t) => t !== c.start));
      // dateutil's list stops at 40: past that, only its length is compared.
      const mine = c.instants.length < 40 ? drop(got) : drop(got).slice(0, drop(c.instants).length);
      expect({ rule: c.rule, start: c.start, instants: mine }).toEqual({ rule: c.rule, start: c.start, instants: drop(c.instants) });
      compared++;
    }
    expect(compared).toBeGreaterThan(650);
    expect(refused).toBeGreaterThan(5);
  });
});
