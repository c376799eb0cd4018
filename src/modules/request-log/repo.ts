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

/** Entries waiting to be written, one array per column (one object per entry was a cost on every request). */
export type RequestLogBatch = {
  id: string[];
  projectId: string[];
  environment: string[];
  apiKeyId: (string | null)[];
  method: string[];
  path: string[];
  status: number[];
  latencyMs: number[];
  requestId: string[];
  /** The problem body as JSON text, or null. */
  problem: (string | null)[];
  /** ISO 8601 instants. */
  createdAt: string[];
};

export const emptyBatch = (): RequestLogBatch => ({
  id: [],
  projectId: [],
  environment: [],
  apiKeyId: [],
  method: [],
  path: [],
  status: [],
  latencyMs: [],
  requestId: [],
  problem: [],
  createdAt: [],
});

export async function insertEntries(db: Executor, batch: RequestLogBatch): Promise<void> {
  if (batch.id.length === 0) return;
  await db.query(INSERT, [
    batch.id,
    batch.projectId,
    batch.environment,
    batch.apiKeyId,
    batch.method,
    batch.path,
    batch.status,
    batch.latencyMs,
    batch.requestId,
    batch.problem,
    batch.createdAt,
  ]);
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
