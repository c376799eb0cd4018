import { formatNullableAmount } from '../../core/money.ts';
import type { LimitRequestRow } from './repo.ts';

/** A limit request as the API answers it (seed 2.1): every key present, nullables as null. */
export function presentLimitRequest(row: LimitRequestRow) {
  return {
    id: row.id,
    customerId: row.customer_id,
    requested: {
      single: formatNullableAmount(row.requested_single),
      daily: formatNullableAmount(row.requested_daily),
      monthly: formatNullableAmount(row.requested_monthly),
    },
    approved: {
      single: formatNullableAmount(row.approved_single),
      daily: formatNullableAmount(row.approved_daily),
      monthly: formatNullableAmount(row.approved_monthly),
    },
    supportingDocumentType: row.supporting_document_type,
    supportingDocumentId: row.supporting_document_id,
    status: row.status,
    reviewComment: row.review_comment,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export type LimitRequestView = ReturnType<typeof presentLimitRequest>;
