/**
 * Compliance review of verifications: the queue of those UNDER_VERIFICATION (or any status), one
 * verification with the documents the end customer submitted, and the decision — APPROVED,
 * TEMPORARY_REJECTION or FINAL_REJECTION, rejections with a statusReason naming at least one label.
 * The transition (row lock, table check, event) and the audit row commit together.
 */

import type { Clock } from '../../core/clock.ts';
import { notFound } from '../../core/errors.ts';
import { type PageRequest, type PageResult, pageResult } from '../../core/pagination.ts';
import type { QueueFilter } from '../../core/queue-filter.ts';
import type { Database } from '../../db/types.ts';
import { presentOperatorDocument } from '../documents/presenter.ts';
import { listPartyDocuments, listVerificationDocuments } from '../documents/service.ts';
import { type Actor, recordAudit } from '../operators/audit.ts';
import { decideVerification } from '../verifications/decide.ts';
import { missingOf } from '../verifications/kyb.ts';
import { presentVerification, type VerificationView } from '../verifications/presenter.ts';
import { type StatusReasonInput, statusReasonFor } from '../verifications/reasons.ts';
import type { VerificationStatus } from '../verifications/state.ts';
import { ownershipTree } from './ownership-tree.ts';
import * as repo from './review-repo.ts';

/** The outcomes of a review: where UNDER_VERIFICATION may go (VERIFICATION_TRANSITIONS). */
export const REVIEW_OUTCOMES = ['APPROVED', 'TEMPORARY_REJECTION', 'FINAL_REJECTION'] as const;
export type ReviewOutcome = (typeof REVIEW_OUTCOMES)[number];

export function presentOperatorVerification(row: repo.OperatorVerificationRow) {
  return {
    ...presentVerification(row),
    projectId: row.project_id,
    environment: row.environment,
    customer: {
      id: row.customer_id,
      type: row.customer_type,
      name: row.customer_name,
      taxId: row.customer_tax_id,
      country: row.customer_country,
      email: row.customer_email,
    },
    ...(row.associated_party_id
      ? {
          associatedParty: {
            id: row.associated_party_id,
            type: row.party_type!,
            role: row.party_role!,
            name: row.party_name!,
          },
        }
      : {}),
    reviewApproved: row.review_approved,
  };
}

/** Adds to each customer's own verification what still stands between it and APPROVED. */
async function withMissing<T extends { customerId: string; associatedPartyId?: string; status: string }>(
  db: Database,
  views: T[],
): Promise<(T & { missing?: string[] })[]> {
  const own = views.filter((view) => !view.associatedPartyId && view.status === 'UNDER_VERIFICATION');
  const missing = await missingOf(
    db,
    own.map((view) => view.customerId),
  );
  return views.map((view) =>
    !view.associatedPartyId && view.status === 'UNDER_VERIFICATION'
      ? { ...view, missing: missing.get(view.customerId) ?? [] }
      : view,
  );
}

export type OperatorVerificationView = ReturnType<typeof presentOperatorVerification> & {
  missing?: string[];
};

export function createVerificationReviewService(deps: { db: Database; clock: Clock }) {
  const { db, clock } = deps;

  async function queue(
    filter: QueueFilter,
    page: PageRequest,
  ): Promise<PageResult<OperatorVerificationView>> {
    const { rows, total } = await repo.listVerificationQueue(db, filter, page.limit, page.offset);
    return pageResult(page, await withMissing(db, rows.map(presentOperatorVerification)), total);
  }

  async function get(id: string) {
    const row = await repo.findOperatorVerification(db, id);
    if (!row) throw notFound('Verification');
    const documents = await listVerificationDocuments(db, id);
    const [view] = await withMissing(db, [presentOperatorVerification(row)]);
    const business = row.customer_type === 'BUSINESS' && !row.associated_party_id;
    return {
      ...view!,
      documents: documents.map(presentOperatorDocument),
      ...(business
        ? {
            ownershipTree: await ownershipTree(
              db,
              { projectId: row.project_id, environment: row.environment },
              row.customer_id,
              await listPartyDocuments(db, row.customer_id),
            ),
          }
        : {}),
    };
  }

  async function review(
    actor: Actor,
    id: string,
    input: { status: ReviewOutcome; statusReason?: StatusReasonInput | undefined },
  ): Promise<VerificationView> {
    const reason = statusReasonFor(input.status, input.statusReason);
    return db.transaction(async (tx) => {
      const at = clock();
      const { before, after } = await decideVerification(
        tx,
        id,
        input.status as VerificationStatus,
        reason,
        at,
      );
      await recordAudit(tx, {
        actor,
        action: 'verification.reviewed',
        resourceType: 'verification',
        resourceId: id,
        before: { status: before },
        after: { status: after.status, statusReason: after.statusReason },
        at,
      });
      return after;
    });
  }

  return { queue, get, review };
}
