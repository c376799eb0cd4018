/** SQL of review cases (a subject on hold while its case is OPEN) and of cleared matches. */
import type { Executor } from '../../db/types.ts';
import type { Environment } from '../../lib/environment.ts';

import type { CaseStatus, SubjectType } from '../offers.ts';

export type { CaseStatus, SubjectType };
export type CaseReason = 'NAME_MATCH' | 'ADDRESS_MATCH' | 'STRUCTURING';

/** One list entry a subject matched, as the case keeps it. */
export type CaseMatch = {
  entryId: string;
  versionId: string;
  source: string;
  sourceUid: string;
  primaryName: string;
  matchedName: string;
  score: number;
  nameScore: number;
  factors: string[];
};

export type CaseRow = {
  id: string;
  project_id: string;
  environment: Environment;
  subject_type: SubjectType;
  subject_id: string;
  customer_id: string;
  reason: CaseReason;
  screened: Record<string, unknown>;
  matches: CaseMatch[];
  score: string;
  status: CaseStatus;
  decided_by: string | null;
  decision_comment: string | null;
  created_at: Date;
  updated_at: Date;
  decided_at: Date | null;
};

const COLUMNS = `id, project_id, environment, subject_type, subject_id, customer_id, reason, screened, matches, score,
  status, decided_by, decision_comment, created_at, updated_at, decided_at`;

export async function insertCase(db: Executor, row: CaseRow): Promise<void> {
  await db.query(
    `INSERT INTO screening_cases (${COLUMNS})
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)`,
    [
      row.id,
      row.project_id,
      row.environment,
      row.subject_type,
      row.subject_id,
      row.customer_id,
      row.reason,
      JSON.stringify(row.screened),
      JSON.stringify(row.matches),
      row.score,
      row.status,
      row.decided_by,
      row.decision_comment,
      row.created_at,
      row.updated_at,
      row.decided_at,
    ],
  );
}

export async function lockOpenCase(db: Executor, subjectType: SubjectType, subjectId: string) {
  const rows = await db.query<CaseRow>(
    `SELECT ${COLUMNS} FROM screening_cases WHERE subject_type = $1 AND subject_id = $2 AND status = 'OPEN' FOR UPDATE`,
    [subjectType, subjectId],
  );
  return rows[0];
}

export async function updateOpenCase(
  db: Executor,
  id: string,
  change: { screened: Record<string, unknown>; matches: CaseMatch[]; score: string },
  at: Date,
): Promise<void> {
  await db.query(
    `UPDATE screening_cases SET screened = $2, matches = $3, score = $4, updated_at = $5 WHERE id = $1`,
    [id, JSON.stringify(change.screened), JSON.stringify(change.matches), change.score, at],
  );
}

export async function lockCase(db: Executor, id: string): Promise<CaseRow | undefined> {
  const rows = await db.query<CaseRow>(`SELECT ${COLUMNS} FROM screening_cases WHERE id = $1 FOR UPDATE`, [
    id,
  ]);
  return rows[0];
}

export async function findCase(db: Executor, id: string): Promise<CaseRow | undefined> {
  const rows = await db.query<CaseRow>(`SELECT ${COLUMNS} FROM screening_cases WHERE id = $1`, [id]);
  return rows[0];
}

export async function decideCase(
  db: Executor,
  id: string,
  decision: { status: 'CLEARED' | 'CONFIRMED'; by: string; comment: string },
  at: Date,
): Promise<CaseRow> {
  const rows = await db.query<CaseRow>(
    `UPDATE screening_cases SET status = $2, decided_by = $3, decision_comment = $4, decided_at = $5, updated_at = $5
      WHERE id = $1 RETURNING ${COLUMNS}`,
    [id, decision.status, decision.by, decision.comment, at],
  );
  return rows[0]!;
}

export async function insertClearances(db: Executor, row: CaseRow, at: Date): Promise<void> {
  const name = String(row.screened.name ?? row.screened.address ?? '');
  await db.query(
    `INSERT INTO screening_clearances (subject_type, subject_id, source, source_uid, screened_name, case_id, created_at)
     SELECT $1, $2, m.source, m.source_uid, $3, $4, $5
       FROM jsonb_to_recordset($6::jsonb) AS m(source text, source_uid text)
     ON CONFLICT DO NOTHING`,
    [
      row.subject_type,
      row.subject_id,
      name,
      row.id,
      at,
      JSON.stringify(row.matches.map((m) => ({ source: m.source, source_uid: m.sourceUid }))),
    ],
  );
}

/** The list entries (source and uid) an operator cleared for this subject under this name. */
export async function clearedFor(db: Executor, subjectType: SubjectType, subjectId: string, name: string) {
  const rows = await db.query<{ source: string; source_uid: string }>(
    `SELECT source, source_uid FROM screening_clearances
      WHERE subject_type = $1 AND subject_id = $2 AND screened_name = $3`,
    [subjectType, subjectId, name],
  );
  return new Set(rows.map((row) => `${row.source}:${row.source_uid}`));
}

/** Which of these customers, and of this bank account, are held: open cases that hold movements. */
export async function openHolds(
  db: Executor,
  customerIds: readonly string[],
  bankAccountIds: readonly string[],
): Promise<CaseRow[]> {
  return personCases(db, ['OPEN'], customerIds, bankAccountIds);
}

/** The cases in these statuses of these customers (themselves, their parties) and bank accounts' holders. */
export async function personCases(
  db: Executor,
  statuses: readonly CaseStatus[],
  customerIds: readonly string[],
  bankAccountIds: readonly string[],
): Promise<CaseRow[]> {
  return db.query<CaseRow>(
    `SELECT ${COLUMNS} FROM screening_cases
      WHERE status = ANY($3::text[])
        AND ((customer_id = ANY($1::uuid[]) AND subject_type IN ('CUSTOMER', 'ASSOCIATED_PARTY'))
          OR (subject_type = 'BANK_ACCOUNT_HOLDER' AND subject_id = ANY($2::uuid[])))`,
    [customerIds, bankAccountIds, statuses],
  );
}

/**
 * Shares the customers' row locks (in id order): a case being opened or decided under one of them is
 * waited for, then seen; money movements of the customers, which only read, are not held up by another.
 */
export async function shareCustomerRows(db: Executor, customerIds: readonly string[]): Promise<void> {
  await db.query(`SELECT id FROM customers WHERE id = ANY($1::uuid[]) ORDER BY id FOR SHARE`, [customerIds]);
}

export async function listCases(
  db: Executor,
  filter: { status: CaseStatus; subjectId?: string | undefined; customerId?: string | undefined },
  limit: number,
  offset: number,
): Promise<{ rows: CaseRow[]; total: number }> {
  const where = `status = $1 AND ($2::uuid IS NULL OR subject_id = $2::uuid) AND ($3::uuid IS NULL OR customer_id = $3::uuid)`;
  const params = [filter.status, filter.subjectId ?? null, filter.customerId ?? null];
  const [rows, count] = await Promise.all([
    db.query<CaseRow>(
      `SELECT ${COLUMNS} FROM screening_cases WHERE ${where} ORDER BY created_at, id LIMIT $4 OFFSET $5`,
      [...params, limit, offset],
    ),
    db.query<{ n: bigint }>(`SELECT count(*) AS n FROM screening_cases WHERE ${where}`, params),
  ]);
  return { rows, total: Number(count[0]!.n) };
}

/** The open cases of some subjects (for presenting hold reasons). */
export async function openCasesOf(db: Executor, subjectIds: readonly string[]): Promise<CaseRow[]> {
  return db.query<CaseRow>(
    `SELECT ${COLUMNS} FROM screening_cases WHERE status = 'OPEN' AND subject_id = ANY($1::uuid[])`,
    [subjectIds],
  );
}

export async function lockCustomerRow(db: Executor, customerId: string): Promise<void> {
  await db.query(`SELECT id FROM customers WHERE id = $1 FOR UPDATE`, [customerId]);
}
