import { describe, expect, it } from 'vitest';
import { currencyOffset, toMajor, toMinor } from './currency.ts';

describe('currency offsets', () => {
  it('uses offset 1 for the currencies without a minor unit on Meta and 100 for the rest', () => {
    for (const c of ['JPY', 'KRW', 'TWD', 'CLP', 'COP', 'CRC', 'HUF', 'ISK', 'IDR', 'PYG', 'VND']) expect(currencyOffset(c)).toBe(1);
    for (const c of ['USD', 'EUR', 'CNY', 'GBP', 'HKD', 'THB', 'BRL']) expect(currencyOffset(c)).toBe(100);
  });

  it('ignores the case of the currency code', () => {
    expect(currencyOffset('jpy')).toBe(1);
    expect(toMinor(10, 'usd')).toBe(1000);
  });
});

describe('toMinor', () => {
  it('turns major units into integer minor units of the currency', () => {
    expect(toMinor(10, 'USD')).toBe(1000);
    expect(toMinor(10, 'JPY')).toBe(10);
    expect(toMinor(0, 'EUR')).toBe(0);
  });

  it('reads Insights-style decimal strings', () => {
    expect(toMinor('5339.5', 'USD')).toBe(533950);
    expect(toMinor(' 1200 ', 'KRW')).toBe(1200);
  });

  it('is not fooled by binary floating point', () => {
    expect(toMinor(19.99, 'USD')).toBe(1999);
    expect(toMinor(0.285, 'USD')).toBe(29);
    expect(toMinor(1.005, 'USD')).toBe(101);
    expect(toMinor(123456789012.34, 'USD')).toBe(12345678901234);
  });

  it('rounds half away from zero, including refunds', () => {
    expect(toMinor(0.125, 'USD')).toBe(13);
    expect(toMinor(-0.125, 'USD')).toBe(-13);
    expect(toMinor(2.5, 'JPY')).toBe(3);
    expect(Object.is(toMinor(-0.001, 'USD'), 0)).toBe(true);
  });

  it('refuses what is not an amount', () => {
    expect(() => toMinor('', 'USD')).toThrow(RangeError);
    expect(() => toMinor('12,5', 'USD')).toThrow(RangeError);
    expect(() => toMinor(Number.NaN, 'USD')).toThrow(RangeError);
    expect(() => toMinor(Number.POSITIVE_INFINITY, 'USD')).toThrow(RangeError);
  });
});

describe('toMajor', () => {
  it('turns integer minor units into major units', () => {
    expect(toMajor(1999, 'USD')).toBe(19.99);
    expect(toMajor(1999, 'JPY')).toBe(1999);
    expect(toMajor(-250, 'EUR')).toBe(-2.5);
  });

  it('round-trips with toMinor', () => {
    for (const minor of [0, 1, 99, 100, 12345, 987654321]) {
      expect(toMinor(toMajor(minor, 'USD'), 'USD')).toBe(minor);
      expect(toMinor(toMajor(minor, 'VND'), 'VND')).toBe(minor);
    }
  });

  it('refuses fractional minor units', () => {
    expect(() => toMajor(10.5, 'USD')).toThrow(RangeError);
  });
});
