/**
 * The US bank connection of one environment: `PONTE_USD_BANK=increase` with `PONTE_INCREASE_*` for
 * production, and `PONTE_SANDBOX_USD_BANK=increase` with `PONTE_SANDBOX_INCREASE_*` to point the sandbox at
 * Increase's own sandbox (https://increase.com/documentation/sandbox). Without a bank named, there is none:
 * production answers 503 where it would need one and the sandbox simulates the bank.
 */

export class UsdBankConfigError extends Error {}

export type IncreaseConfig = {
  bank: 'increase';
  /** Increase's API address (https://increase.com/documentation/api: `https://api.increase.com`). */
  url: URL;
  apiKey: string;
  /** Ponte's own account at Increase: every customer's account number is opened under it. */
  accountId: string;
  /** The secret of Ponte's event subscription; Increase signs every webhook with it. */
  webhookSecret: string;
};

const BANKS = ['increase'] as const;
const DEFAULT_URL = { PONTE_: 'https://api.increase.com', PONTE_SANDBOX_: 'https://sandbox.increase.com' };

function required(env: NodeJS.ProcessEnv, name: string): string {
  const value = env[name]?.trim();
  if (!value) throw new UsdBankConfigError(`${name} is required when a US bank is configured`);
  return value;
}

function url(name: string, raw: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new UsdBankConfigError(`${name} must be an http(s) URL, got "${raw}"`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw new UsdBankConfigError(`${name} must be an http(s) URL, got "${raw}"`);
  }
  return parsed;
}

/** The bank of production (`prefix` PONTE_) or of the sandbox (PONTE_SANDBOX_); undefined when none is named. */
export function parseUsdBankConfig(
  env: NodeJS.ProcessEnv,
  prefix: 'PONTE_' | 'PONTE_SANDBOX_',
): IncreaseConfig | undefined {
  const bank = env[`${prefix}USD_BANK`]?.trim().toLowerCase();
  if (!bank) return undefined;
  if (!(BANKS as readonly string[]).includes(bank)) {
    throw new UsdBankConfigError(`${prefix}USD_BANK must be one of ${BANKS.join(', ')}, got "${bank}"`);
  }
  const names = (suffix: string) => `${prefix}INCREASE_${suffix}`;
  return {
    bank: 'increase',
    url: url(names('URL'), env[names('URL')]?.trim() || DEFAULT_URL[prefix]),
    apiKey: required(env, names('API_KEY')),
    accountId: required(env, names('ACCOUNT_ID')),
    webhookSecret: required(env, names('WEBHOOK_SECRET')),
  };
}
