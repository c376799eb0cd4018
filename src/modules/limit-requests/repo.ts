import type { ListWindow } from '../../core/pagination.ts';
import { listPages, type Page } from '../../db/page-query.ts';
import { keyedReads } from '../../db/read-batches.ts';
import type { Executor } from '../../db/types.ts';
import type { Environment, Tenant } from '../../lib/environment.ts';
import type { SupportingDocumentType } from '../documents/kinds.ts';
import type { LimitAmounts, LimitRequestStatus } from './rules.ts';

export type LimitRequestRow = {
  id: string;
  customer_id: string;
  project_id: string;
  environment: Environment;
  requested_single: bigint | null;
  requested_daily: bigint | null;
  requested_monthly: bigint | null;
  approved_single: bigint | null;
  approved_daily: bigint | null;
  approved_monthly: bigint | null;
  supporting_document_type: SupportingDocumentType | null;
  supporting_document_id: string | null;
  status: LimitRequestStatus;
  review_comment: string | null;
  created_at: Date;
  updated_at: Date;
};

const COLUMNS = `id, customer_id, project_id, environment, requested_single, requested_daily, requested_monthly,
  approved_single, approved_daily, approved_monthly, supporting_document_type, supporting_document_id,
  status, review_comment, created_at, updated_at`;

/**
 * Inserts a request unless the customer already has one IN_REVIEW: the partial unique index
 * `limit_requests_one_in_review` decides, under any concurrency. Returns false when it refused.
 */
export async function insertLimitRequestUnlessInReview(db: Executor, row: LimitRequestRow): Promise<boolean> {
  const inserted = await db.query<{ id: string }>(
    `INSERT INTO limit_requests (${COLUMNS})
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)
     ON CONFLICT (customer_id) WHERE status = 'IN_REVIEW' DO NOTHING
     RETURNING id`,
    [
      row.id,
      row.customer_id,
      row.project_id,
      row.environment,
      row.requested_single,
      row.requested_daily,
      row.requested_monthly,
      row.approved_single,
      row.approved_daily,
      row.approved_monthly,
      row.supporting_document_type,
      row.supporting_document_id,
      row.status,
      row.review_comment,
      row.created_at,
      row.updated_at,
    ],
  );
  return inserted.length === 1;
}

/** Reads one request of a customer of the tenant, coalesced with the reads made meanwhile (`read-batches.ts`). */
export function limitRequestReader(
  db: Executor,
): (read: { tenant: Tenant; customerId: string; id: string }) => Promise<LimitRequestRow | undefined> {
  return keyedReads(db, {
    table: 'limit_requests',
    columns: COLUMNS,
    keys: [
      ['id', 'uuid'],
      ['customer_id', 'uuid'],
    ],
    values: (read) => [read.id, read.customerId],
  });
}

/**
 * A page of a customer's requests, newest first (served by the index `limit_requests_list`), and their
 * total, read from the per-customer count the database keeps, in one statement coalesced with the pages
 * asked for meanwhile (`batchedPages`). `total` is undefined when the customer is not one of the
 * tenant's.
 */
export function limitRequestPageReader(
  db: Executor,
): (read: { tenant: Tenant; customerId: string; window: ListWindow }) => Promise<Page<LimitRequestRow>> {
  return listPages(db, {
    keys: [
      ['customer_id', 'uuid'],
      ['project_id', 'uuid'],
      ['environment', 'text'],
    ],
    values: (read) => [read.customerId, read.tenant.projectId, read.tenant.environment],
    // LIMIT 1 (the customer's id is its key) keeps this a lookup by primary key for each page asked
    // for: flattened into the statement, the planner joined the pages to every customer of the
    // database by a hash join over a full scan of the table
    totalSql: `SELECT coalesce(k.total, 0) AS total
                 FROM customers c LEFT JOIN limit_request_counts k ON k.customer_id = c.id
                WHERE c.id = r.customer_id AND c.project_id = r.project_id AND c.environment = r.environment
                LIMIT 1`,
    pageSql: ({ after, tail }) => `SELECT ${COLUMNS} FROM limit_requests l
               WHERE l.customer_id = r.customer_id AND l.project_id = r.project_id
                 AND l.environment = r.environment${after('l')}
               ORDER BY l.created_at DESC, l.id DESC ${tail}`,
  });
}

/** Locks one request by id for its review (operators work across tenants). */
export async function lockLimitRequest(db: Executor, id: string): Promise<LimitRequestRow | undefined> {
  const rows = await db.query<LimitRequestRow>(
    `SELECT ${COLUMNS} FROM limit_requests WHERE id = $1 FOR UPDATE`,
    [id],
  );
  return rows[0];
}

export type LimitRequestReview = {
  status: Exclude<LimitRequestStatus, 'IN_REVIEW'>;
  approved: LimitAmounts;
  reviewComment: string | null;
  at: Date;
};

/** Writes the outcome of a review; the caller holds the row lock and has checked the transition. */
export async function updateLimitRequestReview(
  db: Executor,
  id: string,
  review: LimitRequestReview,
): Promise<LimitRequestRow> {
  const rows = await db.query<LimitRequestRow>(
    `UPDATE limit_requests
        SET status = $2, approved_single = $3, approved_daily = $4, approved_monthly = $5,
            review_comment = $6, updated_at = $7
      WHERE id = $1
      RETURNING ${COLUMNS}`,
    [
      id,
      review.status,
      review.approved.single,
      review.approved.daily,
      review.approved.monthly,
      review.reviewComment,
      review.at,
    ],
  );
  return rows[0]!;
}

/** Every limit request of the tenant, newest first, with its customer's name. */
export async function listTenantLimitRequests(
  db: Executor,
  tenant: Tenant,
  limit: number,
  offset: number,
): Promise<{ rows: (LimitRequestRow & { customer_name: string })[]; total: number }> {
  const [rows, count] = await Promise.all([
    db.query<LimitRequestRow & { customer_name: string }>(
      `SELECT ${COLUMNS.split(',')
        .map((column) => `r.${column.trim()}`)
        .join(', ')}, c.name AS customer_name
         FROM limit_requests r JOIN customers c ON c.id = r.customer_id
        WHERE r.project_id = $1 AND r.environment = $2
        ORDER BY r.created_at DESC, r.id DESC LIMIT $3 OFFSET $4`,
      [tenant.projectId, tenant.environment, limit, offset],
    ),
    db.query<{ n: bigint }>(
      'SELECT count(*) AS n FROM limit_requests WHERE project_id = $1 AND environment = $2',
      [tenant.projectId, tenant.environment],
    ),
  ]);
  return { rows, total: Number(count[0]!.n) };
}
