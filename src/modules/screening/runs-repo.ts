/** SQL of re-screening runs and of the subjects they walk, in id order, a page at a time. */
import { newId } from '../../core/ids.ts';
import type { Executor } from '../../db/types.ts';
import type { Environment } from '../../lib/environment.ts';

export type RunRow = {
  id: string;
  version_id: string;
  status: 'PENDING' | 'DONE';
  subject_type: string | null;
  cursor_id: string | null;
  screened: bigint;
  held: bigint;
};

export async function queueRun(db: Executor, versionId: string, at: Date): Promise<void> {
  await db.query(
    `INSERT INTO screening_runs (id, version_id, status, created_at, updated_at) VALUES ($1, $2, 'PENDING', $3, $3)`,
    [newId(), versionId, at],
  );
}

/** The oldest pending run no other worker holds, locked for this transaction. */
export async function claimRun(db: Executor): Promise<RunRow | undefined> {
  const rows = await db.query<RunRow>(
    `SELECT id, version_id, status, subject_type, cursor_id, screened, held FROM screening_runs
      WHERE status = 'PENDING' ORDER BY created_at, id LIMIT 1 FOR UPDATE SKIP LOCKED`,
  );
  return rows[0];
}

export async function advanceRun(
  db: Executor,
  id: string,
  step: {
    subjectType: string | null;
    cursorId: string | null;
    screened: number;
    held: number;
    done: boolean;
  },
  at: Date,
): Promise<void> {
  await db.query(
    `UPDATE screening_runs
        SET subject_type = $2, cursor_id = $3, screened = screened + $4, held = held + $5,
            status = CASE WHEN $6::boolean THEN 'DONE' ELSE 'PENDING' END,
            finished_at = CASE WHEN $6::boolean THEN $7::timestamptz END, updated_at = $7
      WHERE id = $1`,
    [id, step.subjectType, step.cursorId, step.screened, step.held, step.done, at],
  );
}

/** The run that re-screens every subject against `versionId`. */
export async function runOfVersion(db: Executor, versionId: string): Promise<RunRow | undefined> {
  const rows = await db.query<RunRow>(
    `SELECT id, version_id, status, subject_type, cursor_id, screened, held FROM screening_runs
      WHERE version_id = $1 ORDER BY created_at DESC LIMIT 1`,
    [versionId],
  );
  return rows[0];
}

/** How many subjects a run walks: customers, third-party holders of live accounts, live associated parties. */
export async function countSubjects(db: Executor): Promise<number> {
  const rows = await db.query<{ n: bigint | number | string }>(
    `SELECT (SELECT count(*) FROM customers)
          + (SELECT count(*) FROM bank_accounts WHERE deleted_at IS NULL AND holder_relationship <> 'SELF')
          + (SELECT count(*) FROM associated_parties WHERE deleted_at IS NULL) AS n`,
  );
  return Number(rows[0]!.n);
}

export async function recentRuns(db: Executor, limit: number) {
  return db.query<RunRow & { created_at: Date; finished_at: Date | null }>(
    `SELECT id, version_id, status, subject_type, cursor_id, screened, held, created_at, finished_at
       FROM screening_runs ORDER BY created_at DESC, id DESC LIMIT $1`,
    [limit],
  );
}

export type SubjectRow = {
  id: string;
  customer_id: string;
  project_id: string;
  environment: Environment;
  kind: 'INDIVIDUAL' | 'BUSINESS';
  name: string;
  birth_date: string | null;
  country: string | null;
};

/** Customers after `afterId`, in id order. */
export async function customerSubjects(
  db: Executor,
  afterId: string | null,
  limit: number,
): Promise<SubjectRow[]> {
  return db.query<SubjectRow>(
    `SELECT id, id AS customer_id, project_id, environment, type AS kind, name, birth_date::text AS birth_date, country
       FROM customers WHERE $1::uuid IS NULL OR id > $1::uuid ORDER BY id LIMIT $2`,
    [afterId, limit],
  );
}

/** Holders of live bank accounts other than the customer themself, after `afterId`, in id order. */
export async function holderSubjects(
  db: Executor,
  afterId: string | null,
  limit: number,
): Promise<SubjectRow[]> {
  return db.query<SubjectRow>(
    `SELECT id, customer_id, project_id, environment, holder_type AS kind, holder_legal_name AS name,
            NULL::text AS birth_date, holder_address->>'country' AS country
       FROM bank_accounts
      WHERE deleted_at IS NULL AND holder_relationship <> 'SELF' AND ($1::uuid IS NULL OR id > $1::uuid)
      ORDER BY id LIMIT $2`,
    [afterId, limit],
  );
}

/** Live associated parties of business customers, after `afterId`, in id order. */
export async function associatedPartySubjects(
  db: Executor,
  afterId: string | null,
  limit: number,
): Promise<SubjectRow[]> {
  return db.query<SubjectRow>(
    `SELECT id, customer_id, project_id, environment, type AS kind, name,
            birth_date::text AS birth_date, address->>'country' AS country
       FROM associated_parties
      WHERE deleted_at IS NULL AND ($1::uuid IS NULL OR id > $1::uuid)
      ORDER BY id LIMIT $2`,
    [afterId, limit],
  );
}
