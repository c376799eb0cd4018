/** SQL of the request log: batched inserts, the partner's filtered reads, and pruning by age. */
import { firstIdAt } from '../../core/ids.ts';
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

/**
 * One statement for a whole batch, whatever its size: each column as one array, unnested into rows. Its
 * text never changes, so it is prepared once per connection (a multi-row VALUES list was parsed and
 * planned again for every batch, with eleven parameters per row).
 */
const INSERT = `INSERT INTO request_log (${COLUMNS.join(', ')})
  SELECT id, project_id, environment, api_key_id, method, path, status, latency_ms, request_id,
         problem::jsonb, created_at
    FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::uuid[], $5::text[], $6::text[], $7::int[],
                $8::int[], $9::text[], $10::text[], $11::timestamptz[])
      AS entry (${COLUMNS.join(', ')})`;

export async function insertEntries(db: Executor, rows: RequestLogRow[]): Promise<void> {
  if (rows.length === 0) return;
  const columns: unknown[][] = COLUMNS.map(() => new Array(rows.length));
  rows.forEach((row, i) => {
    columns[0]![i] = row.id;
    columns[1]![i] = row.project_id;
    columns[2]![i] = row.environment;
    columns[3]![i] = row.api_key_id;
    columns[4]![i] = row.method;
    columns[5]![i] = row.path;
    columns[6]![i] = row.status;
    columns[7]![i] = row.latency_ms;
    columns[8]![i] = row.request_id;
    columns[9]![i] = row.problem === null ? null : JSON.stringify(row.problem);
    columns[10]![i] = row.created_at.toISOString();
  });
  await db.query(INSERT, columns);
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

/**
 * Deletes up to `batch` entries older than `before`; returns how many went. Entries are found through the
 * primary key: an id is a v7 UUID minted when the entry was recorded, so every entry recorded before
 * `before` has an id below the first id of that moment.
 */
export async function deleteOlderThan(db: Executor, before: Date, batch: number): Promise<number> {
  const rows = await db.query<{ id: string }>(
    `DELETE FROM request_log WHERE id IN (
       SELECT id FROM request_log WHERE id < $1 AND created_at < $2 LIMIT $3 FOR UPDATE SKIP LOCKED)
     RETURNING id`,
    [firstIdAt(before), before, batch],
  );
  return rows.length;
}
