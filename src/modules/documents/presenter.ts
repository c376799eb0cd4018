import type { DocumentRow } from './repo.ts';

/** A document as a partner sees it. */
export function presentDocument(row: DocumentRow) {
  return {
    id: row.id,
    type: row.type,
    fileName: row.file_name,
    size: row.size,
    ...(row.side ? { side: row.side } : {}),
    ...(row.associated_party_id ? { associatedPartyId: row.associated_party_id } : {}),
    createdAt: row.created_at.toISOString(),
  };
}

export type DocumentView = ReturnType<typeof presentDocument>;

/** A document as an operator sees it: where it came from and what it is. */
export function presentOperatorDocument(row: DocumentRow) {
  return {
    ...presentDocument(row),
    customerId: row.customer_id,
    projectId: row.project_id,
    environment: row.environment,
    source: row.source,
    verificationId: row.verification_id,
    contentType: row.content_type,
    sha256: row.sha256,
  };
}

export type OperatorDocumentView = ReturnType<typeof presentOperatorDocument>;
