import type { Clock } from '../../core/clock.ts';
import { AppError, type FieldError, notFound } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { listWindow, type PageRequest, type PageResult, pageResult } from '../../core/pagination.ts';
import type { Database } from '../../db/types.ts';
import type { Tenant } from '../../lib/environment.ts';
import { lockCustomer } from '../customers/service.ts';
import type { SupportingDocumentType } from '../documents/kinds.ts';
import { supportingDocumentProblem } from '../documents/service.ts';
import { recordEvent } from '../events/outbox.ts';
import { type LimitRequestView, presentLimitRequest } from './presenter.ts';
import * as repo from './repo.ts';
import { type LimitAmounts, type LimitAmountsInput, validateRequestedLimits } from './rules.ts';

export type CreateLimitRequestInput = {
  requested: LimitAmountsInput;
  supportingDocumentType?: SupportingDocumentType | undefined;
  supportingDocumentId?: string | undefined;
};

/** Every problem of the body at once: the amounts, and the supporting document given as a pair. */
function validate(input: CreateLimitRequestInput): LimitAmounts {
  const errors: FieldError[] = [];
  const limits = validateRequestedLimits(input.requested, '/body/requested');
  if (!limits.ok) errors.push(...limits.errors);
  const hasType = input.supportingDocumentType !== undefined;
  const hasId = input.supportingDocumentId !== undefined;
  if (hasType && !hasId) {
    errors.push({
      pointer: '/body/supportingDocumentId',
      message: 'is required with supportingDocumentType',
    });
  }
  if (hasId && !hasType) {
    errors.push({
      pointer: '/body/supportingDocumentType',
      message: 'is required with supportingDocumentId',
    });
  }
  if (!limits.ok || errors.length > 0) {
    throw new AppError('invalid_request', 'The request body is invalid', { errors });
  }
  return limits.amounts;
}

export function createLimitRequestService(deps: { db: Database; clock: Clock }) {
  const { db, clock } = deps;
  const read = repo.limitRequestReader(db);
  const readPage = repo.limitRequestPageReader(db);

  /**
   * Opens a request for review. The customer row is locked so that requests of one customer are
   * created one at a time; the partial unique index keeps a second IN_REVIEW request out regardless.
   */
  async function create(
    tenant: Tenant,
    customerId: string,
    input: CreateLimitRequestInput,
  ): Promise<LimitRequestView> {
    const requested = validate(input);
    return db.transaction(async (tx) => {
      const customer = await lockCustomer(tx, tenant, customerId);
      if (!customer) throw notFound('Customer');
      if (input.supportingDocumentId !== undefined) {
        const problem = await supportingDocumentProblem(tx, tenant, customer.id, input.supportingDocumentId);
        if (problem) {
          throw new AppError('invalid_request', 'The request body is invalid', { errors: [problem] });
        }
      }
      if (customer.verification_status !== 'APPROVED') {
        throw new AppError(
          'customer_not_approved',
          `The customer's verification is ${customer.verification_status}; limit requests need an APPROVED customer`,
        );
      }
      const now = clock();
      const row: repo.LimitRequestRow = {
        id: newId(),
        customer_id: customer.id,
        project_id: tenant.projectId,
        environment: tenant.environment,
        requested_single: requested.single,
        requested_daily: requested.daily,
        requested_monthly: requested.monthly,
        approved_single: null,
        approved_daily: null,
        approved_monthly: null,
        supporting_document_type: input.supportingDocumentType ?? null,
        supporting_document_id: input.supportingDocumentId?.toLowerCase() ?? null,
        status: 'IN_REVIEW',
        review_comment: null,
        created_at: now,
        updated_at: now,
      };
      if (!(await repo.insertLimitRequestUnlessInReview(tx, row))) {
        throw new AppError(
          'limit_request_in_review',
          'The customer already has a limit request in review; a new one can be made once it is reviewed',
        );
      }
      const view = presentLimitRequest(row);
      await recordEvent(tx, {
        tenant,
        type: 'limit_request.created',
        resourceType: 'limit_request',
        resourceId: row.id,
        data: view,
        at: now,
      });
      return view;
    });
  }

  async function get(tenant: Tenant, customerId: string, id: string): Promise<LimitRequestView> {
    const row = await read({ tenant, customerId, id });
    if (!row) throw notFound('Limit request');
    return presentLimitRequest(row);
  }

  async function list(
    tenant: Tenant,
    customerId: string,
    page: PageRequest,
  ): Promise<PageResult<LimitRequestView>> {
    const { rows, total } = await readPage({ tenant, customerId, window: listWindow(page) });
    if (total === undefined) throw notFound('Customer');
    return pageResult(page, rows.map(presentLimitRequest), total);
  }

  /** Every request of the tenant, newest first, each with its customer's name. */
  async function listForTenant(tenant: Tenant, page: PageRequest) {
    const { rows, total } = await repo.listTenantLimitRequests(db, tenant, page.limit, page.offset);
    return pageResult(
      page,
      rows.map((row) => ({ ...presentLimitRequest(row), customerName: row.customer_name })),
      total,
    );
  }

  return { create, get, list, listForTenant };
}
