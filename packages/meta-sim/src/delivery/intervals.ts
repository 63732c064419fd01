import type { DeliverySnapshot } from '../store/state.ts';

/** Half-open [from, to) instants in ms. */
export type Interval = readonly [number, number];

/** When an object was "on" according to its snapshot history. */
export function onIntervals(history: readonly DeliverySnapshot[]): Interval[] {
  const out: Interval[] = [];
  for (let i = 0; i < history.length; i++) {
    const snap = history[i]!;
    if (!snap.on) continue;
    const segEnd = history[i + 1]?.at ?? Infinity;
    const from = Math.max(snap.at, snap.from ?? -Infinity);
    const to = Math.min(segEnd, snap.until ?? Infinity);
    if (from < to) out.push([from, to]);
  }
  return out;
}

/** Intersection of two sorted, non-overlapping interval lists. */
export function intersect(a: readonly Interval[], b: readonly Interval[]): Interval[] {
  const out: Interval[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const from = Math.max(a[i]![0], b[j]![0]);
    const to = Math.min(a[i]![1], b[j]![1]);
    if (from < to) out.push([from, to]);
    if (a[i]![1] < b[j]![1]) i++;
    else j++;
  }
  return out;
}

/** Milliseconds of [from, to) covered by the intervals. */
export function coverage(intervals: readonly Interval[], from: number, to: number): number {
  let ms = 0;
  for (const [a, b] of intervals) {
    if (b <= from) continue;
    if (a >= to) break;
    ms += Math.min(b, to) - Math.max(a, from);
  }
  return ms;
}

/** The snapshot in force at an instant (the last one at or before it). */
export function snapshotAt(history: readonly DeliverySnapshot[], at: number): DeliverySnapshot | undefined {
  let found: DeliverySnapshot | undefined;
  for (const snap of history) {
    if (snap.at > at) break;
    found = snap;
  }
  return found;
}
