import type { RequestOptions } from '../transport.js';
import type { Balances, Event, ListEventsParams } from '../types.js';
import { Resource, segment } from './base.js';

/** The environment's events, newest first, with the bodies webhooks carry: to recover missed deliveries. */
export class Events extends Resource {
  /** GET /events: every event of the environment (of one `type` when given). */
  list(params?: ListEventsParams, options?: RequestOptions) {
    return this.listPages<Event>('/events', params, options);
  }

  /** GET /events/{id}: one event, as its webhooks carried it. */
  retrieve(id: string, options?: RequestOptions): Promise<Event> {
    return this.getJson(`/events/${segment(id)}`, undefined, options);
  }
}

export class CustomerBalances extends Resource {
  /** GET /customers/{id}/balances: the total per currency over every wallet of the customer. */
  retrieve(customerId: string, options?: RequestOptions): Promise<Balances> {
    return this.getJson(`/customers/${segment(customerId)}/balances`, undefined, options);
  }
}
