/**
 * ACH return reasons as Increase names them, mapped to their Nacha codes (the SDK documents each name with
 * its code; https://increase.com/documentation/ach-returns), and the US bank's configuration names.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config.ts';
import { fromIncreaseAmount, toIncreaseAmount } from '../../src/rails/increase/amounts.ts';
import { parseUsdBankConfig, UsdBankConfigError } from '../../src/rails/increase/config.ts';
import { achReturnOf, achReturnReasonOf, NACHA_CODE_OF } from '../../src/rails/increase/return-codes.ts';
import { testConfig } from '../helpers/server.ts';

describe('ACH return codes', () => {
  it('maps the common returns to their Nacha codes', () => {
    expect(achReturnOf('insufficient_fund').nachaCode).toBe('R01');
    expect(achReturnOf('account_closed').nachaCode).toBe('R02');
    expect(achReturnOf('no_account').nachaCode).toBe('R03');
    expect(achReturnOf('invalid_account_number_structure').nachaCode).toBe('R04');
    expect(achReturnOf('account_frozen_entry_returned_per_ofac_instruction').nachaCode).toBe('R16');
    expect(achReturnOf('credit_entry_refused_by_receiver').nachaCode).toBe('R23');
  });

  it('gives every reason its own code, and finds the reason back from the code', () => {
    const codes = Object.values(NACHA_CODE_OF);
    expect(new Set(codes).size).toBe(codes.length);
    for (const [reason, code] of Object.entries(NACHA_CODE_OF)) {
      expect(code).toMatch(/^R\d\d$/);
      expect(achReturnReasonOf(code.toLowerCase())).toBe(reason);
    }
    expect(achReturnReasonOf('R99')).toBeUndefined();
  });
});

describe('US bank configuration', () => {
  const production = {
    PONTE_USD_BANK: 'increase',
    PONTE_INCREASE_API_KEY: 'key',
    PONTE_INCREASE_ACCOUNT_ID: 'account_1',
    PONTE_INCREASE_WEBHOOK_SECRET: 'secret',
  };

  it('has no bank unless one is named', () => {
    expect(parseUsdBankConfig({}, 'PONTE_')).toBeUndefined();
    expect(parseUsdBankConfig({ PONTE_INCREASE_API_KEY: 'key' }, 'PONTE_')).toBeUndefined();
  });

  it("defaults to Increase's production address, and the sandbox to Increase's sandbox", () => {
    expect(parseUsdBankConfig(production, 'PONTE_')?.url.toString()).toBe('https://api.increase.com/');
    const sandbox = Object.fromEntries(
      Object.entries(production).map(([name, value]) => [name.replace('PONTE_', 'PONTE_SANDBOX_'), value]),
    );
    expect(parseUsdBankConfig(sandbox, 'PONTE_SANDBOX_')).toMatchObject({
      bank: 'increase',
      apiKey: 'key',
      accountId: 'account_1',
      webhookSecret: 'secret',
    });
    expect(parseUsdBankConfig(sandbox, 'PONTE_SANDBOX_')?.url.toString()).toBe(
      'https://sandbox.increase.com/',
    );
  });

  it('refuses a named bank without its key, account or secret, and an unknown bank', () => {
    expect(() => parseUsdBankConfig({ ...production, PONTE_INCREASE_API_KEY: '' }, 'PONTE_')).toThrow(
      /PONTE_INCREASE_API_KEY is required/,
    );
    expect(() => parseUsdBankConfig({ ...production, PONTE_INCREASE_WEBHOOK_SECRET: ' ' }, 'PONTE_')).toThrow(
      UsdBankConfigError,
    );
    expect(() => parseUsdBankConfig({ ...production, PONTE_USD_BANK: 'chase' }, 'PONTE_')).toThrow(
      /must be one of increase/,
    );
    expect(() => parseUsdBankConfig({ ...production, PONTE_INCREASE_URL: 'ftp://x' }, 'PONTE_')).toThrow(
      /http\(s\) URL/,
    );
  });
});

describe('US bank configuration at start-up', () => {
  it('loads the bank of each environment, and refuses to start with a named bank half configured', () => {
    const { config } = testConfig({
      PONTE_SANDBOX_USD_BANK: 'increase',
      PONTE_SANDBOX_INCREASE_API_KEY: 'key',
      PONTE_SANDBOX_INCREASE_ACCOUNT_ID: 'account_1',
      PONTE_SANDBOX_INCREASE_WEBHOOK_SECRET: 'secret',
    });
    expect(config.usdBank.production).toBeUndefined();
    expect(config.usdBank.sandbox).toMatchObject({ bank: 'increase', accountId: 'account_1' });
    expect(() => testConfig({ PONTE_USD_BANK: 'increase' })).toThrow(ConfigError);
  });
});

describe('amounts', () => {
  it('sends whole positive cents and reads them back exactly', () => {
    expect(toIncreaseAmount(12_345n)).toBe(12_345);
    expect(fromIncreaseAmount(12_345)).toBe(12_345n);
    expect(() => toIncreaseAmount(0n)).toThrow(RangeError);
    expect(() => toIncreaseAmount(2n ** 60n)).toThrow(RangeError);
    expect(() => fromIncreaseAmount(1.5)).toThrow(RangeError);
  });
});
