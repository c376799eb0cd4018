import type { components } from '../generated/openapi.js';
import type { RequestOptions } from '../transport.js';
import type { BodyOf, QueryOf } from '../types.js';
import { Resource, segment } from './base.js';

export type AssociatedParty = components['schemas']['AssociatedParty'];
export type CreateAssociatedPartyParams = BodyOf<'/customers/{id}/associated-parties', 'post'>;
export type ListAssociatedPartiesParams = QueryOf<'/customers/{id}/associated-parties', 'get'>;

/** `ponte.customers.associatedParties`: the UBOs, shareholders and representatives of a business customer. */
export class AssociatedParties extends Resource {
  /** POST /customers/{id}/associated-parties: an INDIVIDUAL party comes with its own verification link. */
  create(
    customerId: string,
    params: CreateAssociatedPartyParams,
    options?: RequestOptions,
  ): Promise<AssociatedParty> {
    return this.postJson(`/customers/${segment(customerId)}/associated-parties`, params, options);
  }

  list(customerId: string, params?: ListAssociatedPartiesParams, options?: RequestOptions) {
    return this.listPages<AssociatedParty>(
      `/customers/${segment(customerId)}/associated-parties`,
      params,
      options,
    );
  }

  retrieve(customerId: string, id: string, options?: RequestOptions): Promise<AssociatedParty> {
    return this.getJson(
      `/customers/${segment(customerId)}/associated-parties/${segment(id)}`,
      undefined,
      options,
    );
  }

  /** DELETE: only while the customer is not APPROVED. */
  del(customerId: string, id: string, options?: RequestOptions): Promise<void> {
    return this.deleteResource(
      `/customers/${segment(customerId)}/associated-parties/${segment(id)}`,
      options,
    );
  }
}
