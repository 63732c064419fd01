/**
 * A counter over a rolling window, kept in fixed buckets (window / buckets wide) so memory
 * stays constant however many calls arrive. Accuracy is one bucket, enough for throttling.
 */
export class SlidingWindow {
  private readonly bucketMs: number;
  private readonly counts = new Map<number, number>();

  constructor(
    readonly windowMs: number,
    buckets = 60,
  ) {
    this.bucketMs = Math.max(1, Math.floor(windowMs / buckets));
  }

  add(now: number, weight = 1): void {
    const b = Math.floor(now / this.bucketMs);
    this.counts.set(b, (this.counts.get(b) ?? 0) + weight);
    this.prune(now);
  }

  sum(now: number): number {
    this.prune(now);
    let total = 0;
    for (const c of this.counts.values()) total += c;
    return total;
  }

  /** Milliseconds until the total drops to or below `limit - weight` (0 if already there). */
  msUntilRoomFor(now: number, limit: number, weight = 1): number {
    let total = this.sum(now);
    if (total + weight <= limit) return 0;
    const buckets = [...this.counts.entries()].sort((a, b) => a[0] - b[0]);
    for (const [b, c] of buckets) {
      total -= c;
      if (total + weight <= limit) return Math.max(0, b * this.bucketMs + this.windowMs - now);
    }
    return this.windowMs;
  }

  private prune(now: number): void {
    const oldest = Math.floor((now - this.windowMs) / this.bucketMs);
    for (const b of this.counts.keys()) if (b <= oldest) this.counts.delete(b);
  }
}
