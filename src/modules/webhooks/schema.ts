import { Type } from 'typebox';
import { DateTime, ListQuery, Nullable, StringEnum, Uuid } from '../../http/schemas.ts';
import { EVENT_TYPES } from '../events/outbox.ts';

export const EventTypeSchema = StringEnum(EVENT_TYPES);
export const ENDPOINT_STATUSES = ['ENABLED', 'DISABLED'] as const;
export const DELIVERY_STATUSES = ['PENDING', 'DELIVERED', 'FAILED'] as const;

export const CreateEndpointBody = Type.Object(
  {
    url: Type.String({
      minLength: 1,
      maxLength: 2048,
      description:
        'Where events are POSTed: an https (or http) URL without credentials. Production refuses hosts ' +
        'that resolve to private, loopback or link-local addresses.',
      examples: ['https://partner.example/ponte/webhooks'],
    }),
    events: Type.Optional(
      Type.Array(EventTypeSchema, {
        minItems: 1,
        description: 'Event types to receive; omitted: every type, including types added later',
      }),
    ),
  },
  { additionalProperties: false },
);

const endpointProperties = {
  id: Uuid(),
  url: Type.String(),
  events: Nullable(
    Type.Array(EventTypeSchema, { description: 'Event types delivered; null: every event type' }),
  ),
  status: StringEnum(ENDPOINT_STATUSES, {
    description: 'DISABLED once every delivery has failed for the configured period (3 days by default)',
  }),
  disabledReason: Nullable(Type.String()),
  previousSecretExpiresAt: Nullable(
    DateTime(
      'When the signing secret replaced by the latest rotation stops (or stopped) signing deliveries ' +
        'alongside the current one; null if the secret was never rotated',
    ),
  ),
  createdAt: DateTime(),
  updatedAt: DateTime(),
};

export const WebhookEndpointSchema = Type.Object(endpointProperties, { $id: 'WebhookEndpoint' });

export const CreatedEndpointSchema = Type.Object({
  ...endpointProperties,
  secret: Type.String({
    description:
      'Signing secret (Standard Webhooks, whsec_...). Shown only in this answer; verify every delivery with it.',
  }),
});

/** How long a rotated-out signing secret keeps signing by default, and at most. */
export const DEFAULT_SECRET_OVERLAP_SECONDS = 24 * 3600;
export const MAX_SECRET_OVERLAP_SECONDS = 7 * 24 * 3600;

export const RotateSecretBody = Type.Object(
  {
    expiresIn: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: MAX_SECRET_OVERLAP_SECONDS,
        description:
          'Seconds during which the current secret keeps signing every delivery next to the new one ' +
          `(default ${DEFAULT_SECRET_OVERLAP_SECONDS}, one day; at most ${MAX_SECRET_OVERLAP_SECONDS}, seven days; ` +
          '0 retires it at once)',
        examples: [DEFAULT_SECRET_OVERLAP_SECONDS],
      }),
    ),
  },
  { additionalProperties: false },
);

export const RotatedSecretSchema = Type.Object({
  ...endpointProperties,
  secret: Type.String({
    description:
      'The new signing secret (Standard Webhooks, whsec_...). Shown only in this answer. Until ' +
      'previousSecretExpiresAt every delivery carries a signature from each secret in webhook-signature.',
  }),
});

export const AttemptSchema = Type.Object({
  at: DateTime('When the attempt started'),
  statusCode: Nullable(Type.Integer({ description: 'HTTP status answered; null when none arrived' })),
  latencyMs: Type.Integer(),
  error: Nullable(Type.String({ description: 'Why no HTTP answer arrived, or why the call was refused' })),
});

export const WebhookDeliverySchema = Type.Object(
  {
    id: Uuid(),
    endpointId: Uuid(),
    eventId: Uuid('Also the webhook-id header, the same on every redelivery'),
    eventType: EventTypeSchema,
    status: StringEnum(DELIVERY_STATUSES),
    attempts: Type.Array(AttemptSchema, { description: 'Every attempt, oldest first' }),
    nextAttemptAt: Nullable(DateTime('When the next attempt is due; null once delivered or failed')),
    createdAt: DateTime(),
    updatedAt: DateTime(),
  },
  { $id: 'WebhookDelivery' },
);

export const EndpointParams = Type.Object(
  { id: Uuid('Webhook endpoint identifier') },
  { additionalProperties: false },
);

export const DeliveryParams = Type.Object(
  { id: Uuid('Webhook endpoint identifier'), deliveryId: Uuid('Delivery identifier') },
  { additionalProperties: false },
);

export const ListEndpointsQuery = Type.Object(ListQuery, { additionalProperties: false });

export const ListDeliveriesQuery = Type.Object(
  { ...ListQuery, status: Type.Optional(StringEnum(DELIVERY_STATUSES)) },
  { additionalProperties: false },
);
