import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatAmount, parseAmount } from '../../src/core/money.ts';

describe('amounts', () => {
  it('parse into exact cents', () => {
    expect(parseAmount('1500')).toBe(150000n);
    expect(parseAmount('1500.5')).toBe(150050n);
    expect(parseAmount('0.01')).toBe(1n);
    expect(parseAmount('9999999999999.99')).toBe(999999999999999n);
  });
  it('format with exactly two decimals', () => {
    expect(formatAmount(150000n)).toBe('1500.00');
    expect(formatAmount(1n)).toBe('0.01');
    expect(formatAmount(-250n)).toBe('-2.50');
    expect(formatAmount(0n)).toBe('0.00');
    expect(formatAmount(99n)).toBe('0.99');
    expect(formatAmount(-1n)).toBe('-0.01');
    expect(formatAmount(100n)).toBe('1.00');
    expect(formatAmount(123456789012345678901n)).toBe('1234567890123456789.01');
  });
  it('refuse anything but up to 13 digits and 2 decimals', () => {
    for (const bad of ['', '1.234', '-1', '1e3', '1,00', ' 1', '12345678901234', '.5', '1.']) {
      expect(() => parseAmount(bad)).toThrow(RangeError);
    }
  });
  it('round-trip: format(parse(x)) is x normalised, parse(format(c)) is c', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 999_999_999_999_999n }), (cents) => {
        expect(parseAmount(formatAmount(cents))).toBe(cents);
      }),
    );
  });
});
