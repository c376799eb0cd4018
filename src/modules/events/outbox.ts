/**
 * The transactional outbox. A service records the event in the same database transaction as the state
 * change it reports, so an event exists exactly when its change committed. Delivery reads from here.
 */

import { newId } from '../../core/ids.ts';
import type { Executor } from '../../db/types.ts';
import type { Tenant } from '../../lib/environment.ts';

export const EVENT_TYPES = [
  'customer.created',
  'customer.verification.updated',
  'limit_request.created',
  'limit_request.reviewed',
  'bank_account.created',
  'bank_account.updated',
  'transaction.created',
  'transaction.updated',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export type NewEvent = {
  tenant: Tenant;
  type: EventType;
  resourceType: string;
  resourceId: string;
  /** The resource exactly as the API answers it. */
  data: unknown;
  at: Date;
};

export async function recordEvent(db: Executor, event: NewEvent): Promise<string> {
  const id = newId();
  await db.query(
    `INSERT INTO events (id, project_id, environment, type, resource_type, resource_id, data, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      id,
      event.tenant.projectId,
      event.tenant.environment,
      event.type,
      event.resourceType,
      event.resourceId,
      JSON.stringify(event.data),
      event.at,
    ],
  );
  return id;
}
