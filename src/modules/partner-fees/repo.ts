import { readFact } from '../../db/one-statement.ts';
import type { Executor } from '../../db/types.ts';

import { type FeeTransactionType, NO_PARTNER_FEE, type PartnerFeeTerms } from './terms.ts';

export type PartnerFeeRow = {
  project_id: string;
  transaction_type: FeeTransactionType;
  basis_points: number;
  flat: bigint;
  set_by: string;
  updated_at: Date;
};

const COLUMNS = 'project_id, transaction_type, basis_points, flat, set_by, updated_at';

export async function upsertPartnerFee(db: Executor, row: PartnerFeeRow): Promise<void> {
  await db.query(
    `INSERT INTO partner_fees (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (project_id, transaction_type)
     DO UPDATE SET basis_points = $3, flat = $4, set_by = $5, updated_at = $6`,
    [row.project_id, row.transaction_type, row.basis_points, row.flat, row.set_by, row.updated_at],
  );
}

export async function findPartnerFee(
  db: Executor,
  projectId: string,
  type: FeeTransactionType,
): Promise<PartnerFeeRow | undefined> {
  const rows = await db.query<PartnerFeeRow>(
    `SELECT ${COLUMNS} FROM partner_fees WHERE project_id = $1 AND transaction_type = $2`,
    [projectId, type],
  );
  return rows[0];
}

export async function listPartnerFees(db: Executor, projectId: string): Promise<PartnerFeeRow[]> {
  return db.query<PartnerFeeRow>(
    `SELECT ${COLUMNS} FROM partner_fees WHERE project_id = $1 ORDER BY transaction_type`,
    [projectId],
  );
}

type TermsColumns = { partner_fee_bps: number | null; partner_fee_flat: bigint | null };

/** The partner's terms of a project for a type (none set: no partner fee), as a fact of a combined read. */
export const partnerFeeFact = readFact({
  text: `SELECT basis_points AS partner_fee_bps, flat AS partner_fee_flat FROM partner_fees
          WHERE project_id = $1 AND transaction_type = $2`,
  types: ['uuid', 'text'],
  params: (read: { projectId: string; type: FeeTransactionType }) => [read.projectId, read.type],
  decode: (row: Partial<TermsColumns>): PartnerFeeTerms =>
    row.partner_fee_bps === null || row.partner_fee_bps === undefined
      ? NO_PARTNER_FEE
      : { basisPoints: row.partner_fee_bps, flat: row.partner_fee_flat! },
});
