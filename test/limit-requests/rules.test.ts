import { describe, expect, it } from 'vitest';
import { validateRequestedLimits } from '../../src/modules/limit-requests/rules.ts';

const errorsOf = (input: Parameters<typeof validateRequestedLimits>[0]) => {
  const result = validateRequestedLimits(input);
  if (result.ok) throw new Error('expected the amounts to be refused');
  return result.errors;
};

describe('validateRequestedLimits', () => {
  it('converts the given amounts to cents and leaves the others null', () => {
    expect(validateRequestedLimits({ single: '1500', daily: '3000.5', monthly: '9999999999999.99' })).toEqual(
      {
        ok: true,
        amounts: { single: 150000n, daily: 300050n, monthly: 999999999999999n },
      },
    );
    expect(validateRequestedLimits({ daily: '0.01' })).toEqual({
      ok: true,
      amounts: { single: null, daily: 1n, monthly: null },
    });
    expect(validateRequestedLimits({ single: null, monthly: '20000.00' })).toEqual({
      ok: true,
      amounts: { single: null, daily: null, monthly: 2000000n },
    });
  });

  it('needs at least one amount', () => {
    expect(errorsOf({})).toEqual([
      { pointer: '/body/requested', message: 'must give at least one of single, daily, monthly' },
    ]);
    expect(errorsOf({ single: null, daily: undefined })).toHaveLength(1);
  });

  it('refuses zero in any spelling', () => {
    for (const zero of ['0', '0.0', '0.00', '0000']) {
      expect(errorsOf({ single: zero })).toEqual([
        { pointer: '/body/requested/single', message: 'must be greater than zero' },
      ]);
    }
  });

  it('refuses negatives, three decimals, 14 digits and anything that is not a plain amount', () => {
    for (const bad of ['-1', '-0.01', '1.001', '12345678901234', '1e3', ' 1', '1.', '.5', '1,00', '']) {
      expect(errorsOf({ monthly: bad })).toEqual([
        {
          pointer: '/body/requested/monthly',
          message: 'must be a positive amount with at most two decimals, such as "1500.00"',
        },
      ]);
    }
  });

  it('accepts equal amounts and requires single <= daily <= monthly among the given ones', () => {
    expect(validateRequestedLimits({ single: '100', daily: '100.00', monthly: '100' }).ok).toBe(true);
    expect(errorsOf({ single: '100.01', daily: '100' })).toEqual([
      { pointer: '/body/requested/single', message: 'must not be greater than the daily amount' },
    ]);
    expect(errorsOf({ daily: '200', monthly: '199.99' })).toEqual([
      { pointer: '/body/requested/daily', message: 'must not be greater than the monthly amount' },
    ]);
    // without daily, single is still held to monthly
    expect(errorsOf({ single: '500', monthly: '400' })).toEqual([
      { pointer: '/body/requested/single', message: 'must not be greater than the monthly amount' },
    ]);
  });

  it('reports one problem per amount, all at once', () => {
    expect(errorsOf({ single: '300', daily: '200', monthly: '100' })).toEqual([
      { pointer: '/body/requested/single', message: 'must not be greater than the daily amount' },
      { pointer: '/body/requested/daily', message: 'must not be greater than the monthly amount' },
    ]);
    expect(errorsOf({ single: '0', daily: '1.234', monthly: '5' })).toEqual([
      { pointer: '/body/requested/single', message: 'must be greater than zero' },
      {
        pointer: '/body/requested/daily',
        message: 'must be a positive amount with at most two decimals, such as "1500.00"',
      },
    ]);
  });

  it('locates problems under the pointer it is given', () => {
    expect(validateRequestedLimits({ single: '0' }, '/body/approved')).toEqual({
      ok: false,
      errors: [{ pointer: '/body/approved/single', message: 'must be greater than zero' }],
    });
  });
});
