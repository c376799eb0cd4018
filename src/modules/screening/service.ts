/**
 * Screening of people and chain addresses. A subject whose
 * name reaches the threshold against an entry in force (and that no operator cleared for it) gets an OPEN
 * case: held until an operator decides. The case is opened under the customer's row lock, the lock every
 * money movement of the customer takes first, so a movement either committed before the hold or sees it.
 *
 * Subject types are a hook: `screenSubject` screens any person of a customer (a customer, a bank
 * account's holder, an associated party) in the caller's transaction, and `SUBJECT_SOURCES` lists what a
 * re-screening run walks.
 */
import { AppError } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import type { Executor } from '../../db/types.ts';
import type { Environment, Tenant } from '../../lib/environment.ts';
import { recordEvent } from '../events/outbox.ts';
import { addressKey } from './addresses.ts';
import * as cases from './cases-repo.ts';
import { findListedAddress } from './list-repo.ts';
import { indexInForce } from './lists.ts';
import { type MatchIndex, matchParty, type ScreenedParty } from './matcher.ts';
import { associatedPartySubjects, customerSubjects, holderSubjects, type SubjectRow } from './runs-repo.ts';

export type { CaseRow, SubjectType } from './cases-repo.ts';

/** Person subjects: their hold concerns the customer's movements (or, for a holder, payouts to the account). */
export type PersonSubjectType = 'CUSTOMER' | 'BANK_ACCOUNT_HOLDER' | 'ASSOCIATED_PARTY';

export type Subject = {
  type: PersonSubjectType;
  id: string;
  customerId: string;
  tenant: Tenant;
  party: ScreenedParty;
};

/** What a re-screening run walks: each subject type, a page at a time in id order. */
export type SubjectSource = {
  type: PersonSubjectType;
  page: (db: Executor, afterId: string | null, limit: number) => Promise<SubjectRow[]>;
};

export const SUBJECT_SOURCES: SubjectSource[] = [
  { type: 'CUSTOMER', page: customerSubjects },
  { type: 'BANK_ACCOUNT_HOLDER', page: holderSubjects },
  { type: 'ASSOCIATED_PARTY', page: associatedPartySubjects },
];

export const subjectOf = (type: PersonSubjectType, row: SubjectRow): Subject => ({
  type,
  id: row.id,
  customerId: row.customer_id,
  tenant: { projectId: row.project_id, environment: row.environment },
  party: { name: row.name, kind: row.kind, birthDate: row.birth_date, country: row.country },
});

/** The event partners receive about a person's screening: the state, never the list's content. */
export function screeningEventData(row: cases.CaseRow) {
  return {
    customerId: row.customer_id,
    subjectType: row.subject_type,
    subjectId: row.subject_id,
    caseId: row.id,
    status: row.status === 'OPEN' ? 'ON_HOLD' : row.status,
    reason: row.reason,
    updatedAt: row.updated_at.toISOString(),
  };
}

export async function recordScreeningEvent(tx: Executor, row: cases.CaseRow, at: Date): Promise<void> {
  await recordEvent(tx, {
    tenant: { projectId: row.project_id, environment: row.environment },
    type: 'customer.screening.updated',
    resourceType: 'customer',
    resourceId: row.customer_id,
    data: screeningEventData(row),
    at,
  });
}

const scoreText = (score: number) => score.toFixed(4);

/** A match as a case keeps it: the list entry, the name matched, and the scores to four places. */
const caseMatch = (match: ReturnType<typeof matchParty>[number]): cases.CaseMatch => ({
  entryId: match.entry.id,
  versionId: match.entry.versionId,
  source: match.entry.source,
  sourceUid: match.entry.sourceUid,
  primaryName: match.entry.primaryName,
  matchedName: match.matchedName,
  score: Number(match.score.toFixed(4)),
  nameScore: Number(match.nameScore.toFixed(4)),
  factors: match.factors,
});

/**
 * Screens one person against the lists in force, in the caller's transaction: opens a case (and its
 * event) on a new possible match, refreshes the matches of a case already open. Returns the open case
 * and whether this screening opened it.
 */
export async function screenSubject(
  tx: Executor,
  subject: Subject,
  threshold: number,
  at: Date,
  index?: MatchIndex,
): Promise<{ row: cases.CaseRow; opened: boolean } | undefined> {
  const matchIndex = index ?? (await indexInForce(tx)).index;
  const found = matchParty(matchIndex, subject.party, threshold);
  if (found.length === 0) return undefined;
  const cleared = await cases.clearedFor(tx, subject.type, subject.id, subject.party.name);
  const matches = found
    .filter((match) => !cleared.has(`${match.entry.source}:${match.entry.sourceUid}`))
    .slice(0, 10)
    .map(caseMatch);
  if (matches.length === 0) return undefined;
  await cases.lockCustomerRow(tx, subject.customerId);
  const screened = {
    name: subject.party.name,
    kind: subject.party.kind,
    birthDate: subject.party.birthDate ?? null,
    country: subject.party.country ?? null,
  };
  const score = scoreText(matches[0]!.score);
  const open = await cases.lockOpenCase(tx, subject.type, subject.id);
  if (open) {
    await cases.updateOpenCase(tx, open.id, { screened, matches, score }, at);
    return { row: { ...open, screened, matches, score, updated_at: at }, opened: false };
  }
  const row: cases.CaseRow = {
    id: newId(),
    project_id: subject.tenant.projectId,
    environment: subject.tenant.environment,
    subject_type: subject.type,
    subject_id: subject.id,
    customer_id: subject.customerId,
    reason: 'NAME_MATCH',
    screened,
    matches,
    score,
    status: 'OPEN',
    decided_by: null,
    decision_comment: null,
    created_at: at,
    updated_at: at,
    decided_at: null,
  };
  await cases.insertCase(tx, row);
  await recordScreeningEvent(tx, row, at);
  return { row, opened: true };
}

/** The list entries a counterparty's name matches (a transfer's beneficiary, a deposit's originator). */
export async function matchesFor(
  tx: Executor,
  party: ScreenedParty,
  threshold: number,
): Promise<cases.CaseMatch[]> {
  const { index } = await indexInForce(tx);
  return matchParty(index, party, threshold).slice(0, 10).map(caseMatch);
}

/**
 * Refuses a money movement of held customers, or to a held bank account's holder: 409 `compliance_hold`,
 * called under the customers' row locks so that it sees every hold committed before them.
 */
export async function refuseHeld(
  tx: Executor,
  customerIds: readonly string[],
  bankAccountIds: readonly string[] = [],
): Promise<void> {
  const held = await heldSubjects(tx, customerIds, bankAccountIds);
  const first = held[0];
  if (first) throw complianceHold(first);
}

export const complianceHold = (row: cases.CaseRow) =>
  new AppError(
    'compliance_hold',
    row.subject_type === 'BANK_ACCOUNT_HOLDER'
      ? "The bank account's holder is on compliance hold pending a screening review; nothing was booked"
      : 'The customer is on compliance hold pending a screening review; nothing was booked',
    { extra: { holdReason: row.reason, subjectType: row.subject_type } },
  );

/** The open cases holding any of these customers or bank accounts (each customer or account at most once). */
export async function heldSubjects(
  tx: Executor,
  customerIds: readonly string[],
  bankAccountIds: readonly string[] = [],
): Promise<cases.CaseRow[]> {
  if (customerIds.length === 0 && bankAccountIds.length === 0) return [];
  return cases.openHolds(tx, customerIds, bankAccountIds);
}

/** Where money stands at the moment it would leave: free to go, waiting for an open case, or refused. */
export type HoldAtSend = { state: 'FREE' } | { state: 'HELD' | 'REFUSED'; case: cases.CaseRow };

/**
 * The holds on money about to leave (a payout, a refund, a chain send), asked in the transaction that
 * claims the send: the customers' rows are share-locked first, so a case opened or decided at the same
 * moment, under the customer's row lock, is either seen or opened after the send was claimed. An open case
 * holds the send; a confirmed match refuses it. `holdOf` tells each movement its own answer.
 */
export async function holdsAtSend(
  tx: Executor,
  customerIds: readonly string[],
  bankAccountIds: readonly string[] = [],
): Promise<{ holdOf: (movement: { customerId: string; bankAccountId?: string | null }) => HoldAtSend }> {
  if (customerIds.length === 0) return { holdOf: () => ({ state: 'FREE' }) };
  await cases.shareCustomerRows(tx, [...new Set(customerIds)].sort());
  const rows = await cases.personCases(tx, ['OPEN', 'CONFIRMED'], customerIds, bankAccountIds);
  return {
    holdOf(movement) {
      const own = rows.filter((row) => caseConcerns(row, movement));
      const refused = own.find((row) => row.status === 'CONFIRMED');
      if (refused) return { state: 'REFUSED', case: refused };
      const open = own.find((row) => row.status === 'OPEN');
      return open ? { state: 'HELD', case: open } : { state: 'FREE' };
    },
  };
}

/** Whether a decided case concerns this movement (its customer, or the holder of its payout account). */
export function caseConcerns(
  row: cases.CaseRow,
  movement: { customerId: string; bankAccountId?: string | null },
): boolean {
  return row.subject_type === 'BANK_ACCOUNT_HOLDER'
    ? row.subject_id === movement.bankAccountId
    : row.customer_id === movement.customerId;
}

export type ListedAddress = {
  entryId: string;
  versionId: string;
  source: string;
  sourceUid: string;
  primaryName: string;
  currency: string;
  address: string;
};

/** The in-force list entries naming this chain address (exact; EVM without regard to case). */
export async function listedAddress(tx: Executor, address: string): Promise<ListedAddress[]> {
  const rows = await findListedAddress(tx, addressKey(address));
  return rows.map((row) => ({
    entryId: row.entry_id,
    versionId: row.version_id,
    source: row.source,
    sourceUid: row.source_uid,
    primaryName: row.primary_name,
    currency: row.currency,
    address: row.address,
  }));
}

/** 422 `sanctioned_address` when a transfer's destination is on a list in force; nothing is booked. */
export async function refuseSanctionedDestination(tx: Executor, address: string): Promise<void> {
  const listed = await listedAddress(tx, address);
  if (listed.length > 0) {
    throw new AppError(
      'sanctioned_address',
      'The destination address is on a sanctions list in force; the transfer was refused and nothing was booked',
      { errors: [{ pointer: '/body/to', message: 'is a sanctioned address' }] },
    );
  }
}

/**
 * Opens a case holding a chain transaction (a deposit from a listed address, a transfer to a listed name,
 * a transfer completing a sum split under the Travel Rule threshold).
 */
export async function holdTransaction(
  tx: Executor,
  transaction: {
    id: string;
    customerId: string;
    projectId: string;
    environment: Environment;
    type: 'TRANSFER' | 'DEPOSIT';
  },
  found: { reason: cases.CaseReason; screened: Record<string, unknown>; matches: cases.CaseMatch[] },
  at: Date,
): Promise<cases.CaseRow> {
  const row: cases.CaseRow = {
    id: newId(),
    project_id: transaction.projectId,
    environment: transaction.environment,
    subject_type: transaction.type,
    subject_id: transaction.id,
    customer_id: transaction.customerId,
    reason: found.reason,
    screened: found.screened,
    matches: found.matches,
    // a pattern with no list entry behind it (STRUCTURING) is certain as a pattern: score 1
    score: scoreText(found.matches.length > 0 ? Math.max(...found.matches.map((m) => m.score)) : 1),
    status: 'OPEN',
    decided_by: null,
    decision_comment: null,
    created_at: at,
    updated_at: at,
    decided_at: null,
  };
  await cases.insertCase(tx, row);
  return row;
}

/** Whether a chain transaction is held by an open case. */
export async function transactionHeld(
  tx: Executor,
  type: 'TRANSFER' | 'DEPOSIT',
  id: string,
): Promise<boolean> {
  return (await cases.lockOpenCase(tx, type, id)) !== undefined;
}

/** Why subjects of a tenant are held, as a partner may see it: the kind of match and since when. */
export async function holdReasons(db: Executor, tenant: Tenant, subjectIds: readonly string[]) {
  const rows = await cases.openCasesOf(db, subjectIds);
  return rows
    .filter((row) => row.project_id === tenant.projectId && row.environment === tenant.environment)
    .map((row) => ({
      subjectType: row.subject_type,
      subjectId: row.subject_id,
      reason: row.reason,
      since: row.created_at.toISOString(),
      description:
        row.reason === 'ADDRESS_MATCH'
          ? 'the counterparty address is on a sanctions list; under compliance review'
          : row.reason === 'STRUCTURING'
            ? 'transfers to this counterparty within 24 hours, each below the Travel Rule threshold, add up to it; under compliance review'
            : 'the name may match a sanctions list entry; under compliance review',
    }));
}

/** The open holds of a customer and of everyone screened under it (its holders, parties, transactions). */
export async function holdReasonsOfCustomer(db: Executor, tenant: Tenant, customerId: string) {
  const rows = await cases.listCases(db, { status: 'OPEN', customerId }, 50, 0);
  return holdReasons(
    db,
    tenant,
    rows.rows.map((row) => row.subject_id),
  );
}
