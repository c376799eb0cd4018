/**
 * The transactional outbox. A service records the event in the same database transaction as the state
 * change it reports, so an event exists exactly when its change committed. Delivery reads from here.
 */

import type { EventType } from '../../core/event-types.ts';
import { newId } from '../../core/ids.ts';
import type { StatementPart } from '../../db/one-statement.ts';
import type { Executor } from '../../db/types.ts';
import type { Tenant } from '../../lib/environment.ts';

export { EVENT_TYPES, type EventType } from '../../core/event-types.ts';

export type NewEvent = {
  tenant: Tenant;
  type: EventType;
  resourceType: string;
  resourceId: string;
  /** The resource exactly as the API answers it. */
  data: unknown;
  at: Date;
};

/** The INSERT of an event, as a part of the statement that writes the change it reports. */
export function eventPart(event: NewEvent, id: string = newId()): StatementPart {
  return {
    text: `INSERT INTO events (id, project_id, environment, type, resource_type, resource_id, data, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    params: [
      id,
      event.tenant.projectId,
      event.tenant.environment,
      event.type,
      event.resourceType,
      event.resourceId,
      JSON.stringify(event.data),
      event.at,
    ],
  };
}

/** The INSERT of several events, in order, as a part of the statement that writes their changes. */
export function eventsPart(events: readonly NewEvent[]): StatementPart {
  const column = <T>(pick: (event: NewEvent) => T) => events.map(pick);
  return {
    text: `INSERT INTO events (id, project_id, environment, type, resource_type, resource_id, data, created_at)
     SELECT e.id, e.project_id, e.environment, e.type, e.resource_type, e.resource_id, e.data, e.created_at
       FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::text[], $6::uuid[], $7::jsonb[],
                   $8::timestamptz[]) WITH ORDINALITY
            AS e(id, project_id, environment, type, resource_type, resource_id, data, created_at, position)
      ORDER BY e.position`,
    params: [
      column(() => newId()),
      column((event) => event.tenant.projectId),
      column((event) => event.tenant.environment),
      column((event) => event.type),
      column((event) => event.resourceType),
      column((event) => event.resourceId),
      column((event) => JSON.stringify(event.data)),
      column((event) => event.at),
    ],
  };
}

export async function recordEvent(db: Executor, event: NewEvent): Promise<string> {
  const id = newId();
  const { text, params } = eventPart(event, id);
  await db.query(text, params);
  return id;
}
