import type { PageRequest } from '../../core/pagination.ts';
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
