/** The kinds of event partners can subscribe to; each reports one resource as the API answers it. */
export const EVENT_TYPES = [
  'customer.created',
  'customer.verification.updated',
  'customer.screening.updated',
  'limit_request.created',
  'limit_request.reviewed',
  'bank_account.created',
  'bank_account.updated',
  'transaction.created',
  'transaction.updated',
  'customer.updated',
  'associated_party.created',
  'associated_party.verification.updated',
  'account.updated',
  /** Sent on request to one endpoint only, to check that it receives and verifies deliveries. */
  'webhook_endpoint.test',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];
