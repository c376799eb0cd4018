import type { PageRequest } from '../../core/pagination.ts';
import { pageWindow } from '../../db/page-query.ts';
import type { Executor } from '../../db/types.ts';
import type { Environment, Tenant } from '../../lib/environment.ts';
import type { ContentType, DocumentSide, DocumentSource, DocumentType } from './kinds.ts';

export type DocumentRow = {
  id: string;
  customer_id: string;
  project_id: string;
  environment: Environment;
  source: DocumentSource;
  verification_id: string | null;
  type: DocumentType;
  file_name: string;
  content_type: ContentType;
  size: number;
  sha256: string;
  created_at: Date;
  /** whose document it is when it is an associated party's */
  associated_party_id?: string | null;
  side?: DocumentSide | null;
};

const COLUMNS = `id, customer_id, project_id, environment, source, verification_id, type, file_name,
  content_type, size, sha256, created_at, associated_party_id, side`;

export async function insertDocument(db: Executor, row: DocumentRow & { content: Buffer }): Promise<void> {
  await db.query(
    `INSERT INTO documents (${COLUMNS}, content)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
    [
      row.id,
      row.customer_id,
      row.project_id,
      row.environment,
      row.source,
      row.verification_id,
      row.type,
      row.file_name,
      row.content_type,
      row.size,
      row.sha256,
      row.created_at,
      row.associated_party_id ?? null,
      row.side ?? null,
      row.content,
    ],
  );
}

/** A partner-uploaded document of one customer of the tenant. */
export async function findPartnerDocument(
  db: Executor,
  tenant: Tenant,
  customerId: string,
  id: string,
): Promise<DocumentRow | undefined> {
  const rows = await db.query<DocumentRow>(
    `SELECT ${COLUMNS} FROM documents
      WHERE id = $1 AND customer_id = $2 AND project_id = $3 AND environment = $4 AND source = 'API'`,
    [id, customerId, tenant.projectId, tenant.environment],
  );
  return rows[0];
}

export async function listPartnerDocuments(
  db: Executor,
  tenant: Tenant,
  customerId: string,
  page: PageRequest,
): Promise<{ rows: DocumentRow[]; total: number }> {
  const where = `customer_id = $1 AND project_id = $2 AND environment = $3 AND source = 'API'`;
  const params = [customerId, tenant.projectId, tenant.environment];
  const window = pageWindow(page, '', params.length);
  const [rows, count] = await Promise.all([
    db.query<DocumentRow>(
      `SELECT ${COLUMNS} FROM documents WHERE ${where}${window.and}
        ORDER BY created_at DESC, id DESC ${window.tail}`,
      [...params, ...window.params],
    ),
    db.query<{ n: bigint }>(`SELECT count(*) AS n FROM documents WHERE ${where}`, params),
  ]);
  return { rows, total: Number(count[0]!.n) };
}

/** Any document, across tenants (operators). */
export async function findDocument(db: Executor, id: string): Promise<DocumentRow | undefined> {
  const rows = await db.query<DocumentRow>(`SELECT ${COLUMNS} FROM documents WHERE id = $1`, [id]);
  return rows[0];
}

/** The stored bytes of a document. */
export async function readDocumentContent(db: Executor, id: string): Promise<Buffer | undefined> {
  const rows = await db.query<{ content: Uint8Array }>('SELECT content FROM documents WHERE id = $1', [id]);
  const content = rows[0]?.content;
  // node-postgres answers a Buffer, PGlite a Uint8Array: one type for callers.
  return content === undefined
    ? undefined
    : Buffer.from(content.buffer, content.byteOffset, content.byteLength);
}

/** The documents submitted for a verification, newest first. */
export async function listVerificationDocuments(
  db: Executor,
  verificationId: string,
): Promise<DocumentRow[]> {
  return db.query<DocumentRow>(
    `SELECT ${COLUMNS} FROM documents WHERE verification_id = $1 ORDER BY created_at DESC, id DESC`,
    [verificationId],
  );
}

/**
 * Attaches the API documents waiting for an owner's submission (a customer's, or one party's) to the
 * verification being submitted; returns how many.
 */
export async function attachPendingDocuments(
  db: Executor,
  customerId: string,
  associatedPartyId: string | null,
  verificationId: string,
  types: readonly string[],
): Promise<number> {
  const rows = await db.query<{ id: string }>(
    `UPDATE documents SET verification_id = $3
      WHERE customer_id = $1 AND associated_party_id IS NOT DISTINCT FROM $2 AND verification_id IS NULL
        AND source = 'API' AND type = ANY($4::text[])
      RETURNING id`,
    [customerId, associatedPartyId, verificationId, types],
  );
  return rows.length;
}

/** Whether `partyId` is a (not deleted) associated party of the customer. */
export async function partyOfCustomer(db: Executor, customerId: string, partyId: string): Promise<boolean> {
  const rows = await db.query<{ id: string }>(
    'SELECT id FROM associated_parties WHERE id = $1 AND customer_id = $2 AND deleted_at IS NULL',
    [partyId, customerId],
  );
  return rows.length > 0;
}

/** Every document of a customer's associated parties, newest first. */
export async function listPartyDocuments(db: Executor, customerId: string): Promise<DocumentRow[]> {
  return db.query<DocumentRow>(
    `SELECT ${COLUMNS} FROM documents WHERE customer_id = $1 AND associated_party_id IS NOT NULL
      ORDER BY created_at DESC, id DESC`,
    [customerId],
  );
}
