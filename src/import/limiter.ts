/**
 * Runs tasks with at most `concurrency` under way and at most `perSecond` started each second,
 * so that an import never hurts the site it reads from.
 *
 * Hand-written rather than `p-queue` or `bottleneck`: the first is published as ES modules only,
 * which the package's CommonJS build cannot load on every Node 20, and the second is no longer
 * maintained; what is needed here is a queue, a counter and a clock.
 */
export class Limiter {
  readonly #queue: (() => void)[] = [];
  #running = 0;
  #nextStart = 0;
  #timer: NodeJS.Timeout | undefined;

  /** Both limits must be positive numbers. */
  constructor(
    private readonly concurrency: number,
    private readonly perSecond: number,
  ) {
    for (const [name, value] of [
      ['concurrency', concurrency],
      ['perSecond', perSecond],
    ] as const) {
      if (!Number.isFinite(value) || value <= 0) throw new RangeError(`Limiter: ${name} must be a positive number, not ${value}`);
    }
  }

  /** Runs `task` once a slot is free and the rate allows it. */
  run<T>(task: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#queue.push(() => {
        // A task that throws at once still gives its slot back.
        Promise.resolve()
          .then(task)
          .then(resolve, reject)
          .finally(() => {
            this.#running--;
            this.#pump();
          });
      });
      this.#pump();
    });
  }

  #pump(): void {
    if (this.#timer || this.#running >= this.concurrency || !this.#queue.length) return;
    // A monotonic clock: a system clock set back would stall the queue.
    const wait = this.#nextStart - performance.now();
    if (wait > 0) {
      this.#timer = setTimeout(() => {
        this.#timer = undefined;
        this.#pump();
      }, wait);
      return;
    }
    const start = this.#queue.shift();
    if (!start) return;
    this.#running++;
    this.#nextStart = performance.now() + 1000 / this.perSecond;
    start();
    this.#pump();
  }
}
