import type { components } from '../generated/openapi.js';
import type { RequestOptions } from '../transport.js';
import type { BodyOf, QueryOf } from '../types.js';
import { Resource, segment } from './base.js';

export type Account = components['schemas']['Account'];
export type CreateAccountParams = BodyOf<'/customers/{id}/accounts', 'post'>;
export type ListAccountsParams = QueryOf<'/customers/{id}/accounts', 'get'>;

/** `ponte.accounts`: customers' USD accounts, each a US account number for ACH credits and wires. */
export class Accounts extends Resource {
  /** POST /customers/{id}/accounts: ACTIVE with its deposit instructions once the bank opened the number. */
  create(customerId: string, params: CreateAccountParams, options?: RequestOptions): Promise<Account> {
    return this.postJson(`/customers/${segment(customerId)}/accounts`, params, options);
  }

  list(customerId: string, params?: ListAccountsParams, options?: RequestOptions) {
    return this.listPages<Account>(`/customers/${segment(customerId)}/accounts`, params, options);
  }

  retrieve(id: string, options?: RequestOptions): Promise<Account> {
    return this.getJson(`/accounts/${segment(id)}`, undefined, options);
  }

  /** DELETE /accounts/{id}: the account becomes CLOSED (its number disabled) and is answered as it is. */
  close(id: string, options?: RequestOptions): Promise<Account> {
    return this.transport.request<Account>({ method: 'DELETE', path: `/accounts/${segment(id)}`, options });
  }
}
