/**
 * Where a customer account's US account number comes from: Increase (one `account_number` per customer
 * account under Ponte's account, https://increase.com/documentation/api/account-numbers) when the
 * environment names it, or, in a sandbox without a bank, a simulated one derived from the account's id
 * (the same id always gives the same number). Production without a bank has none: 503.
 */
import { createHash } from 'node:crypto';
import type { Config } from '../../config.ts';
import { AppError } from '../../core/errors.ts';
import type { Environment } from '../../lib/environment.ts';
import { createIncreaseClient, type IncreaseClientOptions } from '../../rails/increase/client.ts';
import type { AccountBank, ProvisionedNumber } from './repo.ts';

export type AccountNumbers = {
  bank: AccountBank;
  /** Opens the number of this account; repeated for the same account, it answers the same number. */
  open(input: { accountId: string; beneficiaryName: string }): Promise<ProvisionedNumber>;
  /** Stops payments to the number: the bank declines what arrives for it afterwards. */
  disable(bankAccountNumberId: string): Promise<void>;
};

/**
 * The simulated bank of a sandbox without one: the routing number is 110000000, the one US test
 * environments publish for test accounts (it passes the ABA checksum and belongs to no bank).
 */
export const SANDBOX_ROUTING_NUMBER = '110000000';
export const SANDBOX_BANK_NAME = 'Ponte Sandbox Bank';

export function sandboxAccountNumbers(): AccountNumbers {
  return {
    bank: 'SANDBOX',
    async open({ accountId }) {
      const digest = createHash('sha256').update(accountId).digest();
      const number = (digest.readBigUInt64BE(0) % 10n ** 12n).toString().padStart(12, '0');
      return {
        bankAccountNumberId: `sandbox_account_number_${accountId}`,
        routingNumber: SANDBOX_ROUTING_NUMBER,
        accountNumber: `9${number}`,
        bankName: SANDBOX_BANK_NAME,
        bankAddress: null,
      };
    },
    async disable() {},
  };
}

export function increaseAccountNumbers(options: IncreaseClientOptions): AccountNumbers {
  const bank = createIncreaseClient(options);
  return {
    bank: 'INCREASE',
    async open({ accountId, beneficiaryName }) {
      // the account's id is the idempotency key: a retry after a lost answer gets the same number
      const number = await bank.openAccountNumber({
        name: `${beneficiaryName} (${accountId})`.slice(0, 200),
        idempotencyKey: `customer-account-${accountId}`,
      });
      const routing = await bank.routingNumber(number.routing_number);
      return {
        bankAccountNumberId: number.id,
        routingNumber: number.routing_number,
        accountNumber: number.account_number,
        bankName: routing?.name ?? 'Increase',
        bankAddress: null,
      };
    },
    async disable(bankAccountNumberId) {
      await bank.disableAccountNumber(bankAccountNumberId);
    },
  };
}

/** The numbers of an environment, or a 503 where production has no US bank configured. */
export function accountNumbersFor(
  config: Pick<Config, 'usdBank'>,
  environment: Environment,
): () => AccountNumbers {
  const bank = config.usdBank[environment];
  if (bank) {
    const numbers = increaseAccountNumbers(bank);
    return () => numbers;
  }
  if (environment === 'sandbox') {
    const numbers = sandboxAccountNumbers();
    return () => numbers;
  }
  return () => {
    throw new AppError(
      'service_unavailable',
      'US dollar accounts are not available: no US bank is configured for production',
    );
  };
}
