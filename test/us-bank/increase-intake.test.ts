/**
 * Dollars in at Increase, end to end against the bank simulator (driven through the official SDK): an
 * inbound ACH credit or wire is announced by a signed webhook (Standard Webhooks headers;
 * https://increase.com/documentation/webhooks), read back from Increase, applied once as a USD on-ramp,
 * and what Ponte cannot take is given back at the bank (an ACH return, a wire reversal). The sweep of
 * inbound transfers applies what lost webhooks never named
 * (https://increase.com/documentation/api/inbound-ach-transfers#list).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { intakeOf } from '../../src/modules/us-bank/module-deps.ts';
import { sweepIncrease } from '../../src/modules/us-bank/sweep.ts';
import type { IncreaseSimulations } from '../../src/rails/increase/simulations.ts';
import { approvedCustomer } from '../helpers/factories.ts';
import type { Client, TestServer } from '../helpers/server.ts';
import type { IncreaseSimulator } from '../increase/simulator.ts';
import { balances, settled, unbalanced } from '../off-ramp/support.ts';
import { openIncreaseSandbox } from './support.ts';

const SECRET = 'intake-webhook-secret';

let sim: IncreaseSimulator;
let simulate: IncreaseSimulations;
let server: TestServer;
let sandbox: Client;
let webhookUrl: string;

beforeAll(async () => {
  ({ sim, server, sandbox, webhookUrl, simulate } = await openIncreaseSandbox(SECRET));
});
afterEach(() => {
  expect(sim.violations).toEqual([]);
});
afterAll(async () => {
  await server.close();
  await sim.close();
});

/** An approved customer with a USD account, and the Increase account number it was given. */
async function accountAtIncrease() {
  const customer = await approvedCustomer(sandbox);
  const account = (await sandbox.post(`/customers/${customer.id}/accounts`, { currency: 'USD' })).json();
  const number = [...sim.accountNumbers.values()].find(
    (n) => n.idempotency_key === `customer-account-${account.id}`,
  );
  if (!number) throw new Error('no account number at the simulator');
  return { customer, account, numberId: number.id };
}

async function onRampsOf(customerId: string): Promise<{ id: string }[]> {
  return server.ctx.db.query("SELECT id FROM transactions WHERE customer_id = $1 AND type = 'ON_RAMP'", [
    customerId,
  ]);
}

async function recorded(bankTransferId: string) {
  const rows = await server.ctx.db.query<{ outcome: string; returned_at: Date | null }>(
    "SELECT outcome, returned_at FROM inbound_bank_transfers WHERE bank = 'INCREASE' AND bank_transfer_id = $1",
    [bankTransferId],
  );
  return rows[0];
}

const sweep = () => sweepIncrease(intakeOf(server.ctx, 'sandbox')!, 'sandbox');

describe('dollars in at Increase', () => {
  it('an ACH credit announced by webhook becomes a USD on-ramp, read back from Increase, credited once', async () => {
    const { customer, numberId } = await accountAtIncrease();
    const inbound = await simulate.inboundAch(numberId, 10_000n, 'ACME PAYROLL');
    await sim.settled();
    const [ramp] = await onRampsOf(customer.id);
    const done = await settled(sandbox, ramp!.id);
    expect(done).toMatchObject({
      status: 'SUCCESS',
      request: { currency: 'USD', amount: '100.00' },
      depositInstructions: { rail: 'ACH' },
      receipt: { targetAmount: '99.500000' },
    });
    expect(await balances(sandbox, customer.id)).toMatchObject({ USDC: '99.500000' });
    expect(await recorded(inbound.id)).toMatchObject({ outcome: 'APPLIED' });
    // the sweep finds the same transfer and applies nothing again
    await sweep();
    expect(await onRampsOf(customer.id)).toHaveLength(1);
    expect(await unbalanced(server)).toEqual([]);
  });

  it('a duplicated webhook applies the transfer once', async () => {
    const { customer, numberId } = await accountAtIncrease();
    sim.faults.duplicateWebhooks = 1;
    await simulate.inboundWire(numberId, 25_000n, 'GLOBEX LLC');
    await sim.settled();
    expect(await onRampsOf(customer.id)).toHaveLength(1);
  });

  it('webhooks delivered out of order (a return’s update before its creation) leave each transfer applied or returned once', async () => {
    const { customer, numberId } = await accountAtIncrease();
    sim.faults.holdWebhooks = true;
    const small = await simulate.inboundAch(numberId, 2_000n);
    const large = await simulate.inboundAch(numberId, 200_000n);
    sim.releaseWebhooks();
    await sim.settled();
    expect(await recorded(small.id)).toMatchObject({ outcome: 'APPLIED' });
    // the return Ponte made produced its own update event, delivered after the creations released above
    expect(await recorded(large.id)).toMatchObject({ outcome: 'RETURNED', returned_at: expect.any(Date) });
    expect(await onRampsOf(customer.id)).toHaveLength(1);
    expect(sim.inboundAch.get(large.id)?.status).toBe('returned');
  });

  it('a transfer whose webhook was lost is applied by the sweep, once', async () => {
    const { customer, numberId } = await accountAtIncrease();
    sim.faults.loseWebhooks = 1;
    const inbound = await simulate.inboundAch(numberId, 5_000n);
    await sim.settled();
    expect(await onRampsOf(customer.id)).toHaveLength(0);
    const first = await sweep();
    expect(first.taken).toBe(1);
    expect(await onRampsOf(customer.id)).toHaveLength(1);
    expect(await recorded(inbound.id)).toMatchObject({ outcome: 'APPLIED' });
    expect((await sweep()).taken).toBe(0);
    expect(await onRampsOf(customer.id)).toHaveLength(1);
  });

  it('an event before its object is readable answers 503, and the transfer is applied once readable', async () => {
    const { customer, numberId } = await accountAtIncrease();
    sim.faults.hideNextObjects = 1;
    await simulate.inboundAch(numberId, 3_000n);
    await sim.settled();
    expect(await onRampsOf(customer.id)).toHaveLength(0);
    sim.reveal();
    await sweep();
    expect(await onRampsOf(customer.id)).toHaveLength(1);
  });

  // https://increase.com/documentation/webhooks: a delivery answered other than 2xx is delivered again
  it('an event whose read-back Increase does not answer (5xx on every try) answers 503, moves nothing, and the transfer is applied once', async () => {
    const { customer, numberId } = await accountAtIncrease();
    sim.faults.holdWebhooks = true;
    const inbound = await simulate.inboundAch(numberId, 4_000n);
    const unavailable = sim.webhookAnswers.get('503') ?? 0;
    // the read-back and the SDK's two retries of it
    sim.faults.failNext = 3;
    sim.releaseWebhooks();
    await sim.settled();
    expect(sim.webhookAnswers.get('503') ?? 0).toBe(unavailable + 1);
    expect(await onRampsOf(customer.id)).toHaveLength(0);
    expect(await recorded(inbound.id)).toBeUndefined();
    await sweep();
    expect(await onRampsOf(customer.id)).toHaveLength(1);
    expect(await recorded(inbound.id)).toMatchObject({ outcome: 'APPLIED' });
  });

  // The return reasons Increase accepts for an inbound credit, and for a wire reversal, are its SDK's
  // (node_modules/increase/resources/inbound-ach-transfers.d.ts, InboundACHTransferTransferReturnParams:
  // `credit_entry_refused_by_receiver` is Nacha's R23; inbound-wire-transfers.d.ts,
  // InboundWireTransferReverseParams: `transaction_forbidden`).
  it('returns at Increase an ACH credit over the customer’s limit (R23) and reverses such a wire, booking nothing', async () => {
    const { customer, numberId } = await accountAtIncrease();
    // 2,000 USD is 11,000.00 BRL, over an individual's single limit of 7,500.00 BRL
    const ach = await simulate.inboundAch(numberId, 200_000n);
    const wire = await simulate.inboundWire(numberId, 300_000n);
    await sim.settled();
    expect(await onRampsOf(customer.id)).toHaveLength(0);
    expect(sim.inboundAch.get(ach.id)).toMatchObject({
      status: 'returned',
      transfer_return: { reason: 'credit_entry_refused_by_receiver' },
    });
    expect(sim.inboundWires.get(wire.id)).toMatchObject({
      status: 'reversed',
      reversal: { reason: 'transaction_forbidden' },
    });
    expect(await recorded(ach.id)).toMatchObject({ outcome: 'RETURNED', returned_at: expect.any(Date) });
    expect(await recorded(wire.id)).toMatchObject({ outcome: 'RETURNED', returned_at: expect.any(Date) });
    expect(await balances(sandbox, customer.id)).toMatchObject({ USD: '0.00' });
  });

  it('refuses a webhook whose signature does not verify (401) and reads nothing', async () => {
    const forged = await fetch(webhookUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'webhook-id': 'msg_forged',
        'webhook-timestamp': Math.floor(Date.now() / 1000).toString(),
        'webhook-signature': 'v1,bm90IGEgc2lnbmF0dXJl',
      },
      body: JSON.stringify({
        id: 'event_forged',
        associated_object_id: 'inbound_ach_transfer_forged',
        associated_object_type: 'inbound_ach_transfer',
        category: 'inbound_ach_transfer.created',
        created_at: new Date().toISOString(),
        type: 'event',
      }),
    });
    expect(forged.status).toBe(401);
    expect(forged.headers.get('content-type')).toContain('application/problem+json');
    const unsigned = await fetch(webhookUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(unsigned.status).toBe(401);
    // the object the forged event names was never asked for
    expect(sim.requests.filter((request) => request.path.includes('forged'))).toEqual([]);
  });
});
