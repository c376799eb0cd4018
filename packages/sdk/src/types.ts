/**
 * The API's types, taken from the types generated from the API's OpenAPI document (shipped beside this
 * module as `generated/openapi`). Operations the API's contract fixes that a document may not list yet
 * fall back to the contract's shape; once the document lists them, the generated types take over.
 */
import type { components, paths, webhooks } from './generated/openapi.js';

type Schemas = components['schemas'];
type IsNever<T> = [T] extends [never] ? true : false;

/** The operation at `path` and `method` in the document, or never when it does not list it. */
export type Operation<P extends string, M extends string> = P extends keyof paths
  ? M extends keyof paths[P]
    ? NonNullable<paths[P][M]>
    : never
  : never;

type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;

/** The JSON request body of an operation. */
export type BodyOf<P extends string, M extends string, Fallback = never> =
  IsNever<Operation<P, M>> extends true
    ? Fallback
    : Operation<P, M> extends { requestBody?: infer R }
      ? Json<NonNullable<R>>
      : Fallback;

/** The JSON answer of an operation (its 200, 201 or 202). */
export type ResultOf<P extends string, M extends string, Fallback = never> =
  IsNever<Operation<P, M>> extends true
    ? Fallback
    : Operation<P, M> extends { responses: infer R }
      ? R extends { 200: infer A }
        ? Json<A>
        : R extends { 201: infer A }
          ? Json<A>
          : R extends { 202: infer A }
            ? Json<A>
            : Fallback
      : Fallback;

/** The query parameters of an operation. */
export type QueryOf<P extends string, M extends string, Fallback = never> =
  IsNever<Operation<P, M>> extends true
    ? Fallback
    : Operation<P, M> extends { parameters: { query?: infer Q } }
      ? NonNullable<Q>
      : Fallback;

/** A named schema of the document, or the fallback while the document has none by that name. */
export type SchemaOr<Name extends string, Fallback> = Name extends keyof Schemas ? Schemas[Name] : Fallback;

export type Problem = Schemas['Problem'];
export type ErrorCode = Problem['code'];
export type Customer = Schemas['Customer'];
export type Verification = Schemas['Verification'];
export type LimitRequest = Schemas['LimitRequest'];
export type BankAccount = Schemas['BankAccount'];
export type Transaction = Schemas['Transaction'];
export type WebhookEndpoint = Schemas['WebhookEndpoint'];
export type WebhookDelivery = Schemas['WebhookDelivery'];

type Currency = 'BRL' | 'USDC' | 'USDT';
type Fees = { platform: { amount: string; currency: string }; partner: { amount: string; currency: string } };

/** A quote between BRL and a stablecoin (the API reference, "exchange-rates"). */
export type ExchangeRate = SchemaOr<
  'ExchangeRate',
  {
    id: string;
    type: 'FLOATING' | 'LOCKED';
    sourceCurrency: Currency;
    sourceAmount: string;
    targetCurrency: Currency;
    targetAmount: string;
    rate: string;
    baseRate: string;
    fees: Fees;
    expiresAt: string | null;
    createdAt: string;
  }
>;

/** A wallet of a customer on one blockchain, with its balances. */
export type Wallet = SchemaOr<
  'Wallet',
  {
    blockchain: 'ETHEREUM' | 'POLYGON' | 'BASE' | 'TRON';
    address: string;
    blockExplorerUrl: string;
    isDefault: boolean;
    balances: { currency: 'USDC' | 'USDT'; amount: string; updatedAt: string }[];
  }
>;

export type CreateCustomerParams = BodyOf<'/customers', 'post'>;
export type RetrieveCustomerParams = QueryOf<'/customers/{id}', 'get'>;
export type ListCustomersParams = QueryOf<'/customers', 'get'>;
export type CreateLimitRequestParams = BodyOf<'/customers/{id}/limit-requests', 'post'>;
export type ListLimitRequestsParams = QueryOf<'/customers/{id}/limit-requests', 'get'>;
export type CreateBankAccountParams = BodyOf<'/bank-accounts', 'post'>;

/** Where a bank account pays: a PIX key (rail PIX), or a US bank account (rails ACH and WIRE). */
export type BankAccountIdentifier = BankAccount['identifier'];
export type PixKeyIdentifier = Extract<BankAccountIdentifier, { keyType: unknown }>;
export type UsBankAccountIdentifier = Extract<BankAccountIdentifier, { routingNumber: unknown }>;

type BankAccountBody = Omit<CreateBankAccountParams, 'rail' | 'currency' | 'identifier' | 'holder'>;
type HolderBody = CreateBankAccountParams['holder'];

/** The body of a PIX account, paid in BRL: its key, and the holder's CPF or CNPJ. */
export type CreatePixBankAccountParams = BankAccountBody & {
  rail: 'PIX';
  currency: 'BRL';
  identifier: Pick<PixKeyIdentifier, 'keyType'> & { keyValue: string };
  holder: HolderBody & { taxId: string };
};

/** The body of a US bank account paid in USD over ACH or wire; the holder's taxId is optional. */
export type CreateUsBankAccountParams = BankAccountBody & {
  rail: 'ACH' | 'WIRE';
  currency: 'USD';
  identifier: UsBankAccountIdentifier;
  holder: HolderBody;
};
export type ListBankAccountsParams = QueryOf<'/bank-accounts', 'get'>;
export type OnRampParams = BodyOf<'/transactions/on-ramp', 'post'>;
export type ListTransactionsParams = QueryOf<'/transactions', 'get'>;
export type CreateWebhookEndpointParams = BodyOf<'/webhook-endpoints', 'post'>;
export type CreatedWebhookEndpoint = ResultOf<'/webhook-endpoints', 'post'>;
export type ListWebhookEndpointsParams = QueryOf<'/webhook-endpoints', 'get'>;
export type RotateWebhookSecretParams = BodyOf<'/webhook-endpoints/{id}/rotate-secret', 'post'>;
export type RotatedWebhookSecret = ResultOf<'/webhook-endpoints/{id}/rotate-secret', 'post'>;
export type ListWebhookDeliveriesParams = QueryOf<'/webhook-endpoints/{id}/deliveries', 'get'>;
export type SimulateVerificationParams = BodyOf<'/sandbox/customers/{id}/verification', 'post'>;
export type SimulateDepositParams = BodyOf<'/sandbox/transactions/{id}/deposit', 'post'>;
export type Balances = ResultOf<'/customers/{id}/balances', 'get'>;
export type Document = SchemaOr<
  'Document',
  { id: string; type: string; fileName: string; size: number; createdAt: string }
>;
export type ListDocumentsParams = QueryOf<'/customers/{id}/documents', 'get'>;
export type RetryDeliveryResult = ResultOf<'/webhook-endpoints/{id}/deliveries/{deliveryId}/retry', 'post'>;
export type SimulateReturnParams = BodyOf<'/sandbox/transactions/{id}/return', 'post'>;
export type SimulateAccountDepositParams = BodyOf<'/sandbox/accounts/{id}/deposit', 'post'>;
export type SimulateAccountDepositResult = ResultOf<'/sandbox/accounts/{id}/deposit', 'post'>;
export type SimulateWalletDepositParams = BodyOf<'/sandbox/wallets/{address}/deposit', 'post'>;
export type SimulateWalletDepositResult = ResultOf<'/sandbox/wallets/{address}/deposit', 'post'>;
export type Event = SchemaOr<
  'Event',
  {
    eventId: string;
    eventType: string;
    createdAt: string;
    environment: 'sandbox' | 'production';
    apiVersion: string;
    data: Record<string, unknown>;
  }
>;
export type ListEventsParams = QueryOf<'/events', 'get'>;

type Purpose =
  | 'PERSONAL_ACCOUNT'
  | 'INVESTMENT'
  | 'REAL_ESTATE'
  | 'TRADE_TRANSACTIONS'
  | 'TAX'
  | 'LOAN'
  | 'BILLS'
  | 'EXPENSES_REIMBURSEMENT'
  | 'PROFESSIONAL_SERVICES';

/** An off-ramp: an amount in the source currency, or a locked exchange rate. */
export type OffRampParams = BodyOf<
  '/transactions/off-ramp',
  'post',
  {
    customerId: string;
    bankAccountId: string;
    sourceCurrency?: Currency;
    sourceAmount?: string;
    exchangeRateId?: string;
    purpose: Purpose;
    memo?: string;
    metadata?: Record<string, string>;
  }
>;

/** A stablecoin transfer to another customer or to an address of the chain. */
export type TransferParams = BodyOf<
  '/transactions/transfer',
  'post',
  {
    currency: 'USDC' | 'USDT';
    from: string;
    to: string;
    amount: string;
    blockchain?: 'ETHEREUM' | 'POLYGON' | 'BASE' | 'TRON';
    metadata?: Record<string, string>;
  }
>;

export type RefundParams = BodyOf<'/transactions/{id}/refund', 'post', Record<string, never>>;

/** The originator of a deposit AWAITING_TRAVEL_RULE. */
export type TravelRuleParams = BodyOf<
  '/transactions/{id}/travel-rule',
  'post',
  {
    originator: {
      name: string;
      type?: 'INDIVIDUAL' | 'BUSINESS';
      country?: string;
      birthDate?: string;
      nationalIdentifier?: string;
    };
    walletType: 'SELF_HOSTED' | 'HOSTED';
    vasp?: { name: string; lei?: string };
  }
>;

/** A quote: exactly one of sourceAmount and targetAmount. */
export type CreateExchangeRateParams = BodyOf<
  '/exchange-rates',
  'post',
  {
    type: 'FLOATING' | 'LOCKED';
    sourceCurrency: Currency;
    targetCurrency: Currency;
    sourceAmount?: string;
    targetAmount?: string;
    timeLock?: '30s' | '1m' | '5m';
  }
>;

export type OffRampResult = ResultOf<'/transactions/off-ramp', 'post', Transaction>;
export type TransferResult = ResultOf<'/transactions/transfer', 'post', Transaction>;
export type RefundResult = ResultOf<'/transactions/{id}/refund', 'post', Transaction>;
export type TravelRuleResult = ResultOf<'/transactions/{id}/travel-rule', 'post', Transaction>;
export type CreateExchangeRateResult = ResultOf<'/exchange-rates', 'post', ExchangeRate>;
/** The market reference per pair (`pair` to ask for one). */
export type ExchangeRateReferenceParams = QueryOf<'/exchange-rates/reference', 'get', { pair?: string }>;
export type ExchangeRateReference = ResultOf<'/exchange-rates/reference', 'get', unknown>;
export type WalletList = ResultOf<'/customers/{id}/wallets', 'get', { data: Wallet[] }>;

/** Every event a webhook endpoint may receive, discriminated by `eventType`. */
export type WebhookEvent = {
  [K in keyof webhooks]: Json<NonNullable<webhooks[K]['post']>['requestBody']>;
}[keyof webhooks];

export type WebhookEventType = WebhookEvent['eventType'];
