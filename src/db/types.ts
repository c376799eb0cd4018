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
  /** Cheap round trip for readiness checks. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** Anything a repository can run a statement on: the database itself or an open transaction. */
export type Executor = Queryable;
