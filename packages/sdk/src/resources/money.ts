import type { RequestOptions } from '../transport.js';
import type {
  BankAccount,
  CreateBankAccountParams,
  CreateExchangeRateParams,
  CreateExchangeRateResult,
  ExchangeRateReference,
  ExchangeRateReferenceParams,
  ListBankAccountsParams,
  ListTransactionsParams,
  OffRampParams,
  OffRampResult,
  OnRampParams,
  RefundParams,
  RefundResult,
  Transaction,
  TransferParams,
  TransferResult,
  TravelRuleParams,
  TravelRuleResult,
} from '../types.js';
import { Resource, segment } from './base.js';

export class BankAccounts extends Resource {
  /**
   * POST /bank-accounts: a PIX account (`CreatePixBankAccountParams`: rail PIX, BRL, a PIX key) or a US
   * account (`CreateUsBankAccountParams`: rail ACH or WIRE, USD, routing and account number).
   */
  create(params: CreateBankAccountParams, options?: RequestOptions): Promise<BankAccount> {
    return this.postJson('/bank-accounts', params, options);
  }

  retrieve(id: string, options?: RequestOptions): Promise<BankAccount> {
    return this.getJson(`/bank-accounts/${segment(id)}`, undefined, options);
  }

  list(params?: ListBankAccountsParams, options?: RequestOptions) {
    return this.listPages<BankAccount>('/bank-accounts', params, options);
  }

  del(id: string, options?: RequestOptions): Promise<void> {
    return this.deleteResource(`/bank-accounts/${segment(id)}`, options);
  }
}

export class Transactions extends Resource {
  /** POST /transactions/on-ramp: BRL in over PIX, stablecoin out; the answer carries the PIX instructions. */
  onRamp(params: OnRampParams, options?: RequestOptions): Promise<Transaction> {
    return this.postJson('/transactions/on-ramp', params, options);
  }

  /** POST /transactions/off-ramp: stablecoin or BRL balance out to a PIX bank account. */
  offRamp(params: OffRampParams, options?: RequestOptions): Promise<OffRampResult> {
    return this.postJson('/transactions/off-ramp', params, options);
  }

  /** POST /transactions/transfer: stablecoin to another customer or an external address. */
  transfer(params: TransferParams, options?: RequestOptions): Promise<TransferResult> {
    return this.postJson('/transactions/transfer', params, options);
  }

  /** POST /transactions/{id}/refund: sends held BRL back to the payer over PIX. */
  refund(id: string, params?: RefundParams, options?: RequestOptions): Promise<RefundResult> {
    // the operation takes no body today: one is sent only if a field is given
    const body = params && Object.keys(params).length > 0 ? params : undefined;
    return this.postJson(`/transactions/${segment(id)}/refund`, body, options);
  }

  /**
   * POST /transactions/{id}/travel-rule: the originator's Travel Rule data of a deposit AWAITING_TRAVEL_RULE,
   * after which it is credited (or held for compliance review when the originator may be listed).
   */
  supplyTravelRule(
    id: string,
    params: TravelRuleParams,
    options?: RequestOptions,
  ): Promise<TravelRuleResult> {
    return this.postJson(`/transactions/${segment(id)}/travel-rule`, params, options);
  }

  retrieve(id: string, options?: RequestOptions): Promise<Transaction> {
    return this.getJson(`/transactions/${segment(id)}`, undefined, options);
  }

  list(params?: ListTransactionsParams, options?: RequestOptions) {
    return this.listPages<Transaction>('/transactions', params, options);
  }
}

export class ExchangeRates extends Resource {
  /** POST /exchange-rates: a FLOATING quote, or a LOCKED one to pass as `exchangeRateId`. */
  create(params: CreateExchangeRateParams, options?: RequestOptions): Promise<CreateExchangeRateResult> {
    return this.postJson('/exchange-rates', params, options);
  }

  /** GET /exchange-rates/reference: the mid quotes start from, per pair, with its source and age. */
  reference(params?: ExchangeRateReferenceParams, options?: RequestOptions): Promise<ExchangeRateReference> {
    return this.getJson('/exchange-rates/reference', params, options);
  }
}
