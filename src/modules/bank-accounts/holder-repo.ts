/** Bank accounts as operators see them, for screening their holders: across tenants. SQL only. */

import { type QueueFilter, queueWhere } from '../../core/queue-filter.ts';
import type { Executor } from '../../db/types.ts';
import type { HolderStatus } from './holder-state.ts';
import type { BankAccountRow } from './repo.ts';

const COLUMNS = `b.id, b.customer_id, b.project_id, b.environment, b.name, b.type, b.rail, b.currency, b.key_type,
  b.key_value, b.routing_number, b.account_number, b.account_type, b.holder_type, b.holder_relationship, b.holder_legal_name, b.holder_tax_id,
  b.holder_incorporation_date, b.holder_email, b.holder_address, b.holder_verification_status,
  b.holder_verification_level, b.created_at, b.updated_at, b.metadata`;

export type HolderQueueFilter = QueueFilter & { relationship?: string | undefined };

/** Live accounts whose holder is in a verification status, oldest first. */
export async function listHolderQueue(
  db: Executor,
  filter: HolderQueueFilter,
  limit: number,
  offset: number,
): Promise<{ rows: BankAccountRow[]; total: number }> {
  const { where, params } = queueWhere('b', 'holder_verification_status', filter, ['b.deleted_at IS NULL']);
  let clause = where;
  if (filter.relationship !== undefined) {
    params.push(filter.relationship);
    clause += ` AND b.holder_relationship = $${params.length}`;
  }
  const [rows, count] = await Promise.all([
    db.query<BankAccountRow>(
      `SELECT ${COLUMNS} FROM bank_accounts b WHERE ${clause} ORDER BY b.created_at ASC, b.id ASC
        LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, limit, offset],
    ),
    db.query<{ n: bigint }>(`SELECT count(*) AS n FROM bank_accounts b WHERE ${clause}`, params),
  ]);
  return { rows, total: Number(count[0]!.n) };
}

/** Locks a live account for a decision on its holder. */
export async function lockLiveBankAccount(db: Executor, id: string): Promise<BankAccountRow | undefined> {
  const rows = await db.query<BankAccountRow>(
    `SELECT ${COLUMNS} FROM bank_accounts b WHERE b.id = $1 AND b.deleted_at IS NULL FOR UPDATE`,
    [id],
  );
  return rows[0];
}

export async function findLiveBankAccount(db: Executor, id: string): Promise<BankAccountRow | undefined> {
  const rows = await db.query<BankAccountRow>(
    `SELECT ${COLUMNS} FROM bank_accounts b WHERE b.id = $1 AND b.deleted_at IS NULL`,
    [id],
  );
  return rows[0];
}

export async function updateHolderVerification(
  db: Executor,
  id: string,
  status: HolderStatus,
  at: Date,
): Promise<BankAccountRow> {
  const rows = await db.query<BankAccountRow>(
    `UPDATE bank_accounts b SET holder_verification_status = $2, updated_at = $3 WHERE b.id = $1
     RETURNING ${COLUMNS}`,
    [id, status, at],
  );
  return rows[0]!;
}
