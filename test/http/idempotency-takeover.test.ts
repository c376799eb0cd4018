/**
 * One Idempotency-Key moves money once, even when a retry takes the key over while the first request is
 * still alive: a transfer waiting on its sender's customer row while a retry at 62 s takes the key over
 * (the scenario: test/http/takeover.ts). When the row is let go, both executions run: only the one holding
 * the key commits, the other is refused with 409 and changes nothing.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvedCustomer } from '../helpers/factories.ts';
import { fund, totalOf } from '../wallets/support.ts';
import {
  oneExecutionCommitted,
  startTakeoverServer,
  type TakeoverServer,
  takeOverWhileHeld,
} from './takeover.ts';

let takeover: TakeoverServer;

beforeAll(async () => {
  takeover = await startTakeoverServer();
});
afterAll(() => takeover.server.close());

describe('a retry that takes over an Idempotency-Key while the first request still runs', () => {
  it('moves the money once: one 201, the other execution refused with 409, balances exact', async () => {
    const { server, sandbox } = takeover;
    const [a, b] = await Promise.all([approvedCustomer(sandbox), approvedCustomer(sandbox)]);
    await fund(sandbox, a.id, '100.000000');
    const key = { 'idempotency-key': `transfer-${randomUUID()}` };
    const body = { currency: 'USDC', from: a.id, to: b.id, amount: '20.000000' };
    const send = () => sandbox.post('/transactions/transfer', body, key);

    const answers = await takeOverWhileHeld(takeover, a.id, send);
    const created = oneExecutionCommitted(answers, 201);
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
    expect(replay.json().id).toBe(created.json().id);
  }, 60_000);
});
