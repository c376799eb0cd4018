/**
 * The filters of a transaction list (the dashboard's, the operator's search) as SQL, shared by the two
 * tables transactions live in: on- and off-ramps, and on-chain transfers and deposits.
 */
import type { Cursor } from '../core/pagination.ts';
import type { Environment, Tenant } from '../lib/environment.ts';

/** What a list may be narrowed to; every field left out matches everything. */
export type ListFilter = {
  customerId?: string | undefined;
  status?: string | undefined;
  type?: string | undefined;
  /** The currency the transaction is requested in (an on-ramp's BRL, an off-ramp's source). */
  currency?: string | undefined;
  /** Created at or after. */
  createdFrom?: Date | undefined;
  /** Created strictly before. */
  createdBefore?: Date | undefined;
  id?: string | undefined;
  /** Only the transactions after this one in the list's order (a keyset page). */
  after?: Cursor | undefined;
};

/** Whose transactions: one tenant, or for the platform's staff any project and environment. */
export type Scope = { projectId?: string | undefined; environment?: Environment | undefined };

/**
 * The WHERE clause of a list, with only the conditions that apply (so the planner sees plain equalities).
 * `customerColumns` names the columns a customer filter matches, any of them.
 */
export function listConditions(
  scope: Scope,
  filter: ListFilter,
  customerColumns: readonly string[] = ['customer_id'],
): { where: string; params: unknown[] } {
  const conditions: string[] = [];
  const params: unknown[] = [];
  const add = (sql: (placeholder: string) => string, value: unknown) => {
    if (value === undefined || value === null || value === '') return;
    params.push(value);
    conditions.push(sql(`$${params.length}`));
  };
  add((p) => `project_id = ${p}`, scope.projectId);
  add((p) => `environment = ${p}`, scope.environment);
  add(
    (p) => `(${customerColumns.map((column) => `${column} = ${p}::uuid`).join(' OR ')})`,
    filter.customerId,
  );
  add((p) => `status = ${p}`, filter.status);
  add((p) => `type = ${p}`, filter.type);
  add((p) => `currency = ${p}`, filter.currency);
  add((p) => `created_at >= ${p}`, filter.createdFrom);
  add((p) => `created_at < ${p}`, filter.createdBefore);
  add((p) => `id = ${p}::uuid`, filter.id);
  if (filter.after) {
    params.push(filter.after.createdAt, filter.after.id);
    conditions.push(`(created_at, id) < ($${params.length - 1}::timestamptz, $${params.length}::uuid)`);
  }
  return { where: conditions.length > 0 ? conditions.join(' AND ') : 'true', params };
}

/** A page of a partner's transaction list, read from each table: the tenant's, or one customer's in it. */
export type ListPageRead = {
  tenant: Tenant;
  customerId: string | undefined;
  limit: number;
  /** A keyset page: the rows after this one. */
  after?: Cursor | undefined;
};

/** The customer `transaction_counts` keeps the count of every customer's transactions under. */
export const ALL_CUSTOMERS = '00000000-0000-0000-0000-000000000000';

/**
 * List pages read together (`read-batches.ts`), as the rows `r` of an `unnest`: `r.project_id`,
 * `r.environment`, `r.customer_id` (`ALL_CUSTOMERS` when the page is the tenant's) and `r.page_limit`.
 */
export const listPageReads = {
  unnest: 'unnest($1::uuid[], $2::text[], $3::uuid[], $4::int[])',
  columns: ['project_id', 'environment', 'customer_id', 'page_limit'],
  params: (reads: readonly ListPageRead[]) => [
    reads.map((read) => read.tenant.projectId),
    reads.map((read) => read.tenant.environment),
    reads.map((read) => read.customerId ?? ALL_CUSTOMERS),
    reads.map((read) => read.limit),
  ],
};

/** `listPageReads` for keyset pages: also `r.after_at` and `r.after_id`, the row the page follows. */
export const listPageReadsAfter = {
  unnest: 'unnest($1::uuid[], $2::text[], $3::uuid[], $4::int[], $5::timestamptz[], $6::uuid[])',
  columns: [...listPageReads.columns, 'after_at', 'after_id'],
  params: (reads: readonly ListPageRead[]) => [
    ...listPageReads.params(reads),
    reads.map((read) => read.after!.createdAt),
    reads.map((read) => read.after!.id),
  ],
};

/** The reads of a page by number, or by keyset. */
export const pageReads = (keyset: boolean) => (keyset ? listPageReadsAfter : listPageReads);

/**
 * The condition of a list page's rows (the table's alias `t`) on its read `r`: the read's tenant and,
 * for one customer's page, that customer on any of `customerColumns`.
 */
export function listPageConditions(
  ofCustomer: boolean,
  customerColumns: readonly string[] = ['customer_id'],
  keyset = false,
) {
  const tenant = `t.project_id = r.project_id AND t.environment = r.environment${
    keyset ? ' AND (t.created_at, t.id) < (r.after_at, r.after_id)' : ''
  }`;
  if (!ofCustomer) return tenant;
  return `${tenant} AND (${customerColumns.map((column) => `t.${column} = r.customer_id`).join(' OR ')})`;
}

/**
 * A list page reader choosing, per read, the statement built for the tenant's list or the one built for
 * one customer's (each planned for its own index), by page number or by keyset (a seek past a cursor).
 */
export function byListScope<Answer>(
  build: (ofCustomer: boolean, keyset: boolean) => (read: ListPageRead) => Promise<Answer>,
): (read: ListPageRead) => Promise<Answer> {
  const ofTenant = build(false, false);
  const ofCustomer = build(true, false);
  const ofTenantAfter = build(false, true);
  const ofCustomerAfter = build(true, true);
  return (read) =>
    (read.after
      ? read.customerId === undefined
        ? ofTenantAfter
        : ofCustomerAfter
      : read.customerId === undefined
        ? ofTenant
        : ofCustomer)(read);
}
