/** The facts the KYB rules read: customers, their parties, verifications and waiting documents. SQL only. */
import { combinedFacts, readEach, readFact } from '../../db/one-statement.ts';
import type { Executor } from '../../db/types.ts';
import type { PartyFact, PartyRole, PartyType } from './kyb-rules.ts';
import type { VerificationStatus } from './state.ts';

/**
 * What the KYB rules read of a customer's own row and of its verification's: every customer read answers
 * these columns (src/modules/customers/repo.ts), so they are never read again for its requirements.
 */
export type OwnerColumns = {
  type: PartyType;
  tos_required: boolean;
  tos_accepted_at?: Date | null;
  verification_status: VerificationStatus;
  verification_review_approved: boolean;
  /** the verification's `statusReason.rejectLabels` */
  verification_reject_labels: string[] | null;
};

/** A party as `attachmentFacts` answers it (JSON, in the order the parties were declared). */
type PartyJson = {
  id: string;
  type: PartyType;
  role: PartyRole;
  name: string;
  parentId: string | null;
  ownership: number | null;
  status: VerificationStatus | null;
  reviewApproved: boolean;
  pending: string[];
};

/** The columns of `attachmentFacts`, named apart from those of any fact or row read beside it. */
type AttachmentColumns = { kyb_pending: string[] | null; kyb_parties: PartyJson[] | null };

/** What the KYB rules read beside the customer's own rows: its waiting documents, its parties with theirs. */
export type Attachments = { pendingDocumentTypes: string[]; parties: PartyFact[] };

/**
 * The types of the API documents uploaded for an owner (the customer `$1` itself, or one of its parties)
 * and not yet submitted; repeated types are made one in `decode` (DISTINCT here cost an aggregate per row).
 */
const PENDING = `SELECT d.type FROM documents d
  WHERE d.customer_id = $1 AND d.verification_id IS NULL AND d.source = 'API'`;

/**
 * What a customer (`$1`, its id) has beside its own rows: the documents waiting for its next submission
 * and its parties (only a business has any) with theirs, as one row. It reads no customer or verification
 * row: it joins the statement that reads those (`combinedFacts`, a page's `perRow`), whose columns give
 * the rest (`OwnerColumns`); joining them again here cost two index lookups per customer.
 */
export const attachmentFacts = readFact<string, AttachmentColumns, Attachments>({
  text: `SELECT ARRAY(${PENDING} AND d.associated_party_id IS NULL) AS kyb_pending,
       (SELECT json_agg(json_build_object(
                 'id', p.id, 'type', p.type, 'role', p.role, 'name', p.name, 'parentId', p.parent_id,
                 'ownership', (p.ownership_percentage * 100)::int, 'status', pv.status,
                 'reviewApproved', pv.review_approved_at IS NOT NULL,
                 'pending', ARRAY(${PENDING} AND d.associated_party_id = p.id))
               ORDER BY p.created_at, p.id)
          FROM associated_parties p LEFT JOIN verifications pv ON pv.associated_party_id = p.id
         WHERE p.customer_id = $1 AND p.deleted_at IS NULL) AS kyb_parties`,
  types: ['uuid'],
  params: (customerId) => [customerId],
  decode: (row) => ({
    pendingDocumentTypes: [...new Set(row.kyb_pending ?? [])],
    parties: (row.kyb_parties ?? []).map((party) => ({
      id: party.id,
      type: party.type,
      role: party.role,
      name: party.name,
      parentId: party.parentId,
      ownership: party.ownership,
      verification:
        party.status === null
          ? null
          : {
              status: party.status,
              reviewApproved: party.reviewApproved,
              pendingDocumentTypes: [...new Set(party.pending)],
            },
    })),
  }),
});

/** A customer's own columns (`OwnerColumns`), by id, for the KYB rules' reads outside a customer read. */
const ownerFacts = readFact<string, OwnerColumns, OwnerColumns | undefined>({
  text: `SELECT c.type, c.tos_required, c.tos_accepted_at, v.status AS verification_status,
       v.review_approved_at IS NOT NULL AS verification_review_approved,
       v.status_reason -> 'rejectLabels' AS verification_reject_labels
  FROM customers c JOIN verifications v ON v.customer_id = c.id
 WHERE c.id = $1`,
  types: ['uuid'],
  params: (customerId) => [customerId],
  decode: (row) => (row.type ? (row as OwnerColumns) : undefined),
});

const factsRead = combinedFacts({ owner: ownerFacts, attachments: attachmentFacts });
const attachmentsRead = combinedFacts({ attachments: attachmentFacts });

/** Each customer found among `ids`: its own columns and what it has beside them, in one statement. */
export async function readOwners(
  db: Executor,
  ids: readonly string[],
): Promise<Map<string, { owner: OwnerColumns; attachments: Attachments }>> {
  if (ids.length === 0) return new Map();
  const each = await readEach(
    db,
    factsRead,
    ids.map((id) => ({ owner: id, attachments: id })),
  );
  const owners = new Map<string, { owner: OwnerColumns; attachments: Attachments }>();
  each.forEach(({ owner, attachments }, index) => {
    if (owner) owners.set(ids[index]!, { owner, attachments });
  });
  return owners;
}

/** What each customer among `ids` has beside its own rows, in one statement, in the order of `ids`. */
export async function readAttachments(db: Executor, ids: readonly string[]): Promise<Attachments[]> {
  if (ids.length === 0) return [];
  const each = await readEach(
    db,
    attachmentsRead,
    ids.map((id) => ({ attachments: id })),
  );
  return each.map((answer) => answer.attachments);
}

/** Locks a customer's own verification: every change to the customer's KYB state waits for it. */
export async function lockCustomerVerification(
  db: Executor,
  customerId: string,
): Promise<{ id: string; status: VerificationStatus; review_approved: boolean } | undefined> {
  const rows = await db.query<{ id: string; status: VerificationStatus; review_approved: boolean }>(
    `SELECT id, status, review_approved_at IS NOT NULL AS review_approved
       FROM verifications WHERE customer_id = $1 FOR UPDATE`,
    [customerId],
  );
  return rows[0];
}

export async function setReviewApproved(
  db: Executor,
  verificationId: string,
  at: Date | null,
): Promise<void> {
  await db.query('UPDATE verifications SET review_approved_at = $2 WHERE id = $1', [verificationId, at]);
}

/** Records the customer's acceptance of the terms (the first acceptance stands). */
export async function acceptTerms(tx: Executor, customerId: string, at: Date): Promise<void> {
  await tx.query('UPDATE customers SET tos_accepted_at = coalesce(tos_accepted_at, $2) WHERE id = $1', [
    customerId,
    at,
  ]);
}

/** Whether the customer may enter review: terms accepted, or not asked for (customers from before terms). */
export async function termsSatisfied(db: Executor, customerId: string): Promise<boolean> {
  const rows = await db.query<{ ok: boolean }>(
    'SELECT (NOT tos_required OR tos_accepted_at IS NOT NULL) AS ok FROM customers WHERE id = $1',
    [customerId],
  );
  return rows[0]?.ok === true;
}

/** Whether the reviewer has approved the verification's own documents (it then waits for its parties). */
export async function reviewApproved(db: Executor, verificationId: string): Promise<boolean> {
  const rows = await db.query<{ review_approved: boolean }>(
    'SELECT review_approved_at IS NOT NULL AS review_approved FROM verifications WHERE id = $1',
    [verificationId],
  );
  return rows[0]?.review_approved === true;
}
