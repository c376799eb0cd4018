import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  divFloor,
  divRoundHalfUp,
  formatDecimal,
  formatDecimalTrimmed,
  parseDecimal,
  pow10,
} from '../../src/core/decimal.ts';
import { formatAmount, parseAmount } from '../../src/core/money.ts';
import {
  convert,
  type FeeTerms,
  onRampFee,
  type Pricing,
  PricingError,
  priceFromSource,
  RATE_SCALE,
  UNIT_RATE,
} from '../../src/modules/pricing/pricing.ts';

const cents = fc.bigInt({ min: 1n, max: 999_999_999_999_999n });
const rates = fc.bigInt({ min: 1n, max: 99_999_999n * pow10(RATE_SCALE) });
const terms = fc.record({
  basisPoints: fc.integer({ min: 0, max: 10_000 }),
  flat: fc.bigInt({ min: 0n, max: 100_000n }),
});
const INT8_MAX = 9_223_372_036_854_775_807n;

/** net (cents) × rate (scale 10) → stablecoin micro-units (scale 6), by the one conversion formula. */
const convertAmount = (net: bigint, rate: bigint) => convert(net, 'BRL', 'USDC', rate);

/** An on-ramp priced by the one formula: a BRL source, the platform's terms with no minimum, no partner fee. */
function convertOnRamp(source: bigint, fee: Omit<FeeTerms, 'minimum'>, rate: bigint): Pricing {
  return priceFromSource(
    {
      sourceCurrency: 'BRL',
      targetCurrency: 'USDC',
      baseRate: rate,
      rateToBrl: UNIT_RATE,
      platform: { ...fee, minimum: 0n },
      partner: { basisPoints: 0, flat: 0n, minimum: 0n },
    },
    source,
  );
}

describe('scaled decimals', () => {
  it('parse and format round-trip at every scale', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 24n }),
        fc.integer({ min: 0, max: 12 }),
        (units, scale) => {
          const text = formatDecimal(units, scale);
          expect(parseDecimal(text, scale, 30)).toBe(units);
          expect(parseDecimal(formatDecimalTrimmed(units, scale), scale, 30)).toBe(units);
        },
      ),
    );
  });

  it('format every amount with exactly its scale of decimals', () => {
    expect(formatDecimal(182_441_100n, 6)).toBe('182.441100');
    expect(formatDecimal(5n, 6)).toBe('0.000005');
    expect(formatDecimal(-5n, 2)).toBe('-0.05');
    expect(formatDecimalTrimmed(1_834_000_000n, 10)).toBe('0.1834');
    expect(formatDecimalTrimmed(50_000_000_000n, 10)).toBe('5');
  });

  it('refuse more decimals than the scale, signs, exponents and blanks', () => {
    for (const bad of ['', '-1', '1e3', '0.12345678901', '1.', '.5', ' 1', '1,5']) {
      expect(() => parseDecimal(bad, 10)).toThrow(RangeError);
    }
    expect(() => parseDecimal('123456789', 10, 8)).toThrow(RangeError);
  });

  it('round half up and down exactly', () => {
    expect(divRoundHalfUp(5n, 10n)).toBe(1n);
    expect(divRoundHalfUp(4n, 10n)).toBe(0n);
    expect(divRoundHalfUp(15n, 10n)).toBe(2n);
    expect(divFloor(19n, 10n)).toBe(1n);
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 20n }), fc.bigInt({ min: 1n, max: 10n ** 8n }), (n, d) => {
        const q = divRoundHalfUp(n, d);
        // |n/d - q| <= 1/2, halves rounding up
        expect(2n * n >= (2n * q - 1n) * d && 2n * n < (2n * q + 1n) * d).toBe(true);
      }),
    );
  });
});

describe('on-ramp arithmetic', () => {
  it('fee + net = gross, always', () => {
    fc.assert(
      fc.property(cents, terms, rates, (gross, fee, rate) => {
        let conversion: Pricing;
        try {
          conversion = convertOnRamp(gross, fee, rate);
        } catch (error) {
          // refused only when the fee takes it all, or the rest converts to nothing or past a bigint
          expect(error).toBeInstanceOf(PricingError);
          const net = gross - onRampFee(gross, fee);
          expect(net <= 0n || convertAmount(net, rate) <= 0n || convertAmount(net, rate) > INT8_MAX).toBe(
            true,
          );
          return;
        }
        expect(conversion.fee + conversion.net).toBe(gross);
        expect(conversion.fee).toBe(onRampFee(gross, fee));
        expect(conversion.target).toBe(convertAmount(conversion.net, rate));
      }),
    );
  });

  it('the fee is the basis points rounded half up to the cent, plus the flat fee', () => {
    expect(onRampFee(100_000n, { basisPoints: 50, flat: 0n })).toBe(500n); // 1000.00 at 0.50% = 5.00
    expect(onRampFee(101n, { basisPoints: 50, flat: 0n })).toBe(1n); // 0.505 cents rounds to 1
    expect(onRampFee(99n, { basisPoints: 50, flat: 0n })).toBe(0n); // 0.495 cents rounds to 0
    expect(onRampFee(100_000n, { basisPoints: 150, flat: 250n })).toBe(1_750n);
  });

  it('target = net × rate rounded down to 6 decimals: never more, less by under 0.000001', () => {
    fc.assert(
      fc.property(cents, rates, (net, rate) => {
        const target = convertAmount(net, rate);
        // exact product at scale 2 + 10 = 12; target at scale 6
        const exact = net * rate;
        const unit = pow10(2 + RATE_SCALE - 6);
        expect(target * unit <= exact).toBe(true);
        expect(exact < (target + 1n) * unit).toBe(true);
      }),
    );
  });

  it('converts a worked example exactly', () => {
    const rate = parseDecimal('0.1834', RATE_SCALE);
    const conversion = convertOnRamp(parseAmount('1000.00'), { basisPoints: 50, flat: 100n }, rate);
    expect(formatAmount(conversion.fee)).toBe('6.00');
    expect(formatAmount(conversion.net)).toBe('994.00');
    expect(formatDecimal(conversion.target, 6)).toBe('182.299600');
  });

  it('has no rounding drift: amounts split and summed come back to the same cents and the same text', () => {
    fc.assert(
      fc.property(
        fc.array(fc.bigInt({ min: 1n, max: 10_000_000n }), { minLength: 1, maxLength: 50 }),
        (parts) => {
          const total = parts.reduce((a, b) => a + b, 0n);
          const viaText = parts.map(formatAmount).reduce((sum, text) => sum + parseAmount(text), 0n);
          expect(viaText).toBe(total);
          expect(formatAmount(viaText)).toBe(formatAmount(total));
        },
      ),
    );
  });

  it('converting in parts never yields more than converting the whole', () => {
    fc.assert(
      fc.property(cents, cents, rates, (a, b, rate) => {
        const whole = convertAmount(a + b, rate);
        const parts = convertAmount(a, rate) + convertAmount(b, rate);
        expect(parts <= whole && whole - parts <= 1n).toBe(true);
      }),
    );
  });
});
