import { describe, expect, it } from 'vitest';
import type { TestModule } from 'vitest/node';
import { countRun, summaryLine } from './summary.js';

// The CI summary line: `N passed, N failed` plus `, N skipped` when any.

function fakeModule(states: string[], moduleState = states.includes('failed') ? 'failed' : 'passed'): TestModule {
  const tests = states.map((state) => ({ result: () => ({ state }) }));
  return { state: () => moduleState, children: { allTests: () => tests[Symbol.iterator]() } } as unknown as TestModule;
}

describe('summary reporter', () => {
  it('counts tests by outcome', () => {
    const counts = countRun([fakeModule(['passed', 'passed', 'skipped']), fakeModule(['failed', 'passed', 'pending'])], 0);
    expect(counts).toEqual({ passed: 3, failed: 1, skipped: 1 });
    expect(summaryLine(counts)).toBe('3 passed, 1 failed, 1 skipped');
  });

  it('leaves out skipped when none were', () => {
    expect(summaryLine(countRun([fakeModule(['passed'])], 0))).toBe('1 passed, 0 failed');
  });

  it('counts a module that failed without a failing test, and unhandled errors, as failures', () => {
    expect(countRun([fakeModule([], 'failed'), fakeModule(['passed'], 'failed')], 2)).toEqual({ passed: 1, failed: 4, skipped: 0 });
  });
});
