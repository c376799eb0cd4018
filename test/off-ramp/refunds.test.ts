import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, client, eventually } from '../helpers/server.ts';
import { createOnRamp, type IsolatedServer, startIsolatedServer } from '../transactions/support.ts';
import { balances, customerWithAccount, eventTypes, fund, offRamp, settled, unbalanced } from './support.ts';

let server: IsolatedServer;
let sandbox: Client;

beforeAll(async () => {
  server = await startIsolatedServer();
  sandbox = client(server.sandbox, (await server.newTenant()).sandboxKey);
});
afterAll(async () => {
  await server.close();
});

async function heldDeposit(customerId: string, requested: string, paid: string) {
  const created = await createOnRamp(sandbox, customerId, requested);
  const failed = (await sandbox.post(`/sandbox/transactions/${created.id}/deposit`, { amount: paid })).json();
  expect(failed.status).toBe('FAILED');
  return failed;
}

describe('POST /transactions/{id}/refund', () => {
  it('sends a wrong-amount deposit held for refund back to the payer; the refund is followed on the transaction', async () => {
    const { customer } = await customerWithAccount(sandbox);
    const failed = await heldDeposit(customer.id, '100.00', '90.00');
    expect(failed.refund).toBeNull();
    expect((await balances(sandbox, customer.id)).BRL).toBe('90.00');
    const response = await sandbox.post(`/transactions/${failed.id}/refund`, {});
    expect(response.statusCode).toBe(200);
    expect(response.json().refund).toMatchObject({ status: 'PENDING', amount: '90.00', failureReason: null });
    expect((await balances(sandbox, customer.id)).BRL).toBe('0.00');
    const done = await eventually(
      () => sandbox.get(`/transactions/${failed.id}`).then((r) => r.json()),
      (t) => t.refund.status !== 'PENDING',
    );
    expect(done.refund).toMatchObject({ status: 'SUCCESS', amount: '90.00' });
    expect(done.status).toBe('FAILED');
    const types = await eventTypes(server, failed.id);
    expect(types.slice(-2)).toEqual(['transaction.updated', 'transaction.updated']);
    expect((await sandbox.post(`/transactions/${failed.id}/refund`, {})).statusCode).toBe(409);
    expect(await unbalanced(server)).toEqual([]);
    const payouts = await server.ctx.db.query<{
      kind: string;
      status: string;
      refunded_end_to_end_id: string;
    }>('SELECT kind, status, refunded_end_to_end_id FROM pix_payouts WHERE transaction_id = $1', [failed.id]);
    expect(payouts).toEqual([
      { kind: 'REFUND', status: 'COMPLETED', refunded_end_to_end_id: expect.any(String) },
    ]);
  });

  it('refuses with 409 when nothing is held: a successful on-ramp, one still waiting, an off-ramp', async () => {
    const { customer, accountId } = await customerWithAccount(sandbox);
    await fund(sandbox, customer.id, '100.00');
    const list = (await sandbox.get(`/transactions?customerId=${customer.id}`)).json().data;
    const waiting = await createOnRamp(sandbox, customer.id, '10.00');
    const out = (
      await offRamp(sandbox, {
        customerId: customer.id,
        bankAccountId: accountId,
        sourceCurrency: 'USDC',
        sourceAmount: '1',
      })
    ).json();
    for (const id of [list[0].id, waiting.id, out.id]) {
      const response = await sandbox.post(`/transactions/${id}/refund`, {});
      expect(response.statusCode).toBe(409);
      expect(response.json().code).toBe('invalid_state_transition');
    }
    expect(
      (await sandbox.post('/transactions/0190b5a4-0000-7000-8000-000000000000/refund', {})).statusCode,
    ).toBe(404);
  });

  it("refuses with 422 insufficient_funds once the held BRL was paid out from the customer's BRL balance", async () => {
    const { customer, accountId } = await customerWithAccount(sandbox);
    const failed = await heldDeposit(customer.id, '50.00', '40.00');
    const paid = await offRamp(sandbox, {
      customerId: customer.id,
      bankAccountId: accountId,
      sourceCurrency: 'BRL',
      sourceAmount: '40.00',
    });
    expect(paid.statusCode).toBe(201);
    expect((await settled(sandbox, paid.json().id)).status).toBe('SUCCESS');
    const response = await sandbox.post(`/transactions/${failed.id}/refund`, {});
    expect(response.statusCode).toBe(422);
    expect(response.json().code).toBe('insufficient_funds');
    expect((await sandbox.get(`/transactions/${failed.id}`)).json().refund).toBeNull();
  });
});
