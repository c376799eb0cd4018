import { batchedReads } from '../../db/read-batches.ts';
import type { Executor } from '../../db/types.ts';
import type { Environment, Tenant } from '../../lib/environment.ts';
import type { StatusReason, VerificationStatus } from './state.ts';

export type VerificationRow = {
  id: string;
  customer_id: string;
  project_id: string;
  environment: Environment;
  status: VerificationStatus;
  level: 'STANDARD';
  status_reason: StatusReason;
  created_at: Date;
  updated_at: Date;
  /** set when the verification is an associated party's (customer_id is then the party's customer) */
  associated_party_id?: string | null;
};

const COLUMNS =
  'id, customer_id, project_id, environment, status, level, status_reason, created_at, updated_at';

export async function insertVerification(
  db: Executor,
  row: VerificationRow & { sandbox_due_at: Date | null },
): Promise<void> {
  const party = row.associated_party_id ?? null;
  await db.query(
    `INSERT INTO verifications (${COLUMNS}, sandbox_due_at, associated_party_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
    [
      row.id,
      party === null ? row.customer_id : null,
      row.project_id,
      row.environment,
      row.status,
      row.level,
      JSON.stringify(row.status_reason),
      row.created_at,
      row.updated_at,
      row.sandbox_due_at,
      party,
    ],
  );
}

/**
 * Reads one verification of a customer of the tenant, the customer's own or one of its associated
 * parties' (whose row names its party, not the customer: the party's customer is matched), coalesced
 * with the reads made meanwhile (`read-batches.ts`).
 */
export function verificationReader(
  db: Executor,
): (read: { tenant: Tenant; customerId: string; id: string }) => Promise<VerificationRow | undefined> {
  return batchedReads(db, {
    sql: `SELECT r.read_index::int AS read_index, v.id, coalesce(v.customer_id, p.customer_id) AS customer_id,
                 v.associated_party_id, v.project_id, v.environment, v.status, v.level, v.status_reason,
                 v.created_at, v.updated_at
            FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::text[])
                 WITH ORDINALITY AS r (id, customer_id, project_id, environment, read_index)
            JOIN verifications v
              ON v.id = r.id AND v.project_id = r.project_id AND v.environment = r.environment
            LEFT JOIN associated_parties p ON p.id = v.associated_party_id
           WHERE coalesce(v.customer_id, p.customer_id) = r.customer_id`,
    params: (reads) => [
      reads.map((read) => read.id),
      reads.map((read) => read.customerId),
      reads.map((read) => read.tenant.projectId),
      reads.map((read) => read.tenant.environment),
    ],
  });
}

/** Selects a verification as `v`, its customer_id being its party's customer for a party's verification. */
const OWNED = `SELECT v.id, coalesce(v.customer_id, p.customer_id) AS customer_id, v.associated_party_id,
       v.project_id, v.environment, v.status, v.level, v.status_reason, v.created_at, v.updated_at
  FROM verifications v LEFT JOIN associated_parties p ON p.id = v.associated_party_id`;

/** Locks the verification row for a state change. */
export async function lockVerification(db: Executor, id: string): Promise<VerificationRow | undefined> {
  const rows = await db.query<VerificationRow>(`${OWNED} WHERE v.id = $1 FOR UPDATE OF v`, [id]);
  return rows[0];
}

/** A verification of the tenant by id, a customer's or one of its parties'. */
export async function findOwnedVerification(db: Executor, id: string): Promise<VerificationRow | undefined> {
  const rows = await db.query<VerificationRow>(`${OWNED} WHERE v.id = $1`, [id]);
  return rows[0];
}

export async function updateVerificationStatus(
  db: Executor,
  id: string,
  status: VerificationStatus,
  statusReason: StatusReason,
  at: Date,
): Promise<void> {
  await db.query('UPDATE verifications SET status = $2, status_reason = $3, updated_at = $4 WHERE id = $1', [
    id,
    status,
    JSON.stringify(statusReason),
    at,
  ]);
}

/**
 * Sandbox verifications whose simulated outcome is due, oldest first, with their customer (a party's
 * customer for a party's verification). Read without a lock: each is locked later, after its customer
 * (`lockDueSandboxVerification`), in the order every change to a customer's verifications takes.
 */
export async function findDueSandboxVerifications(
  db: Executor,
  now: Date,
  limit: number,
): Promise<{ id: string; customer_id: string }[]> {
  return db.query(
    `SELECT v.id, coalesce(v.customer_id, p.customer_id) AS customer_id
       FROM verifications v LEFT JOIN associated_parties p ON p.id = v.associated_party_id
      WHERE v.sandbox_due_at IS NOT NULL AND v.sandbox_due_at <= $1
      ORDER BY v.sandbox_due_at
      LIMIT $2`,
    [now, limit],
  );
}

/**
 * Locks the customer row of a sandbox outcome that is due, or answers false when another transaction
 * holds it (a worker on the same customer, a movement of its money): the outcome waits for a later turn.
 */
export async function tryLockSandboxCustomer(db: Executor, customerId: string): Promise<boolean> {
  const rows = await db.query('SELECT id FROM customers WHERE id = $1 FOR NO KEY UPDATE SKIP LOCKED', [
    customerId,
  ]);
  return rows.length > 0;
}

/** Locks a sandbox verification whose outcome is still due (none when another worker has applied it). */
export async function lockDueSandboxVerification(
  db: Executor,
  id: string,
  now: Date,
): Promise<(VerificationRow & { tax_id: string }) | undefined> {
  const rows = await db.query<VerificationRow & { tax_id: string }>(
    `SELECT v.id, coalesce(v.customer_id, p.customer_id) AS customer_id, v.associated_party_id,
            v.project_id, v.environment, v.status, v.level, v.status_reason,
            v.created_at, v.updated_at, coalesce(c.tax_id, p.tax_id) AS tax_id
       FROM verifications v
       LEFT JOIN customers c ON c.id = v.customer_id
       LEFT JOIN associated_parties p ON p.id = v.associated_party_id
      WHERE v.id = $1 AND v.sandbox_due_at IS NOT NULL AND v.sandbox_due_at <= $2
        FOR UPDATE OF v`,
    [id, now],
  );
  return rows[0];
}

export async function clearSandboxDue(db: Executor, id: string): Promise<void> {
  await db.query('UPDATE verifications SET sandbox_due_at = NULL WHERE id = $1', [id]);
}
