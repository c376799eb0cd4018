/** Limit requests as operators see them: across tenants, with their customer. SQL only. */

import { type QueueFilter, queueWhere } from '../../core/queue-filter.ts';
import type { Executor } from '../../db/types.ts';
import type { CustomerType } from '../customers/service.ts';
import type { LimitRequestRow } from './repo.ts';

export type OperatorLimitRequestRow = LimitRequestRow & {
  customer_type: CustomerType;
  customer_name: string;
};

const SELECT = `SELECT r.id, r.customer_id, r.project_id, r.environment, r.requested_single, r.requested_daily,
       r.requested_monthly, r.approved_single, r.approved_daily, r.approved_monthly,
       r.supporting_document_type, r.supporting_document_id, r.status, r.review_comment,
       r.created_at, r.updated_at, c.type AS customer_type, c.name AS customer_name
  FROM limit_requests r JOIN customers c ON c.id = r.customer_id`;

/** Requests in a status, oldest first: the order compliance works through them. */
export async function listLimitRequestQueue(
  db: Executor,
  filter: QueueFilter,
  limit: number,
  offset: number,
): Promise<{ rows: OperatorLimitRequestRow[]; total: number }> {
  const { where, params } = queueWhere('r', 'status', filter);
  const [rows, count] = await Promise.all([
    db.query<OperatorLimitRequestRow>(
      `${SELECT} WHERE ${where} ORDER BY r.created_at ASC, r.id ASC
        LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, limit, offset],
    ),
    db.query<{ n: bigint }>(`SELECT count(*) AS n FROM limit_requests r WHERE ${where}`, params),
  ]);
  return { rows, total: Number(count[0]!.n) };
}

export async function findOperatorLimitRequest(
  db: Executor,
  id: string,
): Promise<OperatorLimitRequestRow | undefined> {
  const rows = await db.query<OperatorLimitRequestRow>(`${SELECT} WHERE r.id = $1`, [id]);
  return rows[0];
}
