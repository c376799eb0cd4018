import type { RequestOptions } from '../transport.js';
import type {
  CreateExchangeRateResult,
  SimulateAccountDepositParams,
  SimulateAccountDepositResult,
  SimulateDepositParams,
  SimulateReturnParams,
  SimulateVerificationParams,
  SimulateWalletDepositParams,
  SimulateWalletDepositResult,
  Transaction,
  Verification,
} from '../types.js';
import { Resource, segment } from './base.js';

/**
 * Simulations the sandbox offers (a sandbox key only): verification outcomes, PIX deposits, returns of
 * payouts (PIX, ACH with a Nacha code, wire), ACH and wire transfers into a USD account, stablecoin
 * deposits, and expiries now.
 */
export class Sandbox extends Resource {
  /** POST /sandbox/customers/{id}/verification: moves the customer's verification as a review would. */
  simulateVerification(
    customerId: string,
    params: SimulateVerificationParams,
    options?: RequestOptions,
  ): Promise<Verification> {
    return this.postJson(`/sandbox/customers/${segment(customerId)}/verification`, params, options);
  }

  /** POST /sandbox/transactions/{id}/deposit: pays an on-ramp (the requested amount unless given). */
  deposit(
    transactionId: string,
    params?: SimulateDepositParams,
    options?: RequestOptions,
  ): Promise<Transaction> {
    return this.postJson(`/sandbox/transactions/${segment(transactionId)}/deposit`, params, options);
  }

  /**
   * POST /sandbox/accounts/{id}/deposit: an ACH credit (unless `rail` says WIRE) arrives at a customer's
   * USD account; answers whether it was APPLIED, HELD or RETURNED, with the on-ramp it became.
   */
  accountDeposit(
    accountId: string,
    params: SimulateAccountDepositParams,
    options?: RequestOptions,
  ): Promise<SimulateAccountDepositResult> {
    return this.postJson(`/sandbox/accounts/${segment(accountId)}/deposit`, params, options);
  }

  /**
   * POST /sandbox/transactions/{id}/return: the receiving bank returns a SUCCESS off-ramp's payment (a
   * PIX; an ACH with its Nacha `code`, R01 unless given; a wire).
   */
  returnPayout(
    transactionId: string,
    params: SimulateReturnParams = {},
    options?: RequestOptions,
  ): Promise<Transaction> {
    return this.postJson(`/sandbox/transactions/${segment(transactionId)}/return`, params, options);
  }

  /** POST /sandbox/wallets/{address}/deposit: stablecoin arrives at a customer's wallet from outside. */
  walletDeposit(
    address: string,
    params: SimulateWalletDepositParams,
    options?: RequestOptions,
  ): Promise<SimulateWalletDepositResult> {
    return this.postJson(`/sandbox/wallets/${segment(address)}/deposit`, params, options);
  }

  /** POST /sandbox/transactions/{id}/expire: an AWAITING_FUNDS on-ramp expires now. */
  expireTransaction(transactionId: string, options?: RequestOptions): Promise<Transaction> {
    return this.postJson(`/sandbox/transactions/${segment(transactionId)}/expire`, undefined, options);
  }

  /** POST /sandbox/exchange-rates/{id}/expire: a LOCKED quote expires now. */
  expireExchangeRate(exchangeRateId: string, options?: RequestOptions): Promise<CreateExchangeRateResult> {
    return this.postJson(`/sandbox/exchange-rates/${segment(exchangeRateId)}/expire`, undefined, options);
  }
}
