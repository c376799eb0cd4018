/**
 * The filters of a transaction list (the dashboard's, the operator's search) as SQL, shared by the two
 * tables transactions live in: on- and off-ramps, and on-chain transfers and deposits.
 */
import type { Environment } from '../lib/environment.ts';

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
  return { where: conditions.length > 0 ? conditions.join(' AND ') : 'true', params };
}
