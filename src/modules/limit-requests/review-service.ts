/**
 * Compliance review of limit requests: the queue (IN_REVIEW, oldest first), one request with what the
 * customer may do today and the supporting document, and the review itself. The review locks the
 * request row, so of two operators deciding the same request at once exactly one wins and the other
 * gets 409; the new state, its `limit_request.reviewed` event and the audit row commit together.
 */
import type { Config } from '../../config.ts';
import type { Clock } from '../../core/clock.ts';
import { AppError, notFound } from '../../core/errors.ts';
import { formatAmount } from '../../core/money.ts';
import { type PageRequest, pageResult } from '../../core/pagination.ts';
import type { QueueFilter } from '../../core/queue-filter.ts';
import type { Database } from '../../db/types.ts';
import { presentOperatorDocument } from '../documents/presenter.ts';
import { findDocument } from '../documents/service.ts';
import { recordEvent } from '../events/outbox.ts';
import { limitsInForce } from '../limits/in-force.ts';
import { type Actor, recordAudit } from '../operators/audit.ts';
import { type LimitRequestView, presentLimitRequest } from './presenter.ts';
import { lockLimitRequest, updateLimitRequestReview } from './repo.ts';
import { canMoveLimitRequest, decideReview, REVIEW_DECISIONS, type ReviewInput } from './review.ts';
import * as repo from './review-repo.ts';

export function presentOperatorLimitRequest(row: repo.OperatorLimitRequestRow) {
  return {
    ...presentLimitRequest(row),
    projectId: row.project_id,
    environment: row.environment,
    customer: { id: row.customer_id, type: row.customer_type, name: row.customer_name },
  };
}

export function createLimitReviewService(deps: {
  db: Database;
  clock: Clock;
  config: Pick<Config, 'defaultLimits'>;
}) {
  const { db, clock, config } = deps;

  async function queue(filter: QueueFilter, page: PageRequest) {
    const { rows, total } = await repo.listLimitRequestQueue(db, filter, page.limit, page.offset);
    return pageResult(page, rows.map(presentOperatorLimitRequest), total);
  }

  /** One request, with the limits in force for its customer and its supporting document. */
  async function get(id: string) {
    const row = await repo.findOperatorLimitRequest(db, id);
    if (!row) throw notFound('Limit request');
    const inForce = await limitsInForce(db, row.customer_id, config.defaultLimits[row.customer_type]);
    const document = row.supporting_document_id
      ? await findDocument(db, row.supporting_document_id)
      : undefined;
    return {
      ...presentOperatorLimitRequest(row),
      limitsInForce: {
        single: formatAmount(inForce.single),
        daily: formatAmount(inForce.daily),
        monthly: formatAmount(inForce.monthly),
      },
      supportingDocument: document ? presentOperatorDocument(document) : null,
    };
  }

  async function review(actor: Actor, id: string, input: ReviewInput): Promise<LimitRequestView> {
    return db.transaction(async (tx) => {
      const row = await lockLimitRequest(tx, id);
      if (!row) throw notFound('Limit request');
      const target = REVIEW_DECISIONS[input.decision].status;
      if (!canMoveLimitRequest(row.status, target)) {
        throw new AppError(
          'invalid_state_transition',
          `The limit request is ${row.status}; only a request IN_REVIEW can be reviewed`,
        );
      }
      const outcome = decideReview(
        { single: row.requested_single, daily: row.requested_daily, monthly: row.requested_monthly },
        input,
      );
      const at = clock();
      const updated = await updateLimitRequestReview(tx, id, { ...outcome, at });
      const view = presentLimitRequest(updated);
      await recordEvent(tx, {
        tenant: { projectId: row.project_id, environment: row.environment },
        type: 'limit_request.reviewed',
        resourceType: 'limit_request',
        resourceId: id,
        data: view,
        at,
      });
      await recordAudit(tx, {
        actor,
        action: 'limit_request.reviewed',
        resourceType: 'limit_request',
        resourceId: id,
        before: { status: row.status },
        after: {
          decision: input.decision,
          status: view.status,
          approved: view.approved,
          reviewComment: view.reviewComment,
        },
        at,
      });
      return view;
    });
  }

  return { queue, get, review };
}
