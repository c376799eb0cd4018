import type { Executor } from '../../db/types.ts';
import type { Environment, Tenant } from '../../lib/environment.ts';
import type { PartyRole, PartyType } from '../verifications/kyb-rules.ts';
import type { VerificationStatus } from '../verifications/state.ts';

export type Address = { line1: string; city: string; state: string; postalCode: string; country: string };

export type PartyRow = {
  id: string;
  customer_id: string;
  project_id: string;
  environment: Environment;
  type: PartyType;
  role: PartyRole;
  name: string;
  tax_id: string;
  birth_date: string | null;
  incorporation_date: string | null;
  email: string;
  address: Address;
  /** hundredths of a percent */
  ownership: number | null;
  parent_id: string | null;
  created_at: Date;
  updated_at: Date;
};

export type PartyWithVerification = PartyRow & {
  verification_id: string | null;
  verification_status: VerificationStatus | null;
};

const SELECT = `SELECT p.id, p.customer_id, p.project_id, p.environment, p.type, p.role, p.name, p.tax_id,
       p.birth_date, p.incorporation_date, p.email, p.address,
       (p.ownership_percentage * 100)::int AS ownership, p.parent_id, p.created_at, p.updated_at,
       v.id AS verification_id, v.status AS verification_status
  FROM associated_parties p LEFT JOIN verifications v ON v.associated_party_id = p.id`;

export async function insertParty(db: Executor, row: PartyRow): Promise<void> {
  await db.query(
    `INSERT INTO associated_parties (id, customer_id, project_id, environment, type, role, name, tax_id,
       birth_date, incorporation_date, email, address, ownership_percentage, parent_id, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13::numeric / 100, $14, $15, $16)`,
    [
      row.id,
      row.customer_id,
      row.project_id,
      row.environment,
      row.type,
      row.role,
      row.name,
      row.tax_id,
      row.birth_date,
      row.incorporation_date,
      row.email,
      JSON.stringify(row.address),
      row.ownership,
      row.parent_id,
      row.created_at,
      row.updated_at,
    ],
  );
}

const ofTenant = 'p.customer_id = $1 AND p.project_id = $2 AND p.environment = $3 AND p.deleted_at IS NULL';

/** The customer's parties (not deleted), oldest first: the order an ownership tree is drawn in. */
export async function listParties(
  db: Executor,
  tenant: Tenant,
  customerId: string,
): Promise<PartyWithVerification[]> {
  return db.query<PartyWithVerification>(`${SELECT} WHERE ${ofTenant} ORDER BY p.created_at, p.id`, [
    customerId,
    tenant.projectId,
    tenant.environment,
  ]);
}

export async function markDeleted(db: Executor, id: string, at: Date): Promise<void> {
  await db.query('UPDATE associated_parties SET deleted_at = $2, updated_at = $2 WHERE id = $1', [id, at]);
}

/** A party of any tenant by id (operators), with its customer's tenant. */
export async function findPartyById(db: Executor, id: string): Promise<PartyWithVerification | undefined> {
  const rows = await db.query<PartyWithVerification>(`${SELECT} WHERE p.id = $1`, [id]);
  return rows[0];
}
