/** SQL of the request log: batched inserts, the partner's filtered reads, and pruning by age. */
import type { Executor } from '../../db/types.ts';
import type { Tenant } from '../../lib/environment.ts';

export type RequestLogRow = {
  id: string;
  project_id: string;
  environment: string;
  api_key_id: string | null;
  method: string;
  path: string;
  status: number;
  latency_ms: number;
  request_id: string;
  problem: unknown;
  created_at: Date;
};

const COLUMNS = [
  'id',
  'project_id',
  'environment',
  'api_key_id',
  'method',
  'path',
  'status',
  'latency_ms',
  'request_id',
  'problem',
  'created_at',
] as const;

export async function insertEntries(db: Executor, rows: RequestLogRow[]): Promise<void> {
  if (rows.length === 0) return;
  const params: unknown[] = [];
  const tuples = rows.map((row) => {
    const start = params.length;
    params.push(
      row.id,
      row.project_id,
      row.environment,
      row.api_key_id,
      row.method,
      row.path,
      row.status,
      row.latency_ms,
      row.request_id,
      row.problem === null ? null : JSON.stringify(row.problem),
      row.created_at,
    );
    return `(${COLUMNS.map((_, index) => `$${start + index + 1}`).join(', ')})`;
  });
  await db.query(`INSERT INTO request_log (${COLUMNS.join(', ')}) VALUES ${tuples.join(', ')}`, params);
}

export type RequestLogFilter = {
  status?: 'success' | 'failure' | number | undefined;
  path?: string | undefined;
};

export async function listEntries(
  db: Executor,
  tenant: Tenant,
  filter: RequestLogFilter,
  limit: number,
  offset: number,
): Promise<{ rows: RequestLogRow[]; total: number }> {
  const params: unknown[] = [tenant.projectId, tenant.environment];
  const where = ['project_id = $1', 'environment = $2'];
  if (filter.status === 'success') where.push('status < 400');
  else if (filter.status === 'failure') where.push('status >= 400');
  else if (typeof filter.status === 'number') {
    params.push(filter.status);
    where.push(`status = $${params.length}`);
  }
  if (filter.path) {
    params.push(`%${filter.path.replace(/[\\%_]/g, (char) => `\\${char}`)}%`);
    where.push(`path LIKE $${params.length}`);
  }
  const clause = where.join(' AND ');
  const [rows, count] = await Promise.all([
    db.query<RequestLogRow>(
      `SELECT ${COLUMNS.join(', ')} FROM request_log WHERE ${clause}
        ORDER BY created_at DESC, id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, limit, offset],
    ),
    db.query<{ n: bigint }>(`SELECT count(*) AS n FROM request_log WHERE ${clause}`, params),
  ]);
  return { rows, total: Number(count[0]!.n) };
}

/** Deletes up to `batch` entries older than `before`; returns how many went. */
export async function deleteOlderThan(db: Executor, before: Date, batch: number): Promise<number> {
  const rows = await db.query<{ id: string }>(
    `DELETE FROM request_log WHERE id IN (
       SELECT id FROM request_log WHERE created_at < $1 LIMIT $2 FOR UPDATE SKIP LOCKED)
     RETURNING id`,
    [before, batch],
  );
  return rows.length;
}
