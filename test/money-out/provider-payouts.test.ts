/**
 * Payouts in production, end to end through the PIX provider, on refunds: a deposit of the wrong amount
 * is held, the partner asks for the refund, Ponte sends a signed return order (`devolucaoDe` naming the
 * deposit) to the provider's payout API, and the provider's signed result settles it — COMPLETED
 * finishes the refund, REJECTED gives the BRL back to the customer's balance. A result that never
 * arrives is asked for (`GET payouts/{endToEndId}`), and a payout the provider lost is sent again under
 * the same end-to-end id.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEmvFields } from '../../src/lib/pix-brcode.ts';
import { signPixNotification } from '../../src/modules/rails/pix/signature.ts';
import { individualBody } from '../helpers/factories.ts';
import { type Client, client, eventually } from '../helpers/server.ts';
import { createOnRamp, type IsolatedServer, startIsolatedServer } from '../transactions/support.ts';
import { fakeProvider, SECRET } from './processes.ts';
import { balances, unbalanced } from './support.ts';

let server: IsolatedServer;
let production: Client;
let provider: Awaited<ReturnType<typeof fakeProvider>>;

beforeAll(async () => {
  provider = await fakeProvider();
  server = await startIsolatedServer({
    env: {
      PONTE_PIX_PROVIDER_SECRET: SECRET,
      PONTE_PIX_PAYOUT_URL: provider.url,
      PONTE_PIX_KEY: 'f3a9c1d2-4b5e-4f60-8a7b-9c0d1e2f3a4b',
      PONTE_PIX_ISPB: '12345678',
      // an accepted payout unreported for 300 ms is asked about (then after 600 ms, 1.2 s, ...)
      PONTE_PIX_PAYOUT_STATUS_AFTER_MS: '300',
    },
  });
  production = client(server.production, (await server.newTenant()).productionKey);
});
afterAll(async () => {
  await server?.close();
  await provider?.close();
});

let sequence = 0;
const endToEndId = () => `E98765432202601011200${String(++sequence).padStart(11, '0')}`;

function notify(body: unknown) {
  const raw = JSON.stringify(body);
  return server.production.inject({
    method: 'POST',
    url: '/rails/pix/notifications',
    payload: raw,
    headers: { 'content-type': 'application/json', 'x-pix-signature': signPixNotification(SECRET, raw) },
  });
}

/** A production on-ramp paid with `paid` instead of `requested`: FAILED, its deposit held for refund. */
async function heldDeposit(requested: string, paid: string) {
  const customer = (await production.post('/customers', individualBody())).json();
  await server.ctx.db.query("UPDATE verifications SET status = 'APPROVED' WHERE customer_id = $1", [
    customer.id,
  ]);
  const created = await createOnRamp(production, customer.id, requested);
  const txid = readEmvFields(readEmvFields(created.depositInstructions.brCode).get('62')!).get('05')!;
  const deposit = { endToEndId: endToEndId(), txid, valor: paid, horario: new Date().toISOString() };
  expect((await notify({ pix: [deposit] })).statusCode).toBe(200);
  expect((await production.get(`/transactions/${created.id}`)).json().status).toBe('FAILED');
  return { customer, transactionId: created.id as string, deposit };
}

async function refundOrder(depositEndToEndId: string) {
  await eventually(
    async () => provider.received.filter((order) => order.body.devolucaoDe === depositEndToEndId).length,
    (count) => count >= 1,
  );
  return provider.received.find((order) => order.body.devolucaoDe === depositEndToEndId)!;
}

describe('refunds through the production PIX provider', () => {
  it('sends a signed return order for the held deposit and completes the refund on the provider result', async () => {
    const { customer, transactionId, deposit } = await heldDeposit('100.00', '80.00');
    expect((await balances(production, customer.id)).BRL).toBe('80.00');

    const asked = await production.post(`/transactions/${transactionId}/refund`, {});
    expect(asked.statusCode).toBe(200);
    expect(asked.json().refund).toMatchObject({ status: 'PENDING', amount: '80.00' });
    expect((await balances(production, customer.id)).BRL).toBe('0.00');

    const order = await refundOrder(deposit.endToEndId);
    expect(order.signed).toBe(true);
    expect(order.body).toMatchObject({ devolucaoDe: deposit.endToEndId });

    const result = { endToEndId: order.endToEndId, status: 'COMPLETED' };
    const first = await notify({ payouts: [result] });
    expect(first.statusCode).toBe(200);
    // the provider redelivers: applied once
    expect((await notify({ payouts: [result] })).statusCode).toBe(200);

    const done = (await production.get(`/transactions/${transactionId}`)).json();
    expect(done.refund).toMatchObject({ status: 'SUCCESS', amount: '80.00', failureReason: null });
    expect((await balances(production, customer.id)).BRL).toBe('0.00');
    expect(provider.received.filter((o) => o.body.devolucaoDe === deposit.endToEndId)).toHaveLength(1);
    expect(await unbalanced(server)).toEqual([]);
  });

  it('gives the BRL back to the customer when the provider rejects the return', async () => {
    const { customer, transactionId, deposit } = await heldDeposit('60.00', '61.00');
    expect((await production.post(`/transactions/${transactionId}/refund`, {})).statusCode).toBe(200);
    const order = await refundOrder(deposit.endToEndId);

    await notify({
      payouts: [{ endToEndId: order.endToEndId, status: 'REJECTED', reason: 'conta encerrada' }],
    });

    const done = (await production.get(`/transactions/${transactionId}`)).json();
    expect(done.refund.status).toBe('FAILED');
    expect(done.refund.failureReason).toBeTruthy();
    expect((await balances(production, customer.id)).BRL).toBe('61.00');
    expect(await unbalanced(server)).toEqual([]);
  });
});

describe('payouts whose result never arrives', () => {
  it('asks the provider for the status of an accepted payout left unreported, and settles it by the answer', async () => {
    const { customer, transactionId, deposit } = await heldDeposit('70.00', '70.50');
    expect((await production.post(`/transactions/${transactionId}/refund`, {})).statusCode).toBe(200);
    const order = await refundOrder(deposit.endToEndId);
    // still under way at the provider: asked about, left as it is
    await eventually(
      async () => provider.statusQueries.filter((q) => q.endToEndId === order.endToEndId).length,
      (count) => count >= 1,
    );
    expect(provider.statusQueries.find((q) => q.endToEndId === order.endToEndId)!.signed).toBe(true);
    expect((await production.get(`/transactions/${transactionId}`)).json().refund.status).toBe('PENDING');

    provider.setResult(order.endToEndId, { status: 'COMPLETED' });
    const done = await eventually(
      async () => (await production.get(`/transactions/${transactionId}`)).json(),
      (transaction) => transaction.refund.status !== 'PENDING',
    );
    expect(done.refund).toMatchObject({ status: 'SUCCESS', amount: '70.50' });
    expect((await balances(production, customer.id)).BRL).toBe('0.00');
    expect(provider.received.filter((o) => o.endToEndId === order.endToEndId)).toHaveLength(1);
    expect(await unbalanced(server)).toEqual([]);
  });

  it('sends a payout the provider does not know again, under the same end-to-end id', async () => {
    const { transactionId, deposit } = await heldDeposit('40.00', '39.00');
    expect((await production.post(`/transactions/${transactionId}/refund`, {})).statusCode).toBe(200);
    const order = await refundOrder(deposit.endToEndId);
    provider.forget(order.endToEndId);
    await eventually(
      async () => provider.received.filter((o) => o.endToEndId === order.endToEndId).length,
      (count) => count >= 2,
    );
    const resent = provider.received.filter((o) => o.endToEndId === order.endToEndId);
    expect(resent[1]!.body).toEqual(resent[0]!.body);

    await notify({ payouts: [{ endToEndId: order.endToEndId, status: 'COMPLETED' }] });
    const done = (await production.get(`/transactions/${transactionId}`)).json();
    expect(done.refund.status).toBe('SUCCESS');
    expect(await unbalanced(server)).toEqual([]);
  });
});
