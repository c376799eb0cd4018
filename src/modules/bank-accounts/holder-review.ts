/**
 * Screening of bank-account holders that were not approved on creation (third parties, or the customer
 * before their own verification was approved): UNDER_VERIFICATION → APPROVED | FINAL_REJECTION, once.
 * The decision, under the account's row lock, and its audit row commit together.
 */

import type { Clock } from '../../core/clock.ts';
import { AppError, notFound } from '../../core/errors.ts';
import { type PageRequest, pageResult } from '../../core/pagination.ts';
import type { Database, Executor } from '../../db/types.ts';
import { recordEvent } from '../events/outbox.ts';
import { type Actor, recordAudit } from '../operators/audit.ts';
import * as repo from './holder-repo.ts';
import { canMoveHolder, type HolderReviewOutcome } from './holder-state.ts';
import { presentBankAccount } from './presenter.ts';
import type { BankAccountRow } from './repo.ts';

export function presentOperatorBankAccount(row: BankAccountRow) {
  return { ...presentBankAccount(row), projectId: row.project_id, environment: row.environment };
}

export function createHolderReviewService(deps: { db: Database; clock: Clock }) {
  const { db, clock } = deps;

  async function queue(filter: repo.HolderQueueFilter, page: PageRequest) {
    const { rows, total } = await repo.listHolderQueue(db, filter, page.limit, page.offset);
    return pageResult(page, rows.map(presentOperatorBankAccount), total);
  }

  async function get(id: string) {
    const row = await repo.findLiveBankAccount(db, id);
    if (!row) throw notFound('Bank account');
    return presentOperatorBankAccount(row);
  }

  async function review(
    actor: Actor,
    id: string,
    input: { status: HolderReviewOutcome; reviewComment?: string | undefined },
  ) {
    const comment = input.reviewComment?.trim() || null;
    if (input.status === 'FINAL_REJECTION' && comment === null) {
      throw new AppError('invalid_request', 'The review is invalid', {
        errors: [{ pointer: '/body/reviewComment', message: 'is required with FINAL_REJECTION' }],
      });
    }
    return db.transaction(async (tx) => {
      const row = await repo.lockLiveBankAccount(tx, id);
      if (!row) throw notFound('Bank account');
      if (!canMoveHolder(row.holder_verification_status, input.status)) {
        throw new AppError(
          'invalid_state_transition',
          `The holder is ${row.holder_verification_status}; only a holder UNDER_VERIFICATION can be screened`,
        );
      }
      const at = clock();
      const updated = await repo.updateHolderVerification(tx, id, input.status, at);
      await recordEvent(tx, {
        tenant: { projectId: updated.project_id, environment: updated.environment },
        type: 'bank_account.updated',
        resourceType: 'bank_account',
        resourceId: updated.id,
        data: presentBankAccount(updated),
        at,
      });
      await recordAudit(tx, {
        actor,
        action: 'bank_account.holder_reviewed',
        resourceType: 'bank_account',
        resourceId: id,
        before: { holderVerificationStatus: row.holder_verification_status },
        after: { holderVerificationStatus: input.status, reviewComment: comment },
        at,
      });
      return presentOperatorBankAccount(updated);
    });
  }

  return { queue, get, review };
}

/**
 * A holder confirmed as a sanctioned party: FINAL_REJECTION whatever the holder's status, so that no
 * payout goes to the account; with its `bank_account.updated` event. Already rejected: left alone.
 */
export async function rejectHolderAfterSanctionsMatch(tx: Executor, id: string, at: Date) {
  const row = await repo.lockLiveBankAccount(tx, id);
  if (!row || row.holder_verification_status === 'FINAL_REJECTION') return row;
  const updated = await repo.updateHolderVerification(tx, id, 'FINAL_REJECTION', at);
  await recordEvent(tx, {
    tenant: { projectId: updated.project_id, environment: updated.environment },
    type: 'bank_account.updated',
    resourceType: 'bank_account',
    resourceId: updated.id,
    data: presentBankAccount(updated),
    at,
  });
  return updated;
}
