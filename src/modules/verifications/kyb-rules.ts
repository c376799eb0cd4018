/**
 * The rules of business verification (KYB), as pure functions over the facts read from the database:
 * who counts as an ultimate beneficial owner (ownership multiplied along the chain of parent companies),
 * when a BUSINESS customer may be APPROVED, and the list of requirements every customer answer carries.
 */
import type { VerificationStatus } from './state.ts';

export const PARTY_TYPES = ['INDIVIDUAL', 'BUSINESS'] as const;
export type PartyType = (typeof PARTY_TYPES)[number];
export const PARTY_ROLES = ['UBO', 'SHAREHOLDER', 'REPRESENTATIVE'] as const;
export type PartyRole = (typeof PARTY_ROLES)[number];

export const REQUIREMENT_STATUSES = ['NOT_SENT', 'SENT', 'APPROVED', 'REJECTED'] as const;
export type RequirementStatus = (typeof REQUIREMENT_STATUSES)[number];

export const REQUIREMENT_NAMES = [
  'TERMS_OF_SERVICE',
  'IDENTITY_DOCUMENT',
  'SELFIE',
  'COMPANY_DOCUMENT',
  'REPRESENTATIVE',
] as const;
export type RequirementName = (typeof REQUIREMENT_NAMES)[number];

export type Requirement = { name: RequirementName; status: RequirementStatus; associatedPartyId?: string };

/** Which document types satisfy a document requirement. */
export const REQUIREMENT_DOCUMENTS: Record<'IDENTITY_DOCUMENT' | 'SELFIE' | 'COMPANY_DOCUMENT', string[]> = {
  IDENTITY_DOCUMENT: ['PASSPORT', 'ID_CARD', 'DRIVERS_LICENSE', 'RESIDENCE_PERMIT'],
  SELFIE: ['SELFIE'],
  COMPANY_DOCUMENT: ['ARTICLES_OF_INCORPORATION', 'SHAREHOLDER_REGISTRY'],
};

/** A verification as the rules see it, with the API documents waiting for its next submission. */
export type VerificationFact = {
  status: VerificationStatus;
  /** the reviewer approved the owner's own documents (a business then waits for its parties) */
  reviewApproved: boolean;
  pendingDocumentTypes: readonly string[];
  /** sent back only because an associated party was finally rejected: its own documents still stand */
  rejectedForParty?: boolean;
};

export type PartyFact = {
  id: string;
  type: PartyType;
  role: PartyRole;
  name: string;
  parentId: string | null;
  /** hundredths of a percent (33.33% is 3333), null for representatives */
  ownership: number | null;
  /** null for BUSINESS parties, which verify through their documents only */
  verification: VerificationFact | null;
};

export type CustomerFact = {
  type: PartyType;
  tosRequired: boolean;
  tosAccepted: boolean;
  verification: VerificationFact;
};

const WHOLE = 10_000n; // 100.00% in hundredths of a percent

/**
 * A party's ownership of the customer, multiplied along its chain of parents, as a fraction
 * `numerator / denominator` (exact); null when the party owns nothing.
 */
export function effectiveOwnership(
  party: PartyFact,
  byId: ReadonlyMap<string, PartyFact>,
): { numerator: bigint; denominator: bigint } | null {
  if (party.ownership === null) return null;
  let numerator = BigInt(party.ownership);
  let denominator = WHOLE;
  const seen = new Set([party.id]);
  let parentId = party.parentId;
  while (parentId !== null) {
    const parent = byId.get(parentId);
    if (!parent || parent.ownership === null || seen.has(parent.id)) return null;
    seen.add(parent.id);
    numerator *= BigInt(parent.ownership);
    denominator *= WHOLE;
    parentId = parent.parentId;
  }
  return { numerator, denominator };
}

/** Whether a party is an ultimate beneficial owner: an individual at 25% or more, or declared a UBO. */
export function isUbo(party: PartyFact, byId: ReadonlyMap<string, PartyFact>): boolean {
  if (party.type !== 'INDIVIDUAL') return false;
  if (party.role === 'UBO') return true;
  const share = effectiveOwnership(party, byId);
  return share !== null && share.numerator * 4n >= share.denominator;
}

/** The effective ownership as a percentage with two decimals, rounded down ("33.33"). */
export function formatOwnership(share: { numerator: bigint; denominator: bigint }): string {
  const hundredths = (share.numerator * WHOLE * 100n) / share.denominator / 100n;
  return `${hundredths / 100n}.${String(hundredths % 100n).padStart(2, '0')}`;
}

const individuals = (parties: readonly PartyFact[]) => parties.filter((party) => party.type === 'INDIVIDUAL');

/** The individual parties whose approval the customer needs: every UBO, and the representatives. */
export function countedParties(parties: readonly PartyFact[]) {
  const byId = new Map(parties.map((party) => [party.id, party]));
  const ubos = individuals(parties).filter((party) => isUbo(party, byId));
  const representatives = individuals(parties).filter((party) => party.role === 'REPRESENTATIVE');
  return { ubos, representatives };
}

/** A document requirement's status, from its owner's verification and the documents waiting for it. */
export function documentStatus(verification: VerificationFact, types: readonly string[]): RequirementStatus {
  const pending = verification.pendingDocumentTypes.some((type) => types.includes(type));
  if (verification.reviewApproved) return 'APPROVED';
  switch (verification.status) {
    case 'APPROVED':
      return 'APPROVED';
    case 'FINAL_REJECTION':
      return 'REJECTED';
    case 'UNDER_VERIFICATION':
      return 'SENT';
    case 'NOT_STARTED':
      return pending ? 'SENT' : 'NOT_SENT';
    case 'TEMPORARY_REJECTION':
      return pending || verification.rejectedForParty ? 'SENT' : 'REJECTED';
  }
}

/** What an owner (a customer or an individual party) must send for its own verification. */
export function ownRequirements(
  type: PartyType,
  verification: VerificationFact,
  associatedPartyId?: string,
): Requirement[] {
  const names: ('IDENTITY_DOCUMENT' | 'SELFIE' | 'COMPANY_DOCUMENT')[] =
    type === 'INDIVIDUAL' ? ['IDENTITY_DOCUMENT', 'SELFIE'] : ['COMPANY_DOCUMENT'];
  return names.map((name) => ({
    name,
    status: documentStatus(verification, REQUIREMENT_DOCUMENTS[name]),
    ...(associatedPartyId ? { associatedPartyId } : {}),
  }));
}

const PARTY_STATUS: Record<VerificationStatus, RequirementStatus> = {
  NOT_STARTED: 'NOT_SENT',
  UNDER_VERIFICATION: 'SENT',
  APPROVED: 'APPROVED',
  TEMPORARY_REJECTION: 'REJECTED',
  FINAL_REJECTION: 'REJECTED',
};
const RANK: RequirementStatus[] = ['APPROVED', 'SENT', 'NOT_SENT', 'REJECTED'];

/** The terms (when the customer is asked for them), its own documents, then its UBOs and representatives. */
export function customerRequirements(customer: CustomerFact, parties: readonly PartyFact[]): Requirement[] {
  const list: Requirement[] = [];
  if (customer.tosRequired || customer.tosAccepted) {
    list.push({ name: 'TERMS_OF_SERVICE', status: customer.tosAccepted ? 'APPROVED' : 'NOT_SENT' });
  }
  list.push(...ownRequirements(customer.type, customer.verification));
  if (customer.type !== 'BUSINESS') return list;
  const { ubos, representatives } = countedParties(parties);
  for (const party of [...ubos, ...representatives.filter((rep) => !ubos.includes(rep))]) {
    list.push(...ownRequirements('INDIVIDUAL', party.verification!, party.id));
  }
  // at least one representative, approved: the best of them stands for the requirement
  const best = representatives
    .map((rep) => ({ rep, status: PARTY_STATUS[rep.verification!.status] }))
    .sort((a, b) => RANK.indexOf(a.status) - RANK.indexOf(b.status))[0];
  list.push(
    best
      ? { name: 'REPRESENTATIVE', status: best.status, associatedPartyId: best.rep.id }
      : { name: 'REPRESENTATIVE', status: 'NOT_SENT' },
  );
  return list;
}

/** What stands between a BUSINESS customer under review and APPROVED: empty when nothing does. */
export function missingForApproval(customer: CustomerFact, parties: readonly PartyFact[]): string[] {
  const missing: string[] = [];
  if (!customer.verification.reviewApproved) missing.push("the review of the customer's own documents");
  if (customer.type !== 'BUSINESS') return missing;
  const { ubos, representatives } = countedParties(parties);
  for (const ubo of ubos) {
    const status = ubo.verification!.status;
    if (status !== 'APPROVED') missing.push(`UBO ${ubo.name} (${ubo.id}) is ${status}`);
  }
  if (!representatives.some((rep) => rep.verification!.status === 'APPROVED')) {
    missing.push(
      representatives.length === 0
        ? 'a REPRESENTATIVE (none is declared)'
        : 'an APPROVED REPRESENTATIVE (none is approved yet)',
    );
  }
  return missing;
}

/** The first party whose verification is finally rejected: the customer must replace it. */
export const finallyRejectedParty = (parties: readonly PartyFact[]) =>
  parties.find((party) => party.verification?.status === 'FINAL_REJECTION');
