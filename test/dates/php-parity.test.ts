import { describe, expect, it } from 'vitest';
import { parseTime } from '../../src/dates/index.js';
import { PHP_STRTOTIME } from './php-strtotime.fixture.js';

// The "now" the fixture was produced with.
const NOW = new Date(1795264231 * 1000);

describe('parseTime agrees with PHP 8.2 strtotime', () => {
  for (const [zone, rows] of Object.entries(PHP_STRTOTIME)) {
    it(`${zone}: ${rows.length} strings`, () => {
      const mismatches = rows
        .map(([input, expected]) => [input, expected, parseTime(input, zone, NOW)?.timestamp ?? null] as const)
        .filter(([, expected, actual]) => expected !== actual);
      expect(mismatches).toEqual([]);
    });
  }
});
