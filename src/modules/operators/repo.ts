/** Operator accounts and the audit log: SQL only. */
import type { Executor } from '../../db/types.ts';

export type OperatorAccountRow = { id: string; name: string; created_at: Date; revoked_at: Date | null };

export type AuditRow = {
  id: string;
  actor: string;
  action: string;
  resource_type: string;
  resource_id: string | null;
  before: unknown;
  after: unknown;
  created_at: Date;
};

export async function listOperators(
  db: Executor,
  limit: number,
  offset: number,
): Promise<{ rows: OperatorAccountRow[]; total: number }> {
  const [rows, count] = await Promise.all([
    db.query<OperatorAccountRow>(
      `SELECT id, name, created_at, revoked_at FROM operators
        ORDER BY created_at DESC, id DESC LIMIT $1 OFFSET $2`,
      [limit, offset],
    ),
    db.query<{ n: bigint }>('SELECT count(*) AS n FROM operators'),
  ]);
  return { rows, total: Number(count[0]!.n) };
}

export async function lockOperator(db: Executor, id: string): Promise<OperatorAccountRow | undefined> {
  const rows = await db.query<OperatorAccountRow>(
    'SELECT id, name, created_at, revoked_at FROM operators WHERE id = $1 FOR UPDATE',
    [id],
  );
  return rows[0];
}

export async function revokeOperator(db: Executor, id: string, at: Date): Promise<void> {
  await db.query('UPDATE operators SET revoked_at = $2 WHERE id = $1', [id, at]);
}

export type AuditFilter = {
  actorId?: string | undefined;
  action?: string | undefined;
  resourceType?: string | undefined;
  resourceId?: string | undefined;
};

/** Audit entries, newest first, optionally about one kind of action or one resource. */
export async function listAudit(
  db: Executor,
  filter: AuditFilter,
  limit: number,
  offset: number,
): Promise<{ rows: AuditRow[]; total: number }> {
  const params: unknown[] = [];
  const where: string[] = [];
  if (filter.actorId !== undefined) {
    // operator accounts are recorded as `operator:{id}:{name}` (audit.ts)
    params.push(`operator:${filter.actorId}:%`);
    where.push(`actor LIKE $${params.length}`);
  }
  for (const [column, value] of [
    ['action', filter.action],
    ['resource_type', filter.resourceType],
    ['resource_id', filter.resourceId],
  ] as const) {
    if (value === undefined) continue;
    params.push(value);
    where.push(`${column} = $${params.length}`);
  }
  const clause = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
  const [rows, count] = await Promise.all([
    db.query<AuditRow>(
      `SELECT id, actor, action, resource_type, resource_id, before, after, created_at FROM audit_log ${clause}
        ORDER BY created_at DESC, id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, limit, offset],
    ),
    db.query<{ n: bigint }>(`SELECT count(*) AS n FROM audit_log ${clause}`, params),
  ]);
  return { rows, total: Number(count[0]!.n) };
}

export async function insertOperator(
  db: Executor,
  row: OperatorAccountRow & { token_hash: string },
): Promise<void> {
  await db.query('INSERT INTO operators (id, name, token_hash, created_at) VALUES ($1, $2, $3, $4)', [
    row.id,
    row.name,
    row.token_hash,
    row.created_at,
  ]);
}

export async function findActiveOperatorByHash(
  db: Executor,
  hash: string,
): Promise<OperatorAccountRow | undefined> {
  const rows = await db.query<OperatorAccountRow>(
    'SELECT id, name, created_at, revoked_at FROM operators WHERE token_hash = $1 AND revoked_at IS NULL',
    [hash],
  );
  return rows[0];
}

export async function insertAudit(
  db: Executor,
  row: Omit<AuditRow, 'before' | 'after'> & { before: string | null; after: string | null },
): Promise<void> {
  await db.query(
    `INSERT INTO audit_log (id, actor, action, resource_type, resource_id, before, after, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      row.id,
      row.actor,
      row.action,
      row.resource_type,
      row.resource_id,
      row.before,
      row.after,
      row.created_at,
    ],
  );
}
