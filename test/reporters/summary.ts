import type { Reporter, TestModule } from 'vitest/node';

/** Counts of one run, by outcome. */
export interface RunCounts {
  passed: number;
  failed: number;
  skipped: number;
}

/**
 * Counts the tests of a run. A module that failed without a failing test (it did not load,
 * or a hook threw) and an unhandled error each count as one failure, so that a broken run
 * can never read "0 failed".
 */
export function countRun(modules: ReadonlyArray<TestModule>, unhandledErrors: number): RunCounts {
  const counts: RunCounts = { passed: 0, failed: unhandledErrors, skipped: 0 };
  for (const module of modules) {
    let failedHere = 0;
    for (const test of module.children.allTests()) {
      const state = test.result().state;
      if (state === 'passed') counts.passed++;
      else if (state === 'failed') failedHere++;
      else if (state === 'skipped') counts.skipped++;
    }
    if (failedHere === 0 && module.state() === 'failed') failedHere = 1;
    counts.failed += failedHere;
  }
  return counts;
}

/** The line CI looks for: `N passed, N failed` plus `, N skipped` when any were skipped. */
export function summaryLine(c: RunCounts): string {
  return `${c.passed} passed, ${c.failed} failed${c.skipped ? `, ${c.skipped} skipped` : ''}`;
}

/** Resolves once everything written to `stream` so far has been handed to the OS. */
function flushed(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => stream.write('', () => resolve()));
}

/** Prints `summaryLine` as the very last line of a run (registered after the default reporter). */
export default class SummaryReporter implements Reporter {
  async onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): Promise<void> {
    const line = summaryLine(countRun(modules, unhandledErrors.length));
    // On a full pipe Node queues writes: the default reporter's error report (stderr) could
    // otherwise reach a merged log after this line.
    await Promise.all([flushed(process.stderr), flushed(process.stdout)]);
    process.stdout.write(`${line}\n`);
  }
}
