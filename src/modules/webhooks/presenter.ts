import type { EventType } from '../events/outbox.ts';
import { type EventRecord, presentEvent } from '../events/presenter.ts';
import type { AttemptRow, DeliveryRow, EndpointRow } from './repo.ts';

/** An endpoint as the API answers it; the signing secret is never part of it. */
export function presentEndpoint(row: EndpointRow) {
  return {
    id: row.id,
    url: row.url,
    events: row.event_types ? (row.event_types as EventType[]) : null,
    status: row.status,
    disabledReason: row.disabled_reason,
    previousSecretExpiresAt: row.previous_secret_expires_at
      ? row.previous_secret_expires_at.toISOString()
      : null,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export type EndpointView = ReturnType<typeof presentEndpoint>;

export function presentDelivery(row: DeliveryRow, attempts: AttemptRow[]) {
  return {
    id: row.id,
    endpointId: row.endpoint_id,
    eventId: row.event_id,
    eventType: row.event_type as EventType,
    status: row.status,
    attempts: attempts.map((attempt) => ({
      at: attempt.attempted_at.toISOString(),
      statusCode: attempt.status_code,
      latencyMs: attempt.latency_ms,
      error: attempt.error,
    })),
    nextAttemptAt: row.next_attempt_at ? row.next_attempt_at.toISOString() : null,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export type DeliveryView = ReturnType<typeof presentDelivery>;

/** The body POSTed to an endpoint: the event as `GET /events/{id}` answers it. */
export function deliveryBody(event: EventRecord): string {
  return JSON.stringify(presentEvent(event));
}
