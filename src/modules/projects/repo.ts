import type { Executor } from '../../db/types.ts';
import type { Environment } from '../../lib/environment.ts';

export type ProjectRow = { id: string; name: string; created_at: Date };
export type ApiKeyRow = {
  id: string;
  project_id: string;
  environment: Environment;
  name: string | null;
  prefix: string;
  created_at: Date;
  revoked_at: Date | null;
};

export async function insertProject(db: Executor, row: ProjectRow): Promise<void> {
  await db.query('INSERT INTO projects (id, name, created_at) VALUES ($1, $2, $3)', [
    row.id,
    row.name,
    row.created_at,
  ]);
}

export async function findProject(db: Executor, id: string): Promise<ProjectRow | undefined> {
  const rows = await db.query<ProjectRow>('SELECT id, name, created_at FROM projects WHERE id = $1', [id]);
  return rows[0];
}

export async function countProjects(db: Executor): Promise<number> {
  const rows = await db.query<{ n: bigint }>('SELECT count(*) AS n FROM projects');
  return Number(rows[0]!.n);
}

export async function insertApiKey(db: Executor, row: ApiKeyRow & { key_hash: string }): Promise<void> {
  await db.query(
    `INSERT INTO api_keys (id, project_id, environment, name, prefix, key_hash, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [row.id, row.project_id, row.environment, row.name, row.prefix, row.key_hash, row.created_at],
  );
}

/** The active key with this hash, if any. */
export async function findActiveApiKeyByHash(db: Executor, hash: string): Promise<ApiKeyRow | undefined> {
  const rows = await db.query<ApiKeyRow>(
    `SELECT id, project_id, environment, name, prefix, created_at, revoked_at
       FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL`,
    [hash],
  );
  return rows[0];
}

export async function lockApiKey(
  db: Executor,
  id: string,
): Promise<(ApiKeyRow & { key_hash: string }) | undefined> {
  const rows = await db.query<ApiKeyRow & { key_hash: string }>(
    `SELECT id, project_id, environment, name, prefix, key_hash, created_at, revoked_at
       FROM api_keys WHERE id = $1 FOR UPDATE`,
    [id],
  );
  return rows[0];
}

export async function revokeApiKey(db: Executor, id: string, at: Date): Promise<void> {
  await db.query('UPDATE api_keys SET revoked_at = $2 WHERE id = $1', [id, at]);
}

/** A project's keys of one environment, newest first, revoked ones included. */
export async function listApiKeys(
  db: Executor,
  projectId: string,
  environment: Environment,
): Promise<ApiKeyRow[]> {
  return db.query<ApiKeyRow>(
    `SELECT id, project_id, environment, name, prefix, created_at, revoked_at
       FROM api_keys WHERE project_id = $1 AND environment = $2
      ORDER BY created_at DESC, id DESC LIMIT 200`,
    [projectId, environment],
  );
}

/** Every project, newest first. */
export async function listProjects(db: Executor, limit: number, offset: number): Promise<ProjectRow[]> {
  return db.query<ProjectRow>(
    'SELECT id, name, created_at FROM projects ORDER BY created_at DESC, id DESC LIMIT $1 OFFSET $2',
    [limit, offset],
  );
}

/** A row of the operators' audit log (`before` and `after` as JSON text, or null). */

/** The name customers see on the hosted pages, or null for neutral wording. */
export async function findDisplayName(db: Executor, id: string): Promise<string | null | undefined> {
  const rows = await db.query<{ display_name: string | null }>(
    'SELECT display_name FROM projects WHERE id = $1 FOR UPDATE',
    [id],
  );
  return rows[0]?.display_name;
}

export async function setDisplayName(db: Executor, id: string, displayName: string | null): Promise<void> {
  await db.query('UPDATE projects SET display_name = $2 WHERE id = $1', [id, displayName]);
}

const FIRST_RUN_LOCK = 7_270_002;

/** Serialises first runs until the transaction ends: one process at a time sets up an empty database. */
export async function lockFirstRun(tx: Executor): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock($1)', [FIRST_RUN_LOCK]);
}
