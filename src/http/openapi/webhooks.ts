/**
 * The `webhooks` section (OpenAPI 3.1): one entry per event type, the envelope POSTed to an endpoint with
 * the resource it reports, and the Standard Webhooks headers that sign it. Typed by EVENT_TYPES, so an
 * event type without a documented payload does not compile.
 */
import { API_VERSIONS } from '../../core/api-version.ts';
import { EVENT_TYPES, type EventType } from '../../core/event-types.ts';

type Json = Record<string, unknown>;

/** The resource each event carries in `data`, exactly as the API answers it, and when it is sent. */
export const EVENT_PAYLOADS: Record<EventType, { schema: string; summary: string }> = {
  'customer.created': { schema: 'Customer', summary: 'A customer was created' },
  'customer.verification.updated': {
    schema: 'Verification',
    summary: "A customer's verification changed status",
  },
  'customer.screening.updated': {
    schema: 'CustomerScreening',
    summary:
      'A customer, a bank account holder or an associated party was put on compliance hold by a possible ' +
      'sanctions match, or an operator cleared or confirmed it',
  },
  'limit_request.created': { schema: 'LimitRequest', summary: 'A limit request was submitted for review' },
  'limit_request.reviewed': { schema: 'LimitRequest', summary: 'Compliance decided a limit request' },
  'bank_account.created': { schema: 'BankAccount', summary: 'A bank account was registered' },
  'bank_account.updated': {
    schema: 'BankAccount',
    summary: "Compliance decided a third-party holder's screening",
  },
  'transaction.created': {
    schema: 'Transaction',
    summary: 'A transaction of any type was created: on-ramp, off-ramp, transfer or deposit',
  },
  'transaction.updated': {
    schema: 'Transaction',
    summary: 'A transaction changed status, refunds and returns included',
  },
  'customer.updated': {
    schema: 'Customer',
    summary:
      "A customer's terms or requirements changed: terms accepted, an associated party added or removed, " +
      'a document uploaded or submitted',
  },
  'associated_party.created': {
    schema: 'AssociatedParty',
    summary: 'An associated party (UBO, shareholder or representative) was added to a business customer',
  },
  'associated_party.verification.updated': {
    schema: 'Verification',
    summary: "An associated party's verification changed status (its associatedPartyId names the party)",
  },
  'account.updated': {
    schema: 'Account',
    summary:
      "A customer's USD account was opened (PROVISIONING), got its account number (ACTIVE) or was closed (CLOSED)",
  },
  'webhook_endpoint.test': {
    schema: 'WebhookEndpoint',
    summary:
      'A test event the partner asked for from the dashboard: sent to that one endpoint only, whatever ' +
      'its event filter, signed and retried like any other, and carrying the endpoint itself',
  },
};

/** `customer.verification.updated` → `CustomerVerificationUpdatedEvent`. */
export const eventSchemaName = (type: string) =>
  `${type
    .split(/[._]/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('')}Event`;

const signatureHeaders = [
  {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description: 'The event id; the same on every redelivery, so receivers can drop duplicates',
    schema: { type: 'string' },
  },
  {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    description: 'Unix seconds when this attempt was signed; refuse values far from your clock',
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description:
      'Space-separated `v1,<base64 HMAC-SHA256>` signatures of `<webhook-id>.<webhook-timestamp>.<body>` ' +
      'under the endpoint secret (Standard Webhooks)',
    schema: { type: 'string' },
  },
];

export function eventSchemas(): Record<string, Json> {
  const schemas: Record<string, Json> = {};
  for (const type of EVENT_TYPES) {
    schemas[eventSchemaName(type)] = {
      type: 'object',
      description: EVENT_PAYLOADS[type].summary,
      required: ['eventId', 'eventType', 'createdAt', 'environment', 'apiVersion', 'data'],
      properties: {
        eventId: { type: 'string', format: 'uuid', description: 'Also the webhook-id header' },
        eventType: { type: 'string', enum: [type] },
        createdAt: { type: 'string', format: 'date-time', description: 'When the change happened' },
        environment: {
          type: 'string',
          enum: ['sandbox', 'production'],
          description: 'The environment the event happened in',
        },
        apiVersion: {
          type: 'string',
          enum: [...API_VERSIONS],
          description: 'The API version that shapes `data`',
        },
        data: { $ref: `#/components/schemas/${EVENT_PAYLOADS[type].schema}` },
      },
      additionalProperties: false,
    };
  }
  return schemas;
}

export function webhooksSection(): Record<string, Json> {
  const webhooks: Record<string, Json> = {};
  for (const type of EVENT_TYPES) {
    webhooks[type] = {
      post: {
        operationId: `on${eventSchemaName(type)}`,
        tags: ['webhooks'],
        summary: EVENT_PAYLOADS[type].summary,
        description:
          `Sent to every enabled endpoint subscribed to \`${type}\`, at least once, in order per resource. ` +
          'Answer any 2xx within the delivery timeout (10 seconds by default); anything else is retried with ' +
          'exponential back-off.',
        security: [],
        parameters: signatureHeaders,
        requestBody: {
          required: true,
          content: {
            'application/json': { schema: { $ref: `#/components/schemas/${eventSchemaName(type)}` } },
          },
        },
        responses: {
          '200': { description: 'Delivered (any 2xx acknowledges it; any other answer is retried)' },
        },
      },
    };
  }
  return webhooks;
}
