import pg from 'pg';
import { runBeforeCommit } from './commit-hooks.ts';
import { StatementNames } from './statement-names.ts';
import { parseTimestamptz } from './timestamps.ts';
import type { Database, Queryable, Transaction, TxOptions } from './types.ts';

// int8 (counts, money in minor units) as bigint, never a lossy number.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => BigInt(value));
// dates (YYYY-MM-DD) stay strings: they are calendar dates, not instants.
pg.types.setTypeParser(pg.types.builtins.DATE, (value) => value);
// instants read by position (src/db/timestamps.ts), the driver's parser for any other shape
pg.types.setTypeParser(pg.types.builtins.TIMESTAMPTZ, parseTimestamptz);

const RETRYABLE = new Set(['40001', '40P01']); // serialization failure, deadlock detected
/**
 * Tries of a transaction that lost a serialization check or a deadlock, and of a connection the server
 * refused for want of one, each after a short random pause.
 */
const ATTEMPTS = 8;

/** A pause of up to 5·2^attempt ms (at most 320 ms), so that transactions that collided spread out. */
function backoff(attempt: number): Promise<void> {
  const ms = Math.random() * 5 * 2 ** Math.min(attempt, 6);
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export type PostgresOptions = {
  max?: number;
  /** The pause before the next try of a transaction or of a refused connection (tests pass their own). */
  pause?: (attempt: number) => Promise<void>;
  /**
   * Named (server-side prepared) statements: parsed and planned once per connection. Off behind a
   * pooler that hands a client a different server connection per transaction and does not track
   * prepared statements itself (PgBouncer before 1.21 in transaction mode, or with
   * max_prepared_statements = 0): there a statement prepared on one server connection is missing on
   * the next. Default on.
   */
  preparedStatements?: boolean;
  /**
   * The session settings of `Database.planOnce` (the `options` startup parameter). A server or pooler
   * that refuses them at connection (PgBouncer accepts in `options` only the parameters it tracks, unless
   * `track_extra_parameters` lists `plan_cache_mode`) leaves those reads on the main pool.
   */
  planOnceSettings?: string;
};

const PLAN_ONCE = '-c plan_cache_mode=force_generic_plan';

/** How long a lost listening session waits before connecting again. */
const LISTEN_RETRY_MS = 2_000;

/**
 * Listens on a dedicated client (a pooled one would go back to the pool and lose its LISTEN). A lost
 * connection is opened again, and `onNotify` is called once it is back, for what was missed meanwhile.
 */
async function listenOn(connectionString: string, channel: string, onNotify: () => void) {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`not a channel name: ${channel}`);
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;

  const open = async (): Promise<void> => {
    const next = new pg.Client({ connectionString, keepAlive: true, connectionTimeoutMillis: 5_000 });
    let lost = false;
    const reopen = () => {
      if (lost) return;
      lost = true;
      if (client === next) client = undefined;
      void next.end().catch(() => {});
      if (!stopped) retry = setTimeout(() => void open(), LISTEN_RETRY_MS);
    };
    next.on('error', reopen);
    next.on('end', reopen);
    next.on('notification', (message) => {
      if (message.channel === channel) onNotify();
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${channel}`);
    } catch {
      // the server is unreachable for now: polling goes on, and listening is tried again shortly
      reopen();
      return;
    }
    if (stopped) {
      await next.end().catch(() => {});
      return;
    }
    client = next;
    onNotify();
  };

  await open();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    const last = client;
    client = undefined;
    await last?.end().catch(() => {});
  };
}

/** Whether a connection was refused for the `planOnce` sessions' settings (`-c plan_cache_mode=...`). */
const refusedSettings = (error: unknown) =>
  /plan_cache_mode/.test((error as { message?: unknown }).message as string);
/**
 * Whether the server refused a new connection for want of one (`too_many_connections`: its
 * `max_connections`, or the role's or the database's connection limit). The refusal comes before any
 * statement ran.
 */
const noConnectionLeft = (error: unknown) => (error as { code?: unknown }).code === '53300';

export function connectPostgres(connectionString: string, options: PostgresOptions = {}): Database {
  const openPool = (settings: { max: number; options?: string }) => {
    const opened = new pg.Pool({
      connectionString,
      ...settings,
      idleTimeoutMillis: 30_000,
      // An unreachable server fails a request quickly instead of holding a pool slot indefinitely,
      // and dead connections are noticed by TCP keepalive.
      connectionTimeoutMillis: 5_000,
      keepAlive: true,
    });
    // An idle client losing its connection (server restart) must not crash the process; the pool drops
    // it and opens a new one on the next request, so the service recovers without a restart.
    opened.on('error', () => {});
    return opened;
  };
  const max = options.max ?? 20;
  const pause = options.pause ?? backoff;
  const pool = openPool({ max });

  /**
   * `work` again, after the pauses of a collided transaction, while the server refuses it a connection:
   * a refusal applied nothing, and other processes' connections come back within moments. Still refused
   * after every try, the error stands (answered 503, src/http/problem.ts).
   */
  async function whileRefused<T>(work: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await work();
      } catch (error) {
        if (!noConnectionLeft(error) || attempt >= ATTEMPTS) throw error;
      }
      await pause(attempt);
    }
  }

  // the sessions of `Database.planOnce`: only where statements stay prepared on their session
  const planOncePool =
    options.preparedStatements === false
      ? undefined
      : openPool({ max: Math.max(1, Math.ceil(max / 4)), options: options.planOnceSettings ?? PLAN_ONCE });

  // Only statements with parameters are named: a text without them may hold several statements,
  // which the extended protocol refuses.
  const names = options.preparedStatements === false ? undefined : new StatementNames();
  const queryable = (client: pg.PoolClient | pg.Pool): Queryable => ({
    async query<Row>(text: string, params?: readonly unknown[]) {
      const values = params as unknown[] | undefined;
      const name = names && values && values.length > 0 ? names.nameFor(text) : undefined;
      const result = name ? await client.query({ name, text, values }) : await client.query(text, values);
      return result.rows as Row[];
    },
  });

  async function transaction<T>(work: (tx: Transaction) => Promise<T>, options: TxOptions = {}): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const client = await whileRefused(() => pool.connect());
      let broken = false;
      // A connection lost while the transaction is between statements fails the transaction (its next
      // statement rejects) rather than the process (an unhandled 'error' event).
      const onError = () => {
        broken = true;
      };
      client.on('error', onError);
      try {
        await client.query(options.isolation ? `BEGIN ISOLATION LEVEL ${options.isolation}` : 'BEGIN');
        const tx: Transaction = {
          ...queryable(client),
          exec: async (script) => {
            await client.query(script);
          },
        };
        const result = await work(tx);
        await runBeforeCommit(tx, result);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        try {
          await client.query('ROLLBACK');
        } catch {
          broken = true;
        }
        const code = (error as { code?: string }).code;
        if (!code || !RETRYABLE.has(code) || attempt >= ATTEMPTS) throw error;
      } finally {
        client.removeListener('error', onError);
        client.release(broken);
      }
      await pause(attempt);
    }
  }

  /**
   * `Database.planOnce` on its pool, or on the main pool: for good once a connection was refused for its
   * settings (one failed connection, never a read), and for a read that found the server out of
   * connections.
   */
  function planningOnce(sessions: pg.Pool, main: Queryable): Queryable {
    const planning = queryable(sessions);
    let refused = false;
    return {
      async query<Row>(text: string, params?: readonly unknown[]) {
        if (refused) return main.query<Row>(text, params);
        try {
          return await planning.query<Row>(text, params);
        } catch (error) {
          // the server out of connections: this read goes on the main pool's, never failing for want of one
          if (noConnectionLeft(error)) return main.query<Row>(text, params);
          if (!refusedSettings(error)) throw error;
          refused = true;
          void sessions.end().catch(() => {});
          return main.query<Row>(text, params);
        }
      },
    };
  }

  const pooled = queryable(pool);
  const main: Queryable = {
    query: <Row>(text: string, params?: readonly unknown[]) =>
      whileRefused(() => pooled.query<Row>(text, params)),
  };
  return {
    kind: 'postgres',
    ...main,
    ...(planOncePool ? { planOnce: planningOnce(planOncePool, main) } : {}),
    transaction,
    async exec(script) {
      await pool.query(script);
    },
    // LISTEN needs a session of its own, held for the process's life: not behind a transaction-mode pooler
    listen: (channel, onNotify) => listenOn(connectionString, channel, onNotify),
    poolUsage: () => ({ inUse: pool.totalCount - pool.idleCount, waiting: pool.waitingCount, max }),
    async ping() {
      await pool.query('SELECT 1');
    },
    async close() {
      await Promise.all([pool.end(), planOncePool?.end().catch(() => {})]);
    },
  };
}
