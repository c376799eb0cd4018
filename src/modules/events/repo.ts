import type { EventType } from '../../core/event-types.ts';
import { newId } from '../../core/ids.ts';
import type { PageRequest } from '../../core/pagination.ts';
import type { WriteFact } from '../../db/one-statement.ts';
import { pageWindow } from '../../db/page-query.ts';
import type { Executor } from '../../db/types.ts';
import type { Tenant } from '../../lib/environment.ts';
import type { EventRecord } from './presenter.ts';

const COLUMNS = 'id, type, environment, data, created_at';

/** One event of the tenant. */
export async function findEvent(db: Executor, tenant: Tenant, id: string): Promise<EventRecord | undefined> {
  const rows = await db.query<EventRecord>(
    `SELECT ${COLUMNS} FROM events WHERE id = $1 AND project_id = $2 AND environment = $3`,
    [id, tenant.projectId, tenant.environment],
  );
  return rows[0];
}

/**
 * A page of the tenant's events, newest first (the index `events_list`, migration 046), of one type or
 * all, and their total. The total is counted (an index-only scan of the tenant's range): the outbox is
 * written with every change, and a count kept per tenant would make every write wait on one row.
 */
export async function listEvents(
  db: Executor,
  tenant: Tenant,
  type: string | undefined,
  page: PageRequest,
): Promise<{ rows: EventRecord[]; total: number }> {
  const params: unknown[] = [tenant.projectId, tenant.environment];
  let where = 'project_id = $1 AND environment = $2';
  if (type !== undefined) {
    params.push(type);
    where += ` AND type = $${params.length}`;
  }
  const window = pageWindow(page, '', params.length);
  const [rows, count] = await Promise.all([
    db.query<EventRecord>(
      `SELECT ${COLUMNS} FROM events WHERE ${where}${window.and} ORDER BY created_at DESC, id DESC ${window.tail}`,
      [...params, ...window.params],
    ),
    db.query<{ n: bigint }>(`SELECT count(*) AS n FROM events WHERE ${where}`, params),
  ]);
  return { rows, total: Number(count[0]!.n) };
}

export type NewEvent = {
  tenant: Tenant;
  type: EventType;
  resourceType: string;
  resourceId: string;
  /** The resource exactly as the API answers it. */
  data: unknown;
  at: Date;
};

/**
 * The INSERT of events, in order (each with its `id`, or a new one), as a part of the statement that
 * writes the changes they report.
 */
export const insertEventsFact: WriteFact<NewEvent & { id?: string }> = {
  text: `INSERT INTO events (id, project_id, environment, type, resource_type, resource_id, data, created_at)
   SELECT e.id, e.project_id, e.environment, e.type, e.resource_type, e.resource_id, e.data, e.created_at
     FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::text[], $6::uuid[], $7::jsonb[],
                 $8::timestamptz[]) WITH ORDINALITY
          AS e(id, project_id, environment, type, resource_type, resource_id, data, created_at, position)
    ORDER BY e.position`,
  params: (events) => {
    const column = <T>(pick: (event: NewEvent & { id?: string }) => T) => events.map(pick);
    return [
      column((event) => event.id ?? newId()),
      column((event) => event.tenant.projectId),
      column((event) => event.tenant.environment),
      column((event) => event.type),
      column((event) => event.resourceType),
      column((event) => event.resourceId),
      column((event) => JSON.stringify(event.data)),
      column((event) => event.at),
    ];
  },
};
