import { describe, expect, it } from 'vitest';
import { localHourStart } from '../../lib/tz.ts';
import { rebucketAd, splitLargestRemainder, zeroFacts, type DailyFacts, type HourFacts } from './rebucket.ts';

const LA = 'America/Los_Angeles';
const SH = 'Asia/Shanghai';

function day(f: Partial<DailyFacts>): DailyFacts {
  return { ...zeroFacts(), ...f };
}

describe('splitLargestRemainder', () => {
  it('gives integer parts that sum to the total, the largest remainders first', () => {
    expect(splitLargestRemainder(5, [800, 1600])).toEqual([2, 3]);
    expect(splitLargestRemainder(10, [1, 1, 1])).toEqual([4, 3, 3]);
    expect(splitLargestRemainder(0, [3, 1])).toEqual([0, 0]);
  });
});

describe('rebucketAd', () => {
  it('splits a Los Angeles day over two Shanghai days exactly as computed by hand', () => {
    // 2026-11-10 in Los Angeles (UTC−8) runs 08:00 UTC … 08:00 UTC next day: its hours 0–7 fall
    // on Shanghai's 11-10 (16:00–23:59 +08), hours 8–23 on Shanghai's 11-11.
    const hours: HourFacts[] = Array.from({ length: 24 }, (_, h) => ({ hour: localHourStart('2026-11-10', h, LA), spend_minor: h < 8 ? 100 : 50, impressions: 10, clicks: h === 0 ? 3 : 0 }));
    // Spend: 8×100 = 800 before, 16×50 = 800 after; impressions 80 / 160; clicks 3 / 0.
    const days = new Map([['2026-11-10', day({ spend_minor: 1600, impressions: 240, clicks: 3, purchases: 5, purchase_value_minor: 999, landing_page_views: 7 })]]);
    const out = rebucketAd(LA, SH, days, hours);
    expect([...out.keys()].sort()).toEqual(['2026-11-10', '2026-11-11']);
    const a = out.get('2026-11-10')!;
    const b = out.get('2026-11-11')!;
    expect([a.spend_minor, b.spend_minor]).toEqual([800, 800]);
    expect([a.impressions, b.impressions]).toEqual([80, 160]);
    expect([a.clicks, b.clicks]).toEqual([3, 0]);
    // Purchases by spend 800:800 → 2.5 / 2.5 → the tie goes to the earlier day: 3 / 2.
    expect([a.purchases, b.purchases]).toEqual([3, 2]);
    // The value follows the purchases 3 : 2: 999 → 599.4 / 399.6 → 599 / 400. Landing views by
    // spend: 7 → 3.5 / 3.5 → 4 / 3.
    expect([a.purchase_value_minor, b.purchase_value_minor]).toEqual([599, 400]);
    expect([a.landing_page_views, b.landing_page_views]).toEqual([4, 3]);
  });

  it('keeps a day as it is when the zones agree, and sums whole account days to the platform figures', () => {
    const days = new Map([
      ['2026-11-10', day({ spend_minor: 1000, purchases: 2 })],
      ['2026-11-11', day({ spend_minor: 500, purchases: 1 })],
    ]);
    const same = rebucketAd(SH, SH, days, []);
    expect(same.get('2026-11-10')!.spend_minor).toBe(1000);
    expect(same.get('2026-11-11')!.purchases).toBe(1);
    // Without hourly rows the split goes by hours (8 / 16) and still sums exactly.
    const other = rebucketAd(LA, SH, days, []);
    const total = [...other.values()].reduce((n, f) => n + f.spend_minor, 0);
    const purchases = [...other.values()].reduce((n, f) => n + f.purchases, 0);
    expect(total).toBe(1500);
    expect(purchases).toBe(3);
    expect(other.get('2026-11-10')!.spend_minor).toBe(333); // 1000 × 8/24
  });

  it('never leaves a purchase value on a day without its purchase', () => {
    // One purchase worth 4,125 on a day whose spend falls 1 : 3 over two Shanghai days: the purchase
    // lands on the larger part, and all of its value with it.
    const hours: HourFacts[] = Array.from({ length: 24 }, (_, h) => ({ hour: localHourStart('2026-11-10', h, LA), spend_minor: h < 8 ? 50 : 75, impressions: 10, clicks: 0 }));
    const out = rebucketAd(LA, SH, new Map([['2026-11-10', day({ spend_minor: 1600, purchases: 1, purchase_value_minor: 4125 })]]), hours);
    const a = out.get('2026-11-10')!;
    const b = out.get('2026-11-11')!;
    expect([a.purchases, b.purchases]).toEqual([0, 1]);
    expect([a.purchase_value_minor, b.purchase_value_minor]).toEqual([0, 4125]);
  });
});
