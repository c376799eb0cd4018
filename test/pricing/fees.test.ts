/**
 * The on-ramp fee is one formula: basis points of the BRL amount rounded half up to the cent, plus the
 * flat fee, exactly what pricing charges an on-ramp's source before the platform minimum.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { divRoundHalfUp } from '../../src/core/decimal.ts';
import {
  convert,
  feeOn,
  onRampFee,
  PricingError,
  priceFromSource,
  UNIT_RATE,
} from '../../src/modules/pricing/pricing.ts';

const cents = fc.bigInt({ min: 1n, max: 999_999_999_999_999n });
const terms = fc.record({
  basisPoints: fc.integer({ min: 0, max: 10_000 }),
  flat: fc.bigInt({ min: 0n, max: 100_000n }),
});
const INT8_MAX = 9_223_372_036_854_775_807n;
const NO_FEE = { basisPoints: 0, flat: 0n, minimum: 0n };

describe('the on-ramp fee', () => {
  it('is basis points rounded half up to the cent plus the flat fee, for every amount and terms', () => {
    fc.assert(
      fc.property(cents, terms, (amount, fee) => {
        const expected = divRoundHalfUp(amount * BigInt(fee.basisPoints), 10_000n) + fee.flat;
        expect(onRampFee(amount, fee)).toBe(expected);
        expect(feeOn(amount, 'BRL', fee, UNIT_RATE)).toBe(expected);
      }),
    );
  });

  it('is the platform fee pricing charges an on-ramp when no minimum applies', () => {
    fc.assert(
      fc.property(cents, terms, fc.bigInt({ min: 1n, max: 100_000_000_000n }), (amount, fee, rate) => {
        const input = {
          sourceCurrency: 'BRL' as const,
          targetCurrency: 'USDC' as const,
          baseRate: rate,
          rateToBrl: UNIT_RATE,
          platform: { ...fee, minimum: 0n },
          partner: NO_FEE,
        };
        let pricing: ReturnType<typeof priceFromSource>;
        try {
          pricing = priceFromSource(input, amount);
        } catch (error) {
          // refused only when the fee takes it all, or the rest converts to nothing or too much
          expect(error).toBeInstanceOf(PricingError);
          const net = amount - onRampFee(amount, fee);
          const target = net > 0n ? convert(net, 'BRL', 'USDC', rate) : 0n;
          expect(net <= 0n || target <= 0n || target > INT8_MAX).toBe(true);
          return;
        }
        expect(pricing.platformFee).toBe(onRampFee(amount, fee));
        expect(pricing.fee + pricing.net).toBe(amount);
      }),
    );
  });
});
