/** The facts the KYB rules read: customers, their parties, verifications and waiting documents. SQL only. */
import type { Executor } from '../../db/types.ts';
import type { CustomerFact, PartyFact, PartyRole, PartyType } from './kyb-rules.ts';
import type { VerificationStatus } from './state.ts';

type CustomerFactRow = {
  id: string;
  type: PartyType;
  tos_required: boolean;
  tos_accepted: boolean;
  status: VerificationStatus;
  review_approved: boolean;
  rejected_for_party: boolean;
};

type PartyFactRow = {
  id: string;
  customer_id: string;
  type: PartyType;
  role: PartyRole;
  name: string;
  parent_id: string | null;
  ownership: number | null;
  status: VerificationStatus | null;
  review_approved: boolean | null;
};

type PendingRow = { customer_id: string; associated_party_id: string | null; type: string };

export type Facts = { customer: CustomerFact; parties: PartyFact[] };

/** The facts of each customer found among `ids`, read in three statements whatever their number. */
export async function readFacts(db: Executor, ids: readonly string[]): Promise<Map<string, Facts>> {
  if (ids.length === 0) return new Map();
  const [customers, parties, pending] = await Promise.all([
    db.query<CustomerFactRow>(
      `SELECT c.id, c.type, c.tos_required, c.tos_accepted_at IS NOT NULL AS tos_accepted, v.status,
              v.review_approved_at IS NOT NULL AS review_approved,
              (v.status_reason -> 'rejectLabels') @> '["associated_party_rejected"]'::jsonb AS rejected_for_party
         FROM customers c JOIN verifications v ON v.customer_id = c.id
        WHERE c.id = ANY($1::uuid[])`,
      [ids],
    ),
    db.query<PartyFactRow>(
      `SELECT p.id, p.customer_id, p.type, p.role, p.name, p.parent_id,
              (p.ownership_percentage * 100)::int AS ownership, v.status,
              v.review_approved_at IS NOT NULL AS review_approved
         FROM associated_parties p LEFT JOIN verifications v ON v.associated_party_id = p.id
        WHERE p.customer_id = ANY($1::uuid[]) AND p.deleted_at IS NULL
        ORDER BY p.created_at, p.id`,
      [ids],
    ),
    db.query<PendingRow>(
      `SELECT DISTINCT customer_id, associated_party_id, type FROM documents
        WHERE customer_id = ANY($1::uuid[]) AND verification_id IS NULL AND source = 'API'`,
      [ids],
    ),
  ]);
  const pendingOf = (customerId: string, partyId: string | null) =>
    pending
      .filter((row) => row.customer_id === customerId && row.associated_party_id === partyId)
      .map((row) => row.type);
  const facts = new Map<string, Facts>();
  for (const row of customers) {
    facts.set(row.id, {
      customer: {
        type: row.type,
        tosRequired: row.tos_required,
        tosAccepted: row.tos_accepted,
        verification: {
          status: row.status,
          reviewApproved: row.review_approved,
          pendingDocumentTypes: pendingOf(row.id, null),
          rejectedForParty: row.rejected_for_party === true,
        },
      },
      parties: [],
    });
  }
  for (const row of parties) {
    facts.get(row.customer_id)?.parties.push({
      id: row.id,
      type: row.type,
      role: row.role,
      name: row.name,
      parentId: row.parent_id,
      ownership: row.ownership === null ? null : Number(row.ownership),
      verification:
        row.status === null
          ? null
          : {
              status: row.status,
              reviewApproved: row.review_approved === true,
              pendingDocumentTypes: pendingOf(row.customer_id, row.id),
            },
    });
  }
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
