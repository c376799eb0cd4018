/** What repositories see of the database: parameterised SQL in, rows out. */
export interface Queryable {
  query<Row = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<Row[]>;
}

/** An open transaction: statements plus multi-statement scripts (migrations). */
export interface Transaction extends Queryable {
  exec(script: string): Promise<void>;
}

export type TxOptions = { isolation?: 'read committed' | 'repeatable read' | 'serializable' };

export interface Database extends Queryable {
  readonly kind: 'postgres' | 'pglite';
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: Transaction) => Promise<T>, options?: TxOptions): Promise<T>;
  /** Runs a script of several statements (migrations); no parameters. */
  exec(script: string): Promise<void>;
  /**
   * Calls `onNotify` on every notification on `channel`, and once more after a lost listening session is
   * back (what was notified meanwhile is gone). Absent where notifications cannot arrive (PostgreSQL behind
   * a transaction-mode pooler). Resolves to a function that stops listening.
   */
  listen?(channel: string, onNotify: () => void): Promise<() => Promise<void>>;
  /**
   * Sessions for statements whose plan cannot depend on their parameters' values: the coalesced reads,
   * whose keys come as arrays unnested into the statement (`read-batches.ts`), so that PostgreSQL never
   * sees a key when it plans them. These sessions keep one plan per statement
   * (`plan_cache_mode = force_generic_plan`). Left to choose, PostgreSQL planned such a statement again
   * on every execution (its estimate for a short array always beat the generic plan's), and planning cost
   * more than running: 1.0 ms against 0.3 ms for a page of customers with their requirements. Absent
   * where statements are not kept prepared (behind a pooler, or embedded): the database itself serves.
   */
  readonly planOnce?: Queryable;
  /**
   * Connections of the pool in use (held by a statement or a transaction), waiting for one, and the most
   * it opens. Embedded, the one session: in use while a transaction holds it.
   */
  poolUsage?(): { inUse: number; waiting: number; max: number };
  /** Cheap round trip for readiness checks. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** Anything a repository can run a statement on: the database itself or an open transaction. */
export type Executor = Queryable;
