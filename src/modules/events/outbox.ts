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

export async function recordEvent(db: Executor, event: NewEvent): Promise<string> {
  const id = newId();
  const { text, params } = eventPart(event, id);
  await db.query(text, params);
  return id;
}
