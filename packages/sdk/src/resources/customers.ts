import type { RequestOptions } from '../transport.js';
import type {
  CreateCustomerParams,
  CreateLimitRequestParams,
  Customer,
  LimitRequest,
  ListCustomersParams,
  ListLimitRequestsParams,
  RetrieveCustomerParams,
  Verification,
  WalletList,
} from '../types.js';
import { Resource, segment } from './base.js';

export class Customers extends Resource {
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
