import { describe, expect, it } from 'vitest';
import { currencyDecimals, daysUntil, formatMoney } from './format';

describe('money and time formats', () => {
  it('shows money in its currency with 2 decimals, none for the zero-decimal currencies', () => {
    expect(formatMoney(12345.5, 'USD')).toBe('USD 12,345.50');
    expect(formatMoney(98000, 'JPY')).toBe('JPY 98,000');
    expect(formatMoney(1999.4, 'krw')).toBe('KRW 1,999');
    expect(formatMoney(null, 'USD')).toBe('');
    expect(currencyDecimals('TWD')).toBe(0);
    expect(currencyDecimals('EUR')).toBe(2);
  });

  it('counts a started day as a day until an instant', () => {
    const now = '2026-03-01T00:00:00Z';
    expect(daysUntil('2026-03-03T12:00:00Z', now)).toBe(3);
    expect(daysUntil('2026-03-08T00:00:00Z', now)).toBe(7);
    expect(daysUntil('2026-02-27T00:00:00Z', now)).toBeLessThanOrEqual(0);
    expect(daysUntil(null, now)).toBeNull();
  });
});
