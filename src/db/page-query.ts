/**
 * A page of rows and their exact total in one statement, one round trip and one pooled connection:
 *
 *   SELECT t.total, p.* FROM (<total>) t LEFT JOIN LATERAL (<page>) p ON true
 *
 * `totalSql` answers one row with a `total` column, or none when the list's owner does not exist (the
 * answer's `total` is then undefined); `pageSql` answers the page, and must select an `id`. A page past
 * the end comes back as the total alone. Both share `params`.
 */
import { batchedRows } from './read-batches.ts';
import type { Executor } from './types.ts';

export type Page<Row> = { rows: Row[]; total: number | undefined };

type Found<Row> = Row & { page_total: bigint | number | string; read_index?: number; page_position?: number };

/**
 * The page in the rows of the statement: the total on each, the page's columns null past its end. The
 * rows keep the statement's own columns (`page_total`, and a batch's `read_index` and `page_position`)
 * beside the page's: presenters name the fields they answer, and a copy of each row without them cost
 * 5% of a page's CPU.
 */
function pageOf<Row extends { id: unknown }>(found: Found<Row>[]): Page<Row> {
  if (found.length === 0) return { rows: [], total: undefined };
  const total = Number(found[0]!.page_total);
  const rows: Row[] = [];
  for (const row of found) if (row.id !== null) rows.push(row);
  return { rows, total };
}

export async function queryPage<Row extends { id: unknown }>(
  db: Executor,
  totalSql: string,
  pageSql: string,
  params: readonly unknown[],
): Promise<Page<Row>> {
  return pageOf(
    await db.query<Found<Row>>(
      `SELECT t.total AS page_total, p.* FROM (${totalSql}) t LEFT JOIN LATERAL (${pageSql}) p ON true`,
      params,
    ),
  );
}

export type PageBatchOptions<K> = {
  /**
   * The pages asked for, as the rows `r` of an `unnest` of the statement's array parameters (`unnest($1::uuid[],
   * $2::int[])`), and the names of its columns (`['customer_id', 'page_limit']`).
   */
  reads: { unnest: string; columns: string[] };
  /** `queryPage`'s two statements, over the columns of `r` (`r.customer_id`) rather than placeholders. */
  totalSql: string;
  pageSql: string;
  /** The arrays for these pages. */
  params: (keys: readonly K[]) => unknown[];
};

/**
 * `queryPage` for pages read outside a transaction, coalesced with the pages of its kind asked for
 * meanwhile (`read-batches.ts`): one statement for several pages, each with its own total.
 */
export function batchedPages<K, Row extends { id: unknown }>(
  db: Executor,
  { reads, totalSql, pageSql, params }: PageBatchOptions<K>,
): (key: K) => Promise<Page<Row>> {
  const read = batchedRows<K, Found<Row>>(db, {
    sql: `SELECT r.read_index::int AS read_index, t.total AS page_total, p.*
            FROM ${reads.unnest} WITH ORDINALITY AS r (${reads.columns.join(', ')}, read_index)
            CROSS JOIN LATERAL (${totalSql}) t
            LEFT JOIN LATERAL (SELECT q.*, row_number() OVER () AS page_position FROM (${pageSql}) q) p ON true
           ORDER BY r.read_index, p.page_position`,
    params,
  });
  return async (key) => pageOf(await read(key));
}
