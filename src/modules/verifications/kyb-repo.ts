/** The facts the KYB rules read: customers, their parties, verifications and waiting documents. SQL only. */
import { combinedFacts, readEach, readFact } from '../../db/one-statement.ts';
import type { Executor } from '../../db/types.ts';
import type { CustomerFact, PartyFact, PartyRole, PartyType } from './kyb-rules.ts';
import type { VerificationStatus } from './state.ts';

/** The columns of `requirementFacts`, named apart from those of any fact read beside it. */
type FactColumns = {
  kyb_type: PartyType | null;
  kyb_tos_required: boolean;
  kyb_tos_accepted: boolean;
  kyb_status: VerificationStatus;
  kyb_review_approved: boolean;
  kyb_rejected_for_party: boolean | null;
  kyb_pending: string[];
  kyb_parties: PartyJson[] | null;
};

/** A party as `requirementFacts` answers it (JSON, in the order the parties were declared). */
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

export type Facts = { customer: CustomerFact; parties: PartyFact[] };

/**
 * The types of the API documents uploaded for an owner (the customer itself, or one of its parties) and
 * not yet submitted; repeated types are made one in `decode` (DISTINCT here cost an aggregate per row).
 */
const PENDING = `SELECT d.type FROM documents d
  WHERE d.customer_id = c.id AND d.verification_id IS NULL AND d.source = 'API'`;

/**
 * The facts the KYB rules read of one customer (by id; none for an unknown id): its terms, its
 * verification, the documents waiting for its next submission and its parties with theirs (only a
 * business has parties), in one row, so that it is read in the statement that reads the customer
 * (`combinedFacts`, or a page's `perRow`) rather than after it.
 */
export const requirementFacts = readFact<string, FactColumns, Facts | undefined>({
  text: `SELECT c.type AS kyb_type, c.tos_required AS kyb_tos_required,
       c.tos_accepted_at IS NOT NULL AS kyb_tos_accepted, v.status AS kyb_status,
       v.review_approved_at IS NOT NULL AS kyb_review_approved,
       (v.status_reason -> 'rejectLabels') @> '["associated_party_rejected"]'::jsonb AS kyb_rejected_for_party,
       ARRAY(${PENDING} AND d.associated_party_id IS NULL) AS kyb_pending,
       CASE WHEN c.type = 'BUSINESS' THEN (SELECT json_agg(json_build_object(
                 'id', p.id, 'type', p.type, 'role', p.role, 'name', p.name, 'parentId', p.parent_id,
                 'ownership', (p.ownership_percentage * 100)::int, 'status', pv.status,
                 'reviewApproved', pv.review_approved_at IS NOT NULL,
                 'pending', ARRAY(${PENDING} AND d.associated_party_id = p.id))
               ORDER BY p.created_at, p.id)
          FROM associated_parties p LEFT JOIN verifications pv ON pv.associated_party_id = p.id
         WHERE p.customer_id = c.id AND p.deleted_at IS NULL) END AS kyb_parties
  FROM customers c JOIN verifications v ON v.customer_id = c.id
 WHERE c.id = $1`,
  types: ['uuid'],
  params: (customerId) => [customerId],
  decode: (row) => {
    if (row.kyb_type === null || row.kyb_type === undefined) return undefined;
    return {
      customer: {
        type: row.kyb_type,
        tosRequired: row.kyb_tos_required === true,
        tosAccepted: row.kyb_tos_accepted === true,
        verification: {
          status: row.kyb_status!,
          reviewApproved: row.kyb_review_approved === true,
          pendingDocumentTypes: [...new Set(row.kyb_pending ?? [])],
          rejectedForParty: row.kyb_rejected_for_party === true,
        },
      },
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
                pendingDocumentTypes: party.pending,
              },
      })),
    };
  },
});

const requirementsRead = combinedFacts({ facts: requirementFacts });

/** The facts of each customer found among `ids`, read in one statement whatever their number. */
export async function readFacts(db: Executor, ids: readonly string[]): Promise<Map<string, Facts>> {
  if (ids.length === 0) return new Map();
  const each = await readEach(
    db,
    requirementsRead,
    ids.map((id) => ({ facts: id })),
  );
  const facts = new Map<string, Facts>();
  each.forEach((answer, index) => {
    if (answer?.facts) facts.set(ids[index]!, answer.facts);
  });
  return facts;
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

/** Whether the customer has declared any (not deleted) associated party. */
export async function hasParties(db: Executor, customerId: string): Promise<boolean> {
  const rows = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM associated_parties WHERE customer_id = $1 AND deleted_at IS NULL',
    [customerId],
  );
  return (rows[0]?.n ?? 0) > 0;
}

/** Whether the reviewer has approved the verification's own documents (it then waits for its parties). */
export async function reviewApproved(db: Executor, verificationId: string): Promise<boolean> {
  const rows = await db.query<{ review_approved: boolean }>(
    'SELECT review_approved_at IS NOT NULL AS review_approved FROM verifications WHERE id = $1',
    [verificationId],
  );
  return rows[0]?.review_approved === true;
}
