/**
 * US bank account identifiers for ACH and wire payouts. The ABA routing number's check digit follows the
 * ABA's Routing Number Policy (https://www.aba.com/about-us/routing-number): weights 3, 7, 1 repeated, the
 * sum a multiple of 10; the published routing numbers below are those of the Federal Reserve's E-Payments
 * Routing Directory (https://www.frbservices.org/EPaymentsDirectory/).
 */
import { describe, expect, it } from 'vitest';
import {
  abaChecksumHolds,
  normalizeUsAccountNumber,
  routingNumberProblem,
  validateUsBankIdentifier,
} from '../../src/lib/us-bank-account.ts';

// JPMorgan Chase (NY), Bank of America (NY), Wells Fargo (CA), First Internet Bank of Indiana, Citibank (NY)
const PUBLISHED = ['021000021', '026009593', '121000248', '074920909', '021000089'];

describe('ABA routing numbers', () => {
  it('accepts published routing numbers', () => {
    for (const number of PUBLISHED) {
      expect(abaChecksumHolds(number), number).toBe(true);
      expect(routingNumberProblem(number), number).toBeNull();
    }
  });

  it('refuses a routing number with a wrong check digit', () => {
    expect(routingNumberProblem('021000022')).toMatch(/check digit/);
    expect(routingNumberProblem('026009594')).toMatch(/check digit/);
    // one digit changed anywhere breaks the sum
    for (let i = 0; i < 9; i++) {
      const digits = [...'021000021'];
      digits[i] = String((Number(digits[i]) + 1) % 10);
      expect(abaChecksumHolds(digits.join('')), digits.join('')).toBe(false);
    }
  });

  it('refuses a routing number whose first two digits name no Federal Reserve routing symbol', () => {
    // 000000000 and 500000005 pass the checksum but 00 and 50 are not routing symbols
    expect(abaChecksumHolds('000000000')).toBe(true);
    expect(routingNumberProblem('000000000')).toMatch(/first two digits/);
    expect(routingNumberProblem('130000003')).toMatch(/first two digits/);
  });

  it('refuses anything but nine digits', () => {
    for (const value of ['02100002', '0210000210', '02100002a', '021-000-021', '']) {
      expect(routingNumberProblem(value), value).toMatch(/9 digits/);
    }
  });
});

describe('US account numbers', () => {
  it('removes spaces and hyphens, and holds ACH to 17 characters and wires to 34', () => {
    expect(normalizeUsAccountNumber(' 1234-5678 9012 ', 'ACH')).toBe('123456789012');
    expect(normalizeUsAccountNumber('1'.repeat(17), 'ACH')).toBe('1'.repeat(17));
    expect(normalizeUsAccountNumber('1'.repeat(18), 'ACH')).toBeNull();
    expect(normalizeUsAccountNumber('1'.repeat(34), 'WIRE')).toBe('1'.repeat(34));
    expect(normalizeUsAccountNumber('12#4', 'ACH')).toBeNull();
    expect(normalizeUsAccountNumber(' - ', 'ACH')).toBeNull();
  });

  it('reports each wrong field of an identifier by its pointer', () => {
    expect(
      validateUsBankIdentifier(
        { routingNumber: '021000021', accountNumber: '000123456789', accountType: 'CHECKING' },
        'ACH',
      ),
    ).toEqual({
      identifier: { routingNumber: '021000021', accountNumber: '000123456789', accountType: 'CHECKING' },
      errors: [],
    });
    const wrong = validateUsBankIdentifier(
      { routingNumber: '021000022', accountNumber: 'x'.repeat(20), accountType: 'LOAN' as 'CHECKING' },
      'ACH',
    );
    expect(wrong.identifier).toBeNull();
    expect(wrong.errors.map((e) => e.pointer)).toEqual([
      '/body/identifier/routingNumber',
      '/body/identifier/accountNumber',
      '/body/identifier/accountType',
    ]);
  });
});
