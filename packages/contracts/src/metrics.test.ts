import { describe, expect, it } from 'vitest';
import { factColumnsOf, formatMetric, METRIC_KEYS, metricChange, metrics, metricValue } from './metrics.ts';

describe('metric registry', () => {
  it('computes ratios from sums, never from averaged rows', () => {
    // Two rows: 1 click of 100 impressions and 9 clicks of 100: CTR of the total is 5 %, not the mean of 1 % and 9 %.
    const sums = { clicks: 10, impressions: 200, spend_usd_cents: 1234, purchases: 0, purchase_value_usd_cents: 0 };
    expect(metricValue('ctr', sums)).toBe(5);
    expect(metricValue('spend', sums)).toBe(12.34);
    expect(metricValue('cpm', sums)).toBeCloseTo(61.7, 10);
    expect(metricValue('cpc', sums)).toBeCloseTo(1.234, 10);
  });

  it('gives null for a zero denominator, shown as "-"', () => {
    const sums = { spend_usd_cents: 500, purchases: 0, purchase_value_usd_cents: 0 };
    expect(metricValue('cost_per_purchase', sums)).toBeNull();
    expect(formatMetric('cost_per_purchase', metricValue('cost_per_purchase', sums))).toBe('-');
    expect(metricValue('pixel_roas', { spend_usd_cents: 0, purchase_value_usd_cents: 0 })).toBeNull();
  });

  it('names the fact columns a set of metrics needs', () => {
    expect(factColumnsOf(['ctr'])).toEqual(['impressions', 'clicks']);
    expect(factColumnsOf(['pixel_roas', 'spend'])).toEqual(['spend_usd_cents', 'purchase_value_usd_cents']);
  });

  it('formats money, percentages and counts the same everywhere', () => {
    expect(formatMetric('spend', 1234.5, 'en')).toBe('$1,234.50');
    expect(formatMetric('ctr', 1.234, 'en')).toBe('1.23%');
    expect(formatMetric('impressions', 1234567, 'zh')).toBe('1,234,567');
    expect(formatMetric('pixel_roas', 0.5, 'en')).toBe('0.50');
    expect(formatMetric('spend', -3, 'en')).toBe('-$3.00');
  });

  it('measures change against the previous period, null without a base', () => {
    expect(metricChange(150, 100)).toBe(0.5);
    expect(metricChange(50, 100)).toBe(-0.5);
    expect(metricChange(10, 0)).toBeNull();
    expect(metricChange(null, 10)).toBeNull();
  });

  it('defines every ratio over summable metrics, each metric with both titles', () => {
    for (const key of METRIC_KEYS) {
      const def = metrics[key];
      expect(def.title.zh && def.title.en, key).toBeTruthy();
      if (def.kind === 'ratio') {
        expect(metrics[def.numerator].kind, `${key} numerator`).toBe('sum');
        expect(metrics[def.denominator].kind, `${key} denominator`).toBe('sum');
      }
    }
  });
});
