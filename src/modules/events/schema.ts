import { Type } from 'typebox';
import { API_VERSIONS } from '../../core/api-version.ts';
import { EVENT_TYPES } from '../../core/event-types.ts';
import { DateTime, ListQuery, StringEnum, Uuid } from '../../http/schemas.ts';

export const EventSchema = Type.Object(
  {
    eventId: Uuid('Also the webhook-id header of its deliveries'),
    eventType: StringEnum(EVENT_TYPES),
    createdAt: DateTime('When the change happened'),
    environment: StringEnum(['sandbox', 'production'] as const),
    apiVersion: StringEnum(API_VERSIONS, { description: 'The API version that shapes `data`' }),
    data: Type.Record(Type.String(), Type.Unknown(), {
      description: "The resource as the API answered it when the event happened (the webhook body's `data`)",
    }),
  },
  { $id: 'Event', description: 'An event, exactly as webhooks deliver it' },
);

export const ListEventsQuery = Type.Object(
  {
    ...ListQuery,
    type: Type.Optional(StringEnum(EVENT_TYPES, { description: 'Only the events of this type' })),
  },
  { additionalProperties: false },
);
