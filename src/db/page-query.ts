/**
 * A page of rows and their exact total in one statement, one round trip and one pooled connection:
 *
 *   SELECT t.total, p.* FROM (<total>) t LEFT JOIN LATERAL (<page>) p ON true
 *
 * `totalSql` answers one row with a `total` column, or none when the list's owner does not exist (the
 * answer's `total` is then undefined); `pageSql` answers the page, and must select an `id`. A page past
 * the end comes back as the total alone. Both share `params`.
 */
import type { Executor } from './types.ts';

export async function queryPage<Row extends { id: unknown }>(
  db: Executor,
  totalSql: string,
  pageSql: string,
  params: readonly unknown[],
): Promise<{ rows: Row[]; total: number | undefined }> {
  const found = await db.query<Row & { page_total: bigint | number | string }>(
    `SELECT t.total AS page_total, p.* FROM (${totalSql}) t LEFT JOIN LATERAL (${pageSql}) p ON true`,
    params,
  );
  if (found.length === 0) return { rows: [], total: undefined };
  const total = Number(found[0]!.page_total);
  const rows: Row[] = [];
  for (const { page_total: _, ...row } of found) if (row.id !== null) rows.push(row as unknown as Row);
  return { rows, total };
}
