// Small in-process semaphores that cap Graph requests in flight per ad account and per token.
// They are per process: several server processes each get their own share, which the usage
// headers then regulate.

/** Releases a held slot; calling it twice is harmless. */
export type Release = () => void;

interface Waiter {
  grant: () => void;
}

class Semaphore {
  private inUse = 0;
  private readonly queue: Waiter[] = [];

  constructor(private readonly limit: number) {}

  get idle(): boolean {
    return this.inUse === 0 && this.queue.length === 0;
  }

  /** Resolves with a release function once a slot is free (FIFO); rejects with the signal's reason on abort. */
  acquire(signal?: AbortSignal): Promise<Release> {
    signal?.throwIfAborted();
    if (this.inUse < this.limit) {
      this.inUse += 1;
      return Promise.resolve(this.releaser());
    }
    return new Promise<Release>((resolve, reject) => {
      const onAbort = () => {
        const i = this.queue.indexOf(waiter);
        if (i >= 0) this.queue.splice(i, 1);
        reject(signal?.reason);
      };
      const waiter: Waiter = {
        grant: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve(this.releaser());
        },
      };
      this.queue.push(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  private releaser(): Release {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.queue.shift();
      // The slot passes straight to the next waiter, so inUse stays the same.
      if (next) next.grant();
      else this.inUse -= 1;
    };
  }
}

/** One semaphore per key, created on demand and forgotten when idle. */
export class KeyedSemaphores {
  private readonly byKey = new Map<string, Semaphore>();

  constructor(private readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`concurrency limit must be a positive integer: ${limit}`);
  }

  async acquire(key: string, signal?: AbortSignal): Promise<Release> {
    let sem = this.byKey.get(key);
    if (!sem) {
      sem = new Semaphore(this.limit);
      this.byKey.set(key, sem);
    }
    const owner = sem;
    try {
      const release = await owner.acquire(signal);
      return () => {
        release();
        if (owner.idle && this.byKey.get(key) === owner) this.byKey.delete(key);
      };
    } catch (err) {
      if (owner.idle && this.byKey.get(key) === owner) this.byKey.delete(key);
      throw err;
    }
  }
}
