// Seeded pseudo-randomness: every simulated number is a pure function of (seed, key parts),
// so a report for the same seed, objects and range is identical on every run and machine.

/** 32-bit FNV-1a over the text of the key parts. */
export function hash32(...parts: Array<string | number>): number {
  let h = 0x811c9dc5;
  for (let p = 0; p < parts.length; p++) {
    // '|' between parts, so ('ab', 'c') and ('a', 'bc') differ.
    if (p > 0) h = Math.imul(h ^ 124, 0x01000193);
    const text = String(parts[p]);
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  }
  return h >>> 0;
}

/** mulberry32: a tiny, fast generator with good enough statistics for plausible metrics. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A generator for one key: `rng(seed, 'ad', adId, hour)`. */
export function rng(seed: number, ...parts: Array<string | number>): () => number {
  return mulberry32(hash32(seed, ...parts));
}

/** Uniform in [min, max). */
export function between(next: () => number, min: number, max: number): number {
  return min + (max - min) * next();
}

/** Rounds x up or down with probability given by its fraction, so sums of many stay unbiased. */
export function stochasticRound(x: number, u: number): number {
  const floor = Math.floor(x);
  return floor + (u < x - floor ? 1 : 0);
}
