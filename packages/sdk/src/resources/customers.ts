import type { RequestOptions, Transport } from '../transport.js';
import type {
  BodyOf,
  CreateCustomerParams,
  CreateLimitRequestParams,
  Customer,
  LimitRequest,
  ListCustomersParams,
  ListLimitRequestsParams,
  ResultOf,
  RetrieveCustomerParams,
  Verification,
  WalletList,
} from '../types.js';
import { AssociatedParties } from './associated-parties.js';
import { Resource, segment } from './base.js';

export type TermsLinkParams = NonNullable<BodyOf<'/customers/{id}/tos', 'post'>>;
export type TermsLink = ResultOf<'/customers/{id}/tos', 'post'>;

export class Customers extends Resource {
  /** The UBOs, shareholders and representatives of a business customer. */
  readonly associatedParties: AssociatedParties;

  constructor(transport: Transport) {
    super(transport);
    this.associatedParties = new AssociatedParties(transport);
  }

  /** POST /customers/{id}/tos: a single-use link, valid 24 hours, where the customer accepts the terms. */
  acceptTermsLink(
    customerId: string,
    params: TermsLinkParams = {},
    options?: RequestOptions,
  ): Promise<TermsLink> {
    return this.postJson(`/customers/${segment(customerId)}/tos`, params, options);
  }

  /** POST /customers: the customer with its verification process and hosted verification link. */
  create(params: CreateCustomerParams, options?: RequestOptions): Promise<Customer> {
    return this.postJson('/customers', params, options);
  }

  retrieve(id: string, params?: RetrieveCustomerParams, options?: RequestOptions): Promise<Customer> {
    return this.getJson(`/customers/${segment(id)}`, params, options);
  }

  list(params?: ListCustomersParams, options?: RequestOptions) {
    return this.listPages<Customer>('/customers', params, options);
  }
}

export class Verifications extends Resource {
  retrieve(customerId: string, id: string, options?: RequestOptions): Promise<Verification> {
    return this.getJson(`/customers/${segment(customerId)}/verifications/${segment(id)}`, undefined, options);
  }

  /** POST .../submit: the documents uploaded through the API go to review (the customer's or a party's). */
  submit(customerId: string, id: string, options?: RequestOptions): Promise<Verification> {
    return this.postJson(
      `/customers/${segment(customerId)}/verifications/${segment(id)}/submit`,
      undefined, // the operation takes no body
      options,
    );
  }
}

export class LimitRequests extends Resource {
  create(
    customerId: string,
    params: CreateLimitRequestParams,
    options?: RequestOptions,
  ): Promise<LimitRequest> {
    return this.postJson(`/customers/${segment(customerId)}/limit-requests`, params, options);
  }

  retrieve(customerId: string, id: string, options?: RequestOptions): Promise<LimitRequest> {
    return this.getJson(
      `/customers/${segment(customerId)}/limit-requests/${segment(id)}`,
      undefined,
      options,
    );
  }

  list(customerId: string, params?: ListLimitRequestsParams, options?: RequestOptions) {
    return this.listPages<LimitRequest>(`/customers/${segment(customerId)}/limit-requests`, params, options);
  }
}

export class Wallets extends Resource {
  /** GET /customers/{id}/wallets: one wallet per supported blockchain. */
  list(customerId: string, options?: RequestOptions): Promise<WalletList> {
    return this.getJson<WalletList>(`/customers/${segment(customerId)}/wallets`, undefined, options);
  }
}
