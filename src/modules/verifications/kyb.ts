/**
 * Business verification (KYB): the requirements of every customer, and the settlement of a BUSINESS
 * customer's verification whenever it or one of its parties changes. Settlement runs in the transaction
 * of the change, after the customer's own verification row is locked (`lockCustomerVerification`), so
 * that every change to one customer's KYB state is serialised: two reviews approving the last two
 * parties at once approve the customer exactly once.
 */
import type { Executor } from '../../db/types.ts';
import * as repo from './kyb-repo.ts';
import {
  type CustomerFact,
  customerRequirements,
  finallyRejectedParty,
  missingForApproval,
  ownRequirements,
  type PartyFact,
  type Requirement,
} from './kyb-rules.ts';
import type { StatusReason } from './state.ts';
import { transitionVerification } from './transition.ts';

export type { Attachments, OwnerColumns } from './kyb-repo.ts';
export {
  acceptTerms,
  attachmentFacts,
  lockCustomerVerification,
  reviewApproved,
  setReviewApproved,
  termsSatisfied,
} from './kyb-repo.ts';
export type { Requirement } from './kyb-rules.ts';

/** The reject label of a customer's verification sent back because one of its parties was finally rejected. */
const PARTY_REJECTED = 'associated_party_rejected';

type Facts = { customer: CustomerFact; parties: PartyFact[] };

/** The facts the rules read, from a customer's own columns and what it has beside them. */
function factsOf(owner: repo.OwnerColumns, attachments: repo.Attachments): Facts {
  return {
    customer: {
      type: owner.type,
      tosRequired: owner.tos_required,
      tosAccepted: owner.tos_accepted_at !== null && owner.tos_accepted_at !== undefined,
      verification: {
        status: owner.verification_status,
        reviewApproved: owner.verification_review_approved,
        pendingDocumentTypes: attachments.pendingDocumentTypes,
        rejectedForParty: owner.verification_reject_labels?.includes(PARTY_REJECTED) === true,
      },
    },
    parties: attachments.parties,
  };
}

/** The facts of each customer found among `ids`, read in one statement. */
async function readFacts(db: Executor, ids: readonly string[]): Promise<Map<string, Facts>> {
  const owners = await repo.readOwners(db, ids);
  return new Map([...owners].map(([id, { owner, attachments }]) => [id, factsOf(owner, attachments)]));
}

/** A customer's requirements from its own columns (every customer read answers them) and its attachments. */
export function requirementsFrom(owner: repo.OwnerColumns, attachments: repo.Attachments): Requirement[] {
  const facts = factsOf(owner, attachments);
  return customerRequirements(facts.customer, facts.parties);
}

/** The requirements of each customer row among `rows`, their attachments read in one statement. */
export async function requirementsOf(
  db: Executor,
  rows: readonly (repo.OwnerColumns & { id: string })[],
): Promise<Requirement[][]> {
  const attachments = await repo.readAttachments(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row, index) => requirementsFrom(row, attachments[index]!));
}

/** What each customer among `ids` still lacks before its verification can be APPROVED. */
export async function missingOf(db: Executor, ids: readonly string[]): Promise<Map<string, string[]>> {
  const facts = await readFacts(db, ids);
  return new Map([...facts].map(([id, fact]) => [id, missingForApproval(fact.customer, fact.parties)]));
}

/** The reason a customer's verification goes back to TEMPORARY_REJECTION: the party to replace. */
export function partyRejectionReason(party: { id: string; name: string }): StatusReason {
  return {
    rejectLabels: [PARTY_REJECTED],
    rejectSubLabels: [],
    documents: [
      {
        type: 'ASSOCIATED_PARTY',
        status: 'FINAL_REJECTION',
        comment: `The associated party ${party.name} (${party.id}) was finally rejected; replace it and submit again.`,
        rejectLabels: [PARTY_REJECTED],
      },
    ],
  };
}

/**
 * Moves a customer's verification waiting in UNDER_VERIFICATION on to where its facts now put it: back
 * to TEMPORARY_REJECTION when a party is finally rejected, to APPROVED when its own review is approved and
 * every UBO and a representative are. The caller holds the customer verification's lock.
 */
export async function settleCustomer(
  tx: Executor,
  customerId: string,
  at: Date,
): Promise<'APPROVED' | 'TEMPORARY_REJECTION' | null> {
  const verification = await repo.lockCustomerVerification(tx, customerId);
  if (verification?.status !== 'UNDER_VERIFICATION') return null;
  const facts = (await readFacts(tx, [customerId])).get(customerId)!;
  const rejected = finallyRejectedParty(facts.parties);
  if (rejected) {
    await repo.setReviewApproved(tx, verification.id, null);
    await transitionVerification(
      tx,
      verification.id,
      'TEMPORARY_REJECTION',
      partyRejectionReason(rejected),
      at,
    );
    return 'TEMPORARY_REJECTION';
  }
  if (missingForApproval(facts.customer, facts.parties).length > 0) return null;
  await transitionVerification(tx, verification.id, 'APPROVED', undefined, at);
  return 'APPROVED';
}

/**
 * The requirements an owner's submission still lacks: for a customer its terms and own documents, for
 * an individual party its own documents. Empty when every one is SENT (or APPROVED).
 */
export async function unmetForSubmission(
  db: Executor,
  customerId: string,
  associatedPartyId: string | null,
): Promise<Requirement[]> {
  const facts = (await readFacts(db, [customerId])).get(customerId);
  if (!facts) return [];
  let own: Requirement[];
  if (associatedPartyId === null) {
    own = customerRequirements(facts.customer, []).filter((item) => item.name !== 'REPRESENTATIVE');
  } else {
    const party = facts.parties.find((item) => item.id === associatedPartyId);
    if (!party?.verification) return [];
    own = ownRequirements('INDIVIDUAL', party.verification, party.id);
  }
  return own.filter((item) => item.status !== 'SENT' && item.status !== 'APPROVED');
}
