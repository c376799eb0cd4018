/**
 * A page of rows and their exact total in one statement, one round trip and one pooled connection:
 *
 *   SELECT t.total, p.* FROM (<total>) t LEFT JOIN LATERAL (<page>) p ON true
 *
 * `totalSql` answers one row with a `total` column, or none when the list's owner does not exist (the
 * answer's `total` is then undefined); `pageSql` answers the page, and must select an `id`. A page past
 * the end comes back as the total alone. Both share `params`.
 */
import { byKeyset, type ListWindow, type PageRequest } from '../core/pagination.ts';
import type { AnyReadFact } from './one-statement.ts';
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
  /**
   * A fact read for each row of the page in the same statement, its one parameter (`$1`) the row's `id`:
   * its columns join the row's (what would otherwise be a second statement after the page).
   */
  perRow?: AnyReadFact | undefined;
};

/**
 * `queryPage` for pages read outside a transaction, coalesced with the pages of its kind asked for
 * meanwhile (`read-batches.ts`): one statement for several pages, each with its own total.
 */
export function batchedPages<K, Row extends { id: unknown }>(
  db: Executor,
  { reads, totalSql, pageSql, params, perRow }: PageBatchOptions<K>,
): (key: K) => Promise<Page<Row>> {
  const page = `SELECT q.*, row_number() OVER () AS page_position FROM (${pageSql}) q`;
  const rows = perRow
    ? `SELECT o.*, f.* FROM (${page}) o LEFT JOIN LATERAL (${perRow.text.replace(/\$1\b/g, 'o.id')}) f ON true`
    : page;
  const read = batchedRows<K, Found<Row>>(db, {
    sql: `SELECT r.read_index::int AS read_index, t.total AS page_total, p.*
            FROM ${reads.unnest} WITH ORDINALITY AS r (${reads.columns.join(', ')}, read_index)
            CROSS JOIN LATERAL (${totalSql}) t
            LEFT JOIN LATERAL (${rows}) p ON true
           ORDER BY r.read_index, p.page_position`,
    params,
  });
  return async (key) => pageOf(await read(key));
}

/**
 * The part of a list statement that places its page, for lists read with placeholders: by number, an
 * OFFSET; by keyset, a seek past the cursor on the list's index (`created_at`, `id`), `limit + 1` rows
 * so that the answer knows whether more follow. `and` goes into the WHERE clause, `tail` after ORDER BY;
 * `params` continue the statement's own, whose count is `before`.
 */
export function pageWindow(
  request: PageRequest,
  alias: string,
  before: number,
): { and: string; tail: string; params: unknown[] } {
  const column = (name: string) => (alias ? `${alias}.${name}` : name);
  if (request.after) {
    return {
      and: ` AND (${column('created_at')}, ${column('id')}) < ($${before + 1}::timestamptz, $${before + 2}::uuid)`,
      tail: `LIMIT $${before + 3}`,
      params: [request.after.createdAt, request.after.id, request.limit + 1],
    };
  }
  return {
    and: '',
    tail: `LIMIT $${before + 1} OFFSET $${before + 2}`,
    params: [byKeyset(request) ? request.limit + 1 : request.limit, request.offset],
  };
}

export type ListPageOptions<K> = {
  /** The columns of a read besides its window, with their types (`[['project_id', 'uuid'], ...]`). */
  keys: readonly (readonly [column: string, type: string])[];
  /** A read's values of those columns, in order. */
  values: (read: K) => unknown[];
  /** `batchedPages`' total, over the columns of `r`. */
  totalSql: string;
  /**
   * The page's statement over the columns of `r`, given the window: `after(alias)` to add to its WHERE
   * clause (empty when paged by number) and `tail` to put after its ORDER BY.
   */
  pageSql: (window: { after: (alias: string) => string; tail: string }) => string;
  /** `batchedPages`' fact read for each row of the page. */
  perRow?: AnyReadFact;
};

/**
 * `batchedPages` for a list paged by number or by keyset, each its own statement: the page-number one
 * exactly as it always was (LIMIT and OFFSET), the keyset one an index seek past `(r.after_at, r.after_id)`.
 */
export function listPages<K extends { window: ListWindow }, Row extends { id: unknown }>(
  db: Executor,
  options: ListPageOptions<K>,
): (read: K) => Promise<Page<Row>> {
  const build = (keyset: boolean) => {
    const window: (readonly [string, string, (read: K) => unknown])[] = keyset
      ? [
          ['page_limit', 'int', (read) => read.window.limit],
          ['after_at', 'timestamptz', (read) => read.window.after!.createdAt],
          ['after_id', 'uuid', (read) => read.window.after!.id],
        ]
      : [
          ['page_limit', 'int', (read) => read.window.limit],
          ['page_offset', 'int', (read) => read.window.offset],
        ];
    const columns = [...options.keys.map(([name, type]) => [name, type] as const), ...window];
    return batchedPages<K, Row>(db, {
      reads: {
        unnest: `unnest(${columns.map(([, type], i) => `$${i + 1}::${type}[]`).join(', ')})`,
        columns: columns.map(([name]) => name),
      },
      totalSql: options.totalSql,
      perRow: options.perRow,
      pageSql: options.pageSql(
        keyset
          ? {
              after: (alias) => ` AND (${alias}.created_at, ${alias}.id) < (r.after_at, r.after_id)`,
              tail: 'LIMIT r.page_limit',
            }
          : { after: () => '', tail: 'LIMIT r.page_limit OFFSET r.page_offset' },
      ),
      params: (reads) => {
        const keyValues = reads.map((read) => options.values(read));
        return [
          ...options.keys.map((_, i) => keyValues.map((values) => values[i])),
          ...window.map(([, , value]) => reads.map(value)),
        ];
      },
    });
  };
  const byNumber = build(false);
  const byCursor = build(true);
  return (read) => (read.window.after ? byCursor : byNumber)(read);
}
