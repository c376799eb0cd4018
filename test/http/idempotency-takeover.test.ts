/**
 * One Idempotency-Key moves money once, even when a retry takes the key over while the first request is
 * still alive. The scenario: the sender's customer row is held by another transaction for 75 s (of a
 * fake clock); a transfer under key K is sent at 0 s and waits on it; a retry with K at 30 s is
 * answered 409 (in progress); a retry at 62 s takes the key over (the 60 s lease has passed). When the
 * row is let go, both executions run: only the one holding the key commits, the other is refused with
 * 409 and changes nothing.
 *
 * On PostgreSQL the first request waits on the row lock; on the embedded database (one connection, so
 * an open transaction holds every other statement back) it waits for the database itself, and the
 * claims of both retries are made before its transaction runs.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_LOCK_LEASE_MS } from '../../src/http/idempotency-repo.ts';
import { approvedCustomer } from '../helpers/factories.ts';
import { type Client, client, startTestServer, type TestServer, usingPostgres } from '../helpers/server.ts';
import { fund, totalOf } from '../wallets/support.ts';

let server: TestServer;
let sandbox: Client;
let offsetMs = 0;
const clock = () => new Date(Date.now() + offsetMs);

/** Claims of idempotency keys sent to the database so far (whether or not they ran yet). */
let claimsSent = 0;

beforeAll(async () => {
  // the key stays cached: on the embedded database a lookup would wait for the held transaction
  server = await startTestServer({ clock, env: { PONTE_API_KEY_CACHE_TTL_MS: '600000' } });
  sandbox = client(server.sandbox, (await server.newTenant()).sandboxKey);
  const db = server.ctx.db;
  const query = db.query.bind(db);
  (db as { query: typeof db.query }).query = (text, params) => {
    if (text.includes('INSERT INTO idempotency_keys')) claimsSent++;
    return query(text, params);
  };
});
afterAll(() => server.close());

async function until(condition: () => Promise<boolean> | boolean, what: string) {
  const deadline = Date.now() + 20_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`not reached: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Statements of this database waiting on a row lock (PostgreSQL only). */
async function lockWaiters(): Promise<number> {
  const rows = await server.ctx.db.query<{ n: bigint }>(
    `SELECT count(*) AS n FROM pg_stat_activity
      WHERE datname = current_database() AND wait_event_type = 'Lock'`,
  );
  return Number(rows[0]!.n);
}

describe('a retry that takes over an Idempotency-Key while the first request still runs', () => {
  it('moves the money once: one 201, the other execution refused with 409, balances exact', async () => {
    const [a, b] = await Promise.all([approvedCustomer(sandbox), approvedCustomer(sandbox)]);
    await fund(sandbox, a.id, '100.000000');
    const key = { 'idempotency-key': `transfer-${randomUUID()}` };
    const body = { currency: 'USDC', from: a.id, to: b.id, amount: '20.000000' };
    const send = () => sandbox.post('/transactions/transfer', body, key);

    // another transaction holds the sender's customer row
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let holding!: () => void;
    const held = new Promise<void>((resolve) => {
      holding = resolve;
    });
    const holder = server.ctx.db.transaction(async (tx) => {
      await tx.query('SELECT id FROM customers WHERE id = $1 FOR UPDATE', [a.id]);
      holding();
      await released;
    });
    await held;

    const claimsBefore = claimsSent;
    const first = send();
    if (usingPostgres()) await until(async () => (await lockWaiters()) === 1, 'the first request waits');
    else await until(() => claimsSent === claimsBefore + 1, 'the first request claimed');

    offsetMs += 30_000;
    const early = send();
    if (usingPostgres()) {
      const answer = await early;
      expect(answer.statusCode).toBe(409);
      expect(answer.json().code).toBe('conflict');
    } else await until(() => claimsSent === claimsBefore + 2, 'the 30 s retry claimed');

    offsetMs += IDEMPOTENCY_LOCK_LEASE_MS - 30_000 + 2_000; // 62 s
    const late = send();
    if (usingPostgres()) await until(async () => (await lockWaiters()) === 2, 'the 62 s retry waits');
    else await until(() => claimsSent === claimsBefore + 3, 'the 62 s retry claimed');

    offsetMs += 13_000; // 75 s: the row is let go
    release();
    await holder;
    const answers = await Promise.all([first, late, ...(usingPostgres() ? [] : [early])]);
    for (const answer of answers) expect(answer.statusCode).toBeLessThan(500);

    const created = answers.filter((r) => r.statusCode === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((r) => r.json().id)).size).toBe(1);
    for (const refused of answers.filter((r) => r.statusCode !== 201)) {
      expect(refused.statusCode).toBe(409);
      expect(refused.json().code).toBe('conflict');
    }
    expect(await totalOf(sandbox, a.id, 'USDC')).toBe('80.000000');
    expect(await totalOf(sandbox, b.id, 'USDC')).toBe('20.000000');
    const transfers = await server.ctx.db.query<{ n: bigint }>(
      `SELECT count(*) AS n FROM chain_transactions WHERE customer_id = $1 AND type = 'TRANSFER'`,
      [a.id],
    );
    expect(Number(transfers[0]!.n)).toBe(1);

    // a later retry gets the one answer again
    const replay = await send();
    expect(replay.statusCode).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json().id).toBe(created[0]!.json().id);
  }, 60_000);
});
