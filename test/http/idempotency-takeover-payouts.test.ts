/**
 * Off-ramps and PIX payouts (a BRL balance paid out, a held deposit refunded) take their Idempotency-Key
 * through the same hook as transfers: a retry that takes the key over while the first request still waits
 * on the customer's row (test/http/takeover.ts) never pays out twice. Only the execution holding the key
 * commits; the other is refused with 409 and reserves nothing.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balances, customerWithAccount, offRamp } from '../off-ramp/support.ts';
import { createOnRamp } from '../transactions/support.ts';
import { fund } from '../wallets/support.ts';
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

const key = (what: string) => ({ 'idempotency-key': `${what}-${randomUUID()}` });

async function offRampsOf(customerId: string) {
  const rows = await takeover.server.ctx.db.query<{ n: bigint }>(
    `SELECT count(*) AS n FROM transactions WHERE customer_id = $1 AND type = 'OFF_RAMP'`,
    [customerId],
  );
  return Number(rows[0]!.n);
}

async function payoutsOf(transactionId: string) {
  const rows = await takeover.server.ctx.db.query<{ n: bigint }>(
    'SELECT count(*) AS n FROM pix_payouts WHERE transaction_id = $1',
    [transactionId],
  );
  return Number(rows[0]!.n);
}

/** A deposit of `paid` for an on-ramp of `requested`: FAILED, its BRL held in the customer's balance. */
async function heldDeposit(customerId: string, requested: string, paid: string) {
  const { sandbox } = takeover;
  const created = await createOnRamp(sandbox, customerId, requested);
  const failed = (await sandbox.post(`/sandbox/transactions/${created.id}/deposit`, { amount: paid })).json();
  expect(failed.status).toBe('FAILED');
  return failed as { id: string };
}

describe('a retry that takes over an Idempotency-Key of a payout while the first request still runs', () => {
  it('an off-ramp pays out once: one 201, the other execution refused with 409, the balance reserved once', async () => {
    const { sandbox } = takeover;
    const { customer, accountId } = await customerWithAccount(sandbox);
    await fund(sandbox, customer.id, '100.000000');
    const headers = key('off-ramp');
    const body = {
      customerId: customer.id,
      bankAccountId: accountId,
      sourceCurrency: 'USDC',
      sourceAmount: '20',
    };
    const send = () => offRamp(sandbox, body, headers);

    const created = oneExecutionCommitted(await takeOverWhileHeld(takeover, customer.id, send), 201);
    expect(await offRampsOf(customer.id)).toBe(1);
    expect((await balances(sandbox, customer.id)).USDC).toBe('80.000000');
    expect(await payoutsOf(created.json().id)).toBeLessThanOrEqual(1);

    const replay = await send();
    expect(replay.statusCode).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json().id).toBe(created.json().id);
  }, 60_000);

  it('a PIX payout of a BRL balance pays out once: one 201, the other execution refused with 409', async () => {
    const { sandbox } = takeover;
    const { customer, accountId } = await customerWithAccount(sandbox);
    // enough for both executions: only the key may stop the second
    await heldDeposit(customer.id, '100.00', '90.00');
    const headers = key('brl-payout');
    const body = {
      customerId: customer.id,
      bankAccountId: accountId,
      sourceCurrency: 'BRL',
      sourceAmount: '40.00',
    };
    const send = () => offRamp(sandbox, body, headers);

    const created = oneExecutionCommitted(await takeOverWhileHeld(takeover, customer.id, send), 201);
    expect(await offRampsOf(customer.id)).toBe(1);
    expect((await balances(sandbox, customer.id)).BRL).toBe('50.00');
    expect(await payoutsOf(created.json().id)).toBeLessThanOrEqual(1);

    const replay = await send();
    expect(replay.statusCode).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json().id).toBe(created.json().id);
  }, 60_000);

  it('a refund over PIX is sent once: one 200, the other execution refused with 409, one refund payout', async () => {
    const { sandbox } = takeover;
    const { customer } = await customerWithAccount(sandbox);
    const failed = await heldDeposit(customer.id, '100.00', '90.00');
    const headers = key('refund');
    const send = () => sandbox.post(`/transactions/${failed.id}/refund`, {}, headers);

    const refunded = oneExecutionCommitted(await takeOverWhileHeld(takeover, customer.id, send), 200);
    expect(refunded.json().refund).toMatchObject({ amount: '90.00' });
    expect((await balances(sandbox, customer.id)).BRL).toBe('0.00');
    expect(await payoutsOf(failed.id)).toBe(1);

    const replay = await send();
    expect(replay.statusCode).toBe(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json().refund).toMatchObject({ amount: '90.00' });
  }, 60_000);
});
