import { DEFAULT_API_VERSION } from '../../core/api-version.ts';
import type { Environment } from '../../lib/environment.ts';

/** An event as the outbox holds it. */
export type EventRecord = {
  id: string;
  type: string;
  environment: Environment;
  created_at: Date;
  data: unknown;
};

/**
 * An event as webhooks carry it and `GET /events` answers it: the envelope around the resource as the
 * API answered it, with its environment and the API version that shapes `data` (every event is
 * recorded under the default version).
 */
export function presentEvent(event: EventRecord) {
  return {
    eventId: event.id,
    eventType: event.type,
    createdAt: event.created_at.toISOString(),
    environment: event.environment,
    apiVersion: DEFAULT_API_VERSION,
    data: event.data,
  };
}

export type EventView = ReturnType<typeof presentEvent>;
