/** Bytes held from a `ByteBudget` until released; releasing again has no effect. */
export interface Reservation {
  readonly bytes: number;
  release(): void;
}

type Waiter = { bytes: number; grant: (r: Reservation) => void };

/**
 * A fixed number of bytes shared by concurrent users, granted in arrival order as soon as
 * they fit: the memory of image bodies in flight, one budget per calendar.
 */
export class ByteBudget {
  #used = 0;
  #peak = 0;
  readonly #queue: Waiter[] = [];

  constructor(readonly capacity: number) {
    if (Number.isNaN(capacity) || capacity < 0) throw new RangeError(`byte budget must be a non-negative number, got ${capacity}`);
  }

  /** Bytes currently reserved. */
  get used(): number {
    return this.#used;
  }

  /** The most bytes ever reserved at once. */
  get peak(): number {
    return this.#peak;
  }

  /** Reservations not yet granted. */
  get waiting(): number {
    return this.#queue.length;
  }

  /** Whether a reservation of this size can ever be granted. */
  fits(bytes: number): boolean {
    return bytes <= this.capacity;
  }

  /**
   * Waits until `bytes` can be held, behind every earlier request; rejects with the
   * signal's reason if it aborts first, and at once if `bytes` exceeds the capacity.
   */
  reserve(bytes: number, signal?: AbortSignal): Promise<Reservation> {
    if (!(bytes >= 0) || !this.fits(bytes)) return Promise.reject(new RangeError(`cannot reserve ${bytes} of ${this.capacity} bytes`));
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<Reservation>((resolve, reject) => {
      const waiter: Waiter = {
        bytes,
        grant: (r) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(r);
        },
      };
      const onAbort = (): void => {
        const at = this.#queue.indexOf(waiter);
        if (at < 0) return;
        this.#queue.splice(at, 1);
        // The one leaving may have been the head that blocked smaller requests behind it.
        this.#pump();
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#queue.push(waiter);
      this.#pump();
    });
  }

  /** Grants waiting requests from the head of the queue while they fit. */
  #pump(): void {
    // Strictly first come, first served: a large request at the head is never starved by
    // a stream of small ones slipping past it.
    while (this.#queue[0] && this.#used + this.#queue[0].bytes <= this.capacity) {
      const waiter = this.#queue.shift();
      if (!waiter) break;
      waiter.grant(this.#hold(waiter.bytes));
    }
  }

  #hold(bytes: number): Reservation {
    this.#used += bytes;
    this.#peak = Math.max(this.#peak, this.#used);
    let held = true;
    return {
      bytes,
      release: () => {
        if (!held) return;
        held = false;
        this.#used -= bytes;
        this.#pump();
      },
    };
  }
}
