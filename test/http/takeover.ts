/**
 * The scenario of a retry that takes an Idempotency-Key over while the first request still runs, for any
 * POST that moves a customer's money under the customer's row lock: the customer's row is held by another
 * transaction for 75 s (of a fake clock); the request under key K is sent at 0 s and waits on it; a retry
 * with K at 30 s is answered 409 (in progress); a retry at 62 s takes the key over (the 60 s lease has
 * passed). When the row is let go, both executions run: only the one holding the key may commit.
 *
 * On PostgreSQL the first request waits on the row lock; on the embedded database (one connection, so
 * an open transaction holds every other statement back) it waits for the database itself, and the
 * claims of both retries are made before its transaction runs.
 */
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { IDEMPOTENCY_LOCK_LEASE_MS } from '../../src/http/idempotency-repo.ts';
import { type Client, client, startTestServer, type TestServer, usingPostgres } from '../helpers/server.ts';

export type TakeoverServer = { server: TestServer; sandbox: Client; advance(ms: number): void };

/** Claims of idempotency keys sent to the database so far (whether or not they ran yet), per server. */
const claims = new WeakMap<TestServer, { sent: number }>();

/** A server on a fake clock the scenario moves, counting the claims of keys it sends to the database. */
export async function startTakeoverServer(): Promise<TakeoverServer> {
  let offsetMs = 0;
  const clock = () => new Date(Date.now() + offsetMs);
  // the key stays cached: on the embedded database a lookup would wait for the held transaction
  const server = await startTestServer({ clock, env: { PONTE_API_KEY_CACHE_TTL_MS: '600000' } });
  const sandbox = client(server.sandbox, (await server.newTenant()).sandboxKey);
  const counter = { sent: 0 };
  claims.set(server, counter);
  const db = server.ctx.db;
  const query = db.query.bind(db);
  (db as { query: typeof db.query }).query = (text, params) => {
    if (text.includes('INSERT INTO idempotency_keys')) counter.sent++;
    return query(text, params);
  };
  return {
    server,
    sandbox,
    advance: (ms) => {
      offsetMs += ms;
    },
  };
}

async function until(condition: () => Promise<boolean> | boolean, what: string) {
  const deadline = Date.now() + 20_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`not reached: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Statements of this database waiting on a row lock (PostgreSQL only). */
async function lockWaiters(server: TestServer): Promise<number> {
  const rows = await server.ctx.db.query<{ n: bigint }>(
    `SELECT count(*) AS n FROM pg_stat_activity
      WHERE datname = current_database() AND wait_event_type = 'Lock'`,
  );
  return Number(rows[0]!.n);
}

/**
 * Runs the scenario on `send` (one request under one key) while `customerId`'s row is held; answers every
 * execution's answer once the row is let go: the first and the 62 s retry's (and the 30 s retry's on the
 * embedded database, where it ran after). On PostgreSQL the 30 s retry is checked here: 409 in progress.
 */
export async function takeOverWhileHeld(
  { server, advance }: TakeoverServer,
  customerId: string,
  send: () => Promise<LightMyRequestResponse>,
): Promise<LightMyRequestResponse[]> {
  const counter = claims.get(server)!;
  // another transaction holds the customer's row
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let holding!: () => void;
  const held = new Promise<void>((resolve) => {
    holding = resolve;
  });
  const holder = server.ctx.db.transaction(async (tx) => {
    await tx.query('SELECT id FROM customers WHERE id = $1 FOR UPDATE', [customerId]);
    holding();
    await released;
  });
  await held;

  const claimsBefore = counter.sent;
  const first = send();
  if (usingPostgres()) await until(async () => (await lockWaiters(server)) === 1, 'the first request waits');
  else await until(() => counter.sent === claimsBefore + 1, 'the first request claimed');

  advance(30_000);
  const early = send();
  if (usingPostgres()) {
    const answer = await early;
    expect(answer.statusCode).toBe(409);
    expect(answer.json().code).toBe('conflict');
  } else await until(() => counter.sent === claimsBefore + 2, 'the 30 s retry claimed');

  advance(IDEMPOTENCY_LOCK_LEASE_MS - 30_000 + 2_000); // 62 s
  const late = send();
  if (usingPostgres()) await until(async () => (await lockWaiters(server)) === 2, 'the 62 s retry waits');
  else await until(() => counter.sent === claimsBefore + 3, 'the 62 s retry claimed');

  advance(13_000); // 75 s: the row is let go
  release();
  await holder;
  return Promise.all([first, late, ...(usingPostgres() ? [] : [early])]);
}

/**
 * Every execution answered without a 5xx: at least one `status` answer, all of them the same resource,
 * every other one 409 `conflict`. Answers the one resource's answer.
 */
export function oneExecutionCommitted(answers: LightMyRequestResponse[], status: number) {
  for (const answer of answers) expect(answer.statusCode).toBeLessThan(500);
  const created = answers.filter((r) => r.statusCode === status);
  expect(created.length).toBeGreaterThanOrEqual(1);
  expect(new Set(created.map((r) => r.json().id)).size).toBe(1);
  for (const refused of answers.filter((r) => r.statusCode !== status)) {
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('conflict');
  }
  return created[0]!;
}
