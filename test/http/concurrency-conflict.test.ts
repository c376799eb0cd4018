/**
 * A serialization failure or deadlock that outlasts the database driver's retries is answered 409
 * `conflict` with Retry-After, never 5xx: nothing was applied, and the Idempotency-Key is given back so
 * that sending the same request again runs it.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/types.ts';
import { approvedCustomer } from '../helpers/factories.ts';
import { type Client, client, startTestServer, type TestServer } from '../helpers/server.ts';
import { fund, totalOf } from '../wallets/support.ts';

let server: TestServer;
let sandbox: Client;

beforeAll(async () => {
  server = await startTestServer();
  sandbox = client(server.sandbox, (await server.newTenant()).sandboxKey);
});
afterAll(() => server.close());

describe('concurrent changes that outlast the retries', () => {
  it('answers 409 with Retry-After, moves nothing, and lets the same key run again', async () => {
    const [a, b] = [await approvedCustomer(sandbox), await approvedCustomer(sandbox)];
    await fund(sandbox, a.id, '10.000000');
    const body = { currency: 'USDC', from: a.id, to: b.id, amount: '4.000000' };
    const key = { 'idempotency-key': `conflict-${randomUUID()}` };

    // every transaction of the next request loses a deadlock, as the last of the driver's tries would
    const db = server.ctx.db as Database;
    const transaction = db.transaction;
    db.transaction = (async () => {
      throw Object.assign(new Error('deadlock detected'), { code: '40P01' });
    }) as Database['transaction'];
    let refused: Awaited<ReturnType<Client['post']>>;
    try {
      refused = await sandbox.post('/transactions/transfer', body, key);
    } finally {
      db.transaction = transaction;
    }
    expect(refused.statusCode).toBe(409);
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.json()).toMatchObject({ code: 'conflict' });
    expect(JSON.stringify(refused.json())).not.toMatch(/deadlock|40P01/);
    expect(await totalOf(sandbox, a.id, 'USDC')).toBe('10.000000');

    const again = await sandbox.post('/transactions/transfer', body, key);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    expect(await totalOf(sandbox, a.id, 'USDC')).toBe('6.000000');
    expect(await totalOf(sandbox, b.id, 'USDC')).toBe('4.000000');
  });
});
