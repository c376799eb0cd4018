/** The WHERE clause of a review queue: a status, and optionally one project and environment. */
export type QueueFilter = {
  status: string;
  projectId?: string | undefined;
  environment?: string | undefined;
};

export function queueWhere(
  alias: string,
  statusColumn: string,
  filter: QueueFilter,
  extra: string[] = [],
): { where: string; params: unknown[] } {
  const params: unknown[] = [filter.status];
  const clauses = [`${alias}.${statusColumn} = $1`, ...extra];
  if (filter.projectId !== undefined) {
    params.push(filter.projectId);
    clauses.push(`${alias}.project_id = $${params.length}`);
  }
  if (filter.environment !== undefined) {
    params.push(filter.environment);
    clauses.push(`${alias}.environment = $${params.length}`);
  }
  return { where: clauses.join(' AND '), params };
}
