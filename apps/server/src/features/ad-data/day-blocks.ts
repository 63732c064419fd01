// Ranges of report days over the block rollups of migration 0025 (campaign_stats_blocks,
// campaign_order_blocks): a block of level L (1..7) holds 2^L days aligned on 1970-01-01, and is
// named level × 1,000,000 + its index. The migration's triggers compute the same names in SQL.

export const BLOCK_TOP_LEVEL = 7;
const LEVEL_STRIDE = 1_000_000;
const DAY_MS = 86_400_000;

const indexOf = (day: string) => Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10))) / DAY_MS;
const dayAt = (index: number) => new Date(index * DAY_MS).toISOString().slice(0, 10);

/** The block of `level` containing `day`, and its first and last day. */
export function blockOf(day: string, level: number): { block: number; first: string; last: string } {
  const index = Math.floor(indexOf(day) / 2 ** level);
  return { block: level * LEVEL_STRIDE + index, first: dayAt(index * 2 ** level), last: dayAt((index + 1) * 2 ** level - 1) };
}

/**
 * [from, to] as the fewest whole blocks and single days, left to right, greedily taking the largest
 * aligned block that fits. A block never straddles a cutoff: a cohort figure counts days up to its
 * cutoff ("matured by"), so each block must lie wholly on or before it, or wholly after it.
 */
export function splitRange(from: string, to: string, cutoffs: readonly string[] = []): { blocks: number[]; days: string[] } {
  const end = indexOf(to);
  const cuts = cutoffs.map(indexOf);
  const blocks: number[] = [];
  const days: string[] = [];
  let i = indexOf(from);
  while (i <= end) {
    let taken = 0;
    for (let level = BLOCK_TOP_LEVEL; level >= 1; level--) {
      const size = 2 ** level;
      const last = i + size - 1;
      // Aligned, inside the range, and no cutoff with a day of the block after it.
      if (i % size === 0 && last <= end && !cuts.some((c) => c >= i && c < last)) {
        blocks.push(level * LEVEL_STRIDE + i / size);
        taken = size;
        break;
      }
    }
    if (!taken) {
      days.push(dayAt(i));
      taken = 1;
    }
    i += taken;
  }
  return { blocks, days };
}
