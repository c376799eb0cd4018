/**
 * The review queue of possible matches: each OPEN case beside the list entries it matched, and the
 * operator's decision. CLEAR lifts the hold (the match is remembered as cleared for that subject and name);
 * CONFIRM makes it final: the customer's verification (or the holder) FINAL_REJECTION, a held transfer
 * FAILED with its reserve released, a held deposit FAILED uncredited. Decision, effects, audit row and
 * events commit together. Screening moves a customer's verification itself; what a decision does to a
 * subject another module owns (a bank-account holder, a held transfer or deposit) is that module's
 * handler, offered in that module's descriptor and composed in the context (`offers`).
 */
import type { Clock } from '../../core/clock.ts';
import { AppError, notFound } from '../../core/errors.ts';
import { type PageRequest, pageResult } from '../../core/pagination.ts';
import type { Database } from '../../db/types.ts';
import type { ChainRegistry } from '../../rails/chains/registry.ts';
import type { ComposedOffers, SubjectDecisionHandlers } from '../offers.ts';
import { type Actor, actorLabel, recordAudit } from '../operators/audit.ts';
import { lockCustomerVerification } from '../verifications/kyb.ts';
import { rejectAfterSanctionsMatch } from '../verifications/transition.ts';
import * as cases from './cases-repo.ts';
import { findEntry } from './list-repo.ts';
import { recordScreeningEvent } from './service.ts';

export function presentCase(row: cases.CaseRow) {
  return {
    id: row.id,
    projectId: row.project_id,
    environment: row.environment,
    subjectType: row.subject_type,
    subjectId: row.subject_id,
    customerId: row.customer_id,
    reason: row.reason,
    status: row.status,
    score: String(row.score),
    screened: row.screened,
    matches: row.matches,
    decidedBy: row.decided_by,
    decisionComment: row.decision_comment,
    createdAt: row.created_at.toISOString(),
    decidedAt: row.decided_at?.toISOString() ?? null,
  };
}

export type CaseView = ReturnType<typeof presentCase>;

type DecisionOffers = Pick<ComposedOffers, 'screeningDecisions' | 'holdDecided'>;

function handlersOf(offers: DecisionOffers, type: cases.SubjectType): SubjectDecisionHandlers {
  const handlers = offers.screeningDecisions[type];
  if (!handlers) throw new Error(`No screening decision handler is offered for ${type} subjects`);
  return handlers;
}

/**
 * `offers`: what a decision does to the subjects other modules own, and how they release or refuse the
 * money a decided hold stopped — each module's offer, composed in the context.
 */
export function createScreeningReviewService(deps: {
  db: Database;
  clock: Clock;
  chains: ChainRegistry;
  offers: DecisionOffers;
}) {
  const { db, clock, chains, offers } = deps;

  async function queue(
    filter: { status: cases.CaseStatus; customerId?: string | undefined; subjectId?: string | undefined },
    page: PageRequest,
  ) {
    const { rows, total } = await cases.listCases(db, filter, page.limit, page.offset);
    return pageResult(page, rows.map(presentCase), total);
  }

  /** A case with every list entry it matched in full, for a side-by-side review. */
  async function get(id: string) {
    const row = await cases.findCase(db, id);
    if (!row) throw notFound('Screening case');
    const entries = [];
    for (const match of row.matches) {
      const entry = await findEntry(db, match.entryId);
      if (!entry) continue;
      entries.push({
        id: entry.id,
        source: entry.source,
        sourceUid: entry.source_uid,
        kind: entry.kind,
        primaryName: entry.primary_name,
        programs: entry.programs,
        countries: entry.countries,
        birthDates: entry.birth_dates,
        remarks: entry.remarks,
        details: entry.details,
        names: entry.names.map((n) => ({ name: n.name, alias: n.alias, quality: n.alias_quality })),
        addresses: entry.addresses,
      });
    }
    return { ...presentCase(row), entries };
  }

  async function decide(actor: Actor, id: string, input: { decision: 'CLEAR' | 'CONFIRM'; comment: string }) {
    const comment = input.comment.trim();
    if (comment.length === 0) {
      throw new AppError('invalid_request', 'The decision is invalid', {
        errors: [{ pointer: '/body/comment', message: 'must not be blank' }],
      });
    }
    return db.transaction(async (tx) => {
      const row = await cases.lockCase(tx, id);
      if (!row) throw notFound('Screening case');
      if (row.status !== 'OPEN') {
        throw new AppError(
          'invalid_state_transition',
          `The case is ${row.status}; only an OPEN case is decided`,
        );
      }
      const at = clock();
      await cases.lockCustomerRow(tx, row.customer_id);
      const status = input.decision === 'CLEAR' ? 'CLEARED' : 'CONFIRMED';
      const decided = await cases.decideCase(tx, id, { status, by: actorLabel(actor), comment }, at);
      const ownVerification = row.subject_type === 'CUSTOMER' || row.subject_type === 'ASSOCIATED_PARTY';
      if (status === 'CLEARED') {
        await cases.insertClearances(tx, row, at);
        if (!ownVerification) {
          await handlersOf(offers, row.subject_type).cleared?.(tx, { chains }, row.subject_id, at);
        }
      } else if (!ownVerification) {
        await handlersOf(offers, row.subject_type).confirmed(tx, { chains }, row.subject_id, at);
      } else {
        // a match of the customer or of one of its parties ends the customer's own verification
        const verification = await lockCustomerVerification(tx, row.customer_id);
        if (verification) await rejectAfterSanctionsMatch(tx, verification.id, at);
      }
      if (row.subject_type !== 'TRANSFER' && row.subject_type !== 'DEPOSIT') {
        // the payouts, refunds, chain sends and deposits this hold stopped: released or refused now
        for (const handler of offers.holdDecided) await handler(tx, { chains }, decided, at);
        await recordScreeningEvent(tx, decided, at);
      }
      await recordAudit(tx, {
        actor,
        action: status === 'CLEARED' ? 'screening.case_cleared' : 'screening.case_confirmed',
        resourceType: 'screening_case',
        resourceId: id,
        before: { status: row.status },
        after: { status, comment, subjectType: row.subject_type, subjectId: row.subject_id },
        at,
      });
      return presentCase(decided);
    });
  }

  return { queue, get, decide };
}
