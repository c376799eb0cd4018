/**
 * Reads by key, coalesced: the group commit of `batches.ts`, for reads. A read runs at once when fewer
 * than `IN_FLIGHT` reads of its kind are under way; otherwise it waits for one of them to end and goes
 * with the others that arrived meanwhile, up to `SIZE`, as one statement. Under load, the fixed cost of a
 * statement (its round trip, its start in PostgreSQL and in the driver) is then paid once for several
 * reads; alone, a read is one statement as before, and no read waits for a timer.
 *
 * A read sees everything committed before it was made: the statement that answers it starts after it
 * arrived. Reads in a transaction do not come here (they run on the transaction's connection).
 *
 * A statement that fails answers none of its reads: each then runs again on its own, so that one read's
 * bad key fails that read alone.
 */

import type { Tenant } from '../lib/environment.ts';
import { createBatches } from './batches.ts';
import {
  type AnswersOf,
  type AnyReadFact,
  type CombinedFacts,
  type InputsOf,
  readEach,
} from './one-statement.ts';
import type { Database, Executor } from './types.ts';

/**
 * Where coalesced statements run: the sessions that plan each of them once (`Database.planOnce`; their
 * keys come in arrays, so no plan depends on them), or `db` itself where there are none.
 */
const plannedOnce = (db: Executor): Executor => (db as Partial<Pick<Database, 'planOnce'>>).planOnce ?? db;

/** Reads in one statement at most, and such statements under way at once per kind. */
const SIZE = 64;
const IN_FLIGHT = 4;

export type ReadBatchOptions<K> = {
  /**
   * One statement answering several reads, whatever their number (arrays as parameters, so that it is
   * prepared once): each row carries `read_index`, the 1-based place of its read among `keys`.
   */
  sql: string;
  /** The statement's parameters for these reads. */
  params: (keys: readonly K[]) => unknown[];
};

/** Reads answering rows, coalesced: each read gets its own rows, in the statement's order. */
export function batchedRows<K, Row>(
  db: Executor,
  { sql, params }: ReadBatchOptions<K>,
): (key: K) => Promise<(Row & { read_index: number })[]> {
  type Found = Row & { read_index: number };
  const sessions = plannedOnce(db);
  async function readAll(keys: K[]): Promise<Found[][]> {
    const found = Array.from({ length: keys.length }, (): Found[] => []);
    for (const row of await sessions.query<Found>(sql, params(keys))) found[row.read_index - 1]!.push(row);
    return found;
  }
  // no keyOf: reads never exclude each other, two reads of one row may share a statement
  const batches = createBatches<K, Found[]>({
    run: async (keys) => (await readAll(keys)).map((value) => ({ ok: true, value })),
    runOne: async (key) => (await readAll([key]))[0]!,
    size: SIZE,
    inFlight: IN_FLIGHT,
  });
  return (key) => batches.submit(key);
}

/** Reads answering one row each (or undefined, for a read without one), coalesced. */
export function batchedReads<K, Row>(
  db: Executor,
  options: ReadBatchOptions<K>,
): (key: K) => Promise<Row | undefined> {
  const rows = batchedRows<K, Row>(db, options);
  return async (key) => (await rows(key))[0];
}

export type KeyedReadOptions<K> = {
  /** The table read, and its columns answered (comma-separated). */
  table: string;
  columns: string;
  /** The row's own columns it is matched on, each with its SQL type, and a read's values for them. */
  keys: [column: string, type: string][];
  values: (read: K) => unknown[];
  /** A further condition on the row, over the table's alias `t` (`t.deleted_at IS NULL`). */
  where?: string;
  /**
   * A table joined to the row (`JOIN verifications v ON v.customer_id = t.id`) and the columns answered
   * from it, as written (`v.status AS verification_status`).
   */
  join?: { sql: string; columns: string };
};

/** The columns every partner read is scoped by, after the row's own: the read's tenant. */
const TENANT_KEYS: [column: string, type: string][] = [
  ['project_id', 'uuid'],
  ['environment', 'text'],
];

/**
 * Reads one row of a tenant by the values of its key columns (its id, and its customer where it has one),
 * coalesced: one statement joins the table to the reads' values on every key column and on the read's
 * own tenant (`project_id`, `environment`), so that no read can answer another tenant's row.
 */
export function keyedReads<K extends { tenant: Tenant }, Row>(
  db: Executor,
  { table, columns, keys, values, where, join }: KeyedReadOptions<K>,
): (read: K) => Promise<Row | undefined> {
  const all = [...keys, ...TENANT_KEYS];
  const own = columns
    .split(',')
    .map((column) => `t.${column.trim()}`)
    .join(', ');
  const answered = join ? `${own}, ${join.columns}` : own;
  const arrays = all.map(([, type], index) => `$${index + 1}::${type}[]`).join(', ');
  const names = all.map(([column]) => column).join(', ');
  const matches = all.map(([column]) => `t.${column} = r.${column}`).join(' AND ');
  return batchedReads(db, {
    sql: `SELECT r.read_index::int AS read_index, ${answered}
            FROM unnest(${arrays}) WITH ORDINALITY AS r (${names}, read_index)
            JOIN ${table} t ON ${matches}${join ? ` ${join.sql}` : ''}${where ? ` WHERE ${where}` : ''}`,
    params: (reads) => {
      const rows = reads.map((read) => [...values(read), read.tenant.projectId, read.tenant.environment]);
      return all.map((_, index) => rows.map((row) => row[index]));
    },
  });
}

/**
 * `readEach` coalesced: each read is one input of a `combinedFacts` statement (every fact read for it in
 * that statement), and the reads made together share one statement, their inputs its rows.
 */
export function batchedFacts<Facts extends Record<string, AnyReadFact>>(
  db: Executor,
  combined: CombinedFacts<Facts>,
): (input: InputsOf<Facts>) => Promise<AnswersOf<Facts>> {
  const sessions = plannedOnce(db);
  const batches = createBatches<InputsOf<Facts>, AnswersOf<Facts>>({
    run: async (inputs) => (await readEach(sessions, combined, inputs)).map((value) => ({ ok: true, value })),
    runOne: async (input) => (await readEach(sessions, combined, [input]))[0]!,
    size: SIZE,
    inFlight: IN_FLIGHT,
  });
  return (input) => batches.submit(input);
}
