/**
 * The rates chart's scaling: exact decimals become SVG coordinates with one rounding, values outside the
 * domain are held at its ends, a one-value domain draws midway, and no values make no domain.
 */
import { describe, expect, it } from 'vitest';
import { domainOf, padded, rounded, scale } from '../../src/web/kit/chart.ts';

describe('chart scaling', () => {
  it('places a value exactly, in hundredths of a pixel rounded half away from zero', () => {
    // rates at scale 10: 0.18 .. 0.19 across 96..704 (608 px)
    const rates = { lo: 1_800_000_000n, hi: 1_900_000_000n };
    expect(scale(1_800_000_000n, rates, 96, 704)).toBe('96');
    expect(scale(1_900_000_000n, rates, 96, 704)).toBe('704');
    expect(scale(1_825_000_000n, rates, 96, 704)).toBe('248');
    // 608 × 1/3 = 202.666… → 202.67, plus 96
    expect(scale(1_833_333_333n, rates, 96, 704)).toBe('298.67');
    // one unit above the bottom of a 10^8-unit span moves 0.00000608 px: nothing at two decimals
    expect(scale(1_800_000_001n, rates, 96, 704)).toBe('96');
    // 0.005 px is a half: away from zero
    expect(scale(1n, { lo: 0n, hi: 200n }, 0, 1)).toBe('0.01');
    expect(scale(1n, { lo: 0n, hi: 201n }, 0, 1)).toBe('0');
  });

  it('runs a vertical axis from the bottom up, with the same exactness', () => {
    const rates = { lo: 0n, hi: 3n };
    expect(scale(0n, rates, 224, 16)).toBe('224');
    expect(scale(3n, rates, 224, 16)).toBe('16');
    // 224 - 208/3 = 154.666… → 154.67 (the rounding is on the distance, halves away from zero)
    expect(scale(1n, rates, 224, 16)).toBe('154.67');
    expect(scale(2n, rates, 224, 16)).toBe('85.33');
  });

  it('holds values outside the domain at its ends, and draws a one-value domain midway', () => {
    const times = { lo: 1_000n, hi: 2_000n };
    expect(scale(0n, times, 96, 704)).toBe('96');
    expect(scale(5_000n, times, 96, 704)).toBe('704');
    expect(scale(7n, { lo: 7n, hi: 7n }, 96, 703)).toBe('399.5');
    expect(scale(9n, { lo: 7n, hi: 7n }, 224, 16)).toBe('120');
  });

  it('finds the domain of the values, none for no values, and pads it', () => {
    expect(domainOf([])).toBeNull();
    expect(domainOf([5n])).toEqual({ lo: 5n, hi: 5n });
    expect(domainOf([1_830_000_000n, 1_790_000_000n, 1_825_000_000n])).toEqual({
      lo: 1_790_000_000n,
      hi: 1_830_000_000n,
    });
    expect(padded({ lo: 1_000n, hi: 2_000n }, 50n)).toEqual({ lo: 950n, hi: 2_050n });
    expect(padded({ lo: 5n, hi: 5n }, 50n)).toEqual({ lo: 4n, hi: 6n });
    expect(padded({ lo: 55_000_000_000n, hi: 55_000_000_000n }, 10n)).toEqual({
      lo: 54_450_000_000n,
      hi: 55_550_000_000n,
    });
    expect(padded({ lo: 0n, hi: 0n }, 50n)).toEqual({ lo: -1n, hi: 1n });
  });

  it('rounds the domain outward to multiples of a power of ten', () => {
    // 0.179875 .. 0.182625: span 0.00275 → steps of 0.0001
    expect(rounded({ lo: 1_798_750_000n, hi: 1_826_250_000n })).toEqual({
      lo: 1_798_000_000n,
      hi: 1_827_000_000n,
    });
    expect(rounded({ lo: 54_450_000_000n, hi: 55_550_000_000n })).toEqual({
      lo: 54_400_000_000n,
      hi: 55_600_000_000n,
    });
    // ends already round stay; negative ends go down
    expect(rounded({ lo: 100n, hi: 200n })).toEqual({ lo: 100n, hi: 200n });
    expect(rounded({ lo: -15n, hi: 15n })).toEqual({ lo: -15n, hi: 15n });
    expect(rounded({ lo: -151n, hi: 149n })).toEqual({ lo: -160n, hi: 150n });
    expect(rounded({ lo: 7n, hi: 7n })).toEqual({ lo: 7n, hi: 7n });
  });
});
