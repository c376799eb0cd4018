/** Verifications as operators see them: across tenants, with their customer. SQL only. */

import { type QueueFilter, queueWhere } from '../../core/queue-filter.ts';
import type { Executor } from '../../db/types.ts';
import type { CustomerType } from '../customers/service.ts';
import type { VerificationRow } from '../verifications/service.ts';

export type OperatorVerificationRow = VerificationRow & {
  party_name: string | null;
  party_role: string | null;
  party_type: string | null;
  review_approved: boolean;
  customer_type: CustomerType;
  customer_name: string;
  customer_tax_id: string;
  customer_country: string;
  customer_email: string;
};

const SELECT = `SELECT v.id, coalesce(v.customer_id, ap.customer_id) AS customer_id, v.associated_party_id,
       v.project_id, v.environment, v.status, v.level, v.status_reason,
       v.created_at, v.updated_at, c.type AS customer_type, c.name AS customer_name,
       c.tax_id AS customer_tax_id, c.country AS customer_country, c.email AS customer_email,
       ap.name AS party_name, ap.role AS party_role, ap.type AS party_type,
       v.review_approved_at IS NOT NULL AS review_approved
  FROM verifications v
  LEFT JOIN associated_parties ap ON ap.id = v.associated_party_id
  JOIN customers c ON c.id = coalesce(v.customer_id, ap.customer_id)`;

/** Verifications in a status, the longest waiting first (they entered it at `updated_at`). */
export async function listVerificationQueue(
  db: Executor,
  filter: QueueFilter,
  limit: number,
  offset: number,
): Promise<{ rows: OperatorVerificationRow[]; total: number }> {
  const { where, params } = queueWhere('v', 'status', filter);
  const [rows, count] = await Promise.all([
    db.query<OperatorVerificationRow>(
      `${SELECT} WHERE ${where} ORDER BY v.updated_at ASC, v.id ASC
        LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, limit, offset],
    ),
    db.query<{ n: bigint }>(`SELECT count(*) AS n FROM verifications v WHERE ${where}`, params),
  ]);
  return { rows, total: Number(count[0]!.n) };
}

export async function findOperatorVerification(
  db: Executor,
  id: string,
): Promise<OperatorVerificationRow | undefined> {
  const rows = await db.query<OperatorVerificationRow>(`${SELECT} WHERE v.id = $1`, [id]);
  return rows[0];
}
