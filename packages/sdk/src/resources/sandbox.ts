import type { RequestOptions } from '../transport.js';
import type {
  SimulateDepositParams,
  SimulateVerificationParams,
  Transaction,
  Verification,
} from '../types.js';
import { Resource, segment } from './base.js';

/** Simulations the sandbox offers (a sandbox key only): verification outcomes and PIX deposits. */
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
}
