import type { VerificationRow } from './repo.ts';

/** A verification as the API answers it (seed 2.3 plus id, createdAt, updatedAt). */
export function presentVerification(row: VerificationRow) {
  return {
    id: row.id,
    customerId: row.customer_id,
    ...(row.associated_party_id ? { associatedPartyId: row.associated_party_id } : {}),
    status: row.status,
    level: row.level,
    statusReason: {
      rejectLabels: row.status_reason.rejectLabels ?? [],
      rejectSubLabels: row.status_reason.rejectSubLabels ?? [],
      documents: row.status_reason.documents ?? [],
    },
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export type VerificationView = ReturnType<typeof presentVerification>;
