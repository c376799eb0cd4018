/**
 * Money out in production through the PSP (the simulator, Efí homologation rules): off-ramp payouts as
 * Efí sends (`PUT /v3/gn/pix/{idEnvio}`, idEnvio derived from the off-ramp), refunds of held deposits as
 * API Pix devoluções (`PUT /pix/{e2eid}/devolucao/{id}`), results applied once from notifications,
 * look-ups or the sweep, a send never made twice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepEnvironment } from '../../src/modules/pix/sweep.ts';
import { type Client, client, eventually } from '../helpers/server.ts';
import { idOf, pspProduction } from '../psp/production.ts';
import type { PspSimulator } from '../psp/simulator.ts';
import { expectNoViolations, PIX_KEY, pspEnv, startSimulator, terminatedDelivery } from '../psp/support.ts';
import { createOnRamp, type IsolatedServer, setRate, startIsolatedServer } from '../transactions/support.ts';
import { balances, settled, unbalanced } from './support.ts';

let server: IsolatedServer;
let simulator: PspSimulator;
let production: Client;

beforeAll(async () => {
  simulator = await startSimulator({
    deliver: terminatedDelivery(() => server?.production),
  });
  server = await startIsolatedServer({
    env: pspEnv(simulator, {
      // an accepted send unreported for 300 ms is looked up (then after 600 ms, 1.2 s, ...)
      PONTE_PIX_PAYOUT_STATUS_AFTER_MS: '300',
      PONTE_PIX_RECONCILE_EVERY_MS: '600000',
      PONTE_OFFRAMP_FEE_BPS: '0',
      PONTE_TRANSACTION_MIN_FEE: '0.00',
    }),
  });
  await server.ctx.pix.psp('production')!.registerWebhook();
  production = client(server.production, (await server.newTenant()).productionKey);
  await setRate(server, 'BRL/USDC', '0.2');
  await setRate(server, 'USDC/BRL', '5');
});
afterAll(async () => {
  await server?.close();
  await simulator?.close();
});
expectNoViolations(() => simulator);
const { settle, productionCustomer, fundedCustomer, payout } = pspProduction(() => ({
  server,
  simulator,
  production,
}));

describe('off-ramp payouts as PSP sends', () => {
  it('sends the payout under an idEnvio derived from the off-ramp, records the PSP end-to-end id and succeeds on REALIZADO', async () => {
    const { customer, before, transaction, sendId } = await payout('1');
    const done = await settled(production, transaction.id);
    await settle();
    expect(done.status).toBe('SUCCESS');
    const send = simulator.sends.get(sendId)!;
    expect(send).toMatchObject({
      valor: '5.00',
      chave: PIX_KEY,
      // the key as the DICT holds it: a CPF key bare (Efí refuses it punctuated)
      favorecido: { chave: customer.taxId.replace(/\D/g, ''), cpf: customer.taxId.replace(/\D/g, '') },
    });
    expect(done.payout.endToEndId).toBe(send.e2eId);
    expect((await balances(production, customer.id)).USDC).toBe((Number(before.USDC) - 1).toFixed(6));
    expect(await unbalanced(server)).toEqual([]);
  });

  it('FAILS the off-ramp with the PSP reason and releases the reserve when the send is NAO_REALIZADO', async () => {
    const { customer, before, transaction } = await payout('3');
    const done = await settled(production, transaction.id);
    expect(done.status).toBe('FAILED');
    expect(done.failureReason).toMatch(/homologação: valor entre 10,01 e 20,00/);
    expect(await balances(production, customer.id)).toEqual(before);
    expect(await unbalanced(server)).toEqual([]);
  });

  it('FAILS at once, reserve released, when the PSP refuses the send (4xx)', async () => {
    const { customer, before, transaction, sendId } = await payout('10');
    const done = await settled(production, transaction.id);
    expect(done.status).toBe('FAILED');
    expect(done.failureReason).toMatch(/refused it/);
    expect(simulator.sends.has(sendId)).toBe(false);
    expect(await balances(production, customer.id)).toEqual(before);
  });

  it('books both returns of a 4.00 send once each and makes the off-ramp RETURNED, the BRL back in the balance', async () => {
    const { customer, transaction } = await payout('0.8');
    await settled(production, transaction.id, ['RETURNED']);
    await settle();
    await sweepEnvironment(server.ctx, 'production');
    expect((await balances(production, customer.id)).BRL).toBe('4.00');
    const journals = await server.ctx.db.query(
      "SELECT 1 FROM ledger_journals WHERE transaction_id = $1 AND kind = 'PAYOUT_RETURNED'",
      [transaction.id],
    );
    expect(journals).toHaveLength(2);
    expect(await unbalanced(server)).toEqual([]);
  });

  it('applies returns notified before the send completion once the completion is known (RETURNED after SUCCESS)', async () => {
    const funded = await fundedCustomer();
    simulator.setAutoSettle(false);
    simulator.faults.reorder = true;
    let transaction: { id: string };
    let customerId: string;
    try {
      const started = await payout('0.8', funded);
      transaction = started.transaction;
      customerId = started.customer.id;
      await eventually(
        async () => simulator.sends.has(started.sendId),
        (has) => has,
      );
      await simulator.settlePending();
    } finally {
      simulator.faults.reorder = false;
      simulator.setAutoSettle(true);
    }
    // the held notifications arrive newest first: both returns, then the completion
    await simulator.flush();
    await settle();
    const done = await settled(production, transaction.id, ['RETURNED']);
    expect(done.status).toBe('RETURNED');
    expect((await balances(production, customerId)).BRL).toBe('4.00');
    const statuses = done.timeline.map((t: { status: string }) => t.status);
    expect(statuses.indexOf('SUCCESS')).toBeLessThan(statuses.indexOf('RETURNED'));
  });

  it('asks the PSP before sending again after a 5xx, and never sends twice', async () => {
    simulator.fail(/^PUT \/v3\/gn\/pix\//, 503);
    const { transaction, sendId } = await payout('1');
    const done = await settled(production, transaction.id);
    expect(done.status).toBe('SUCCESS');
    expect(
      simulator.calls.filter((c) => c.method === 'PUT' && c.path === `/v3/gn/pix/${sendId}`),
    ).toHaveLength(2);
    expect(simulator.sends.get(sendId)).toBeDefined();
    expect(simulator.calls.some((c) => c.path === `/v2/gn/pix/enviados/id-envio/${sendId}`)).toBe(true);
  });

  it('settles a send whose notification was lost by looking it up', async () => {
    const funded = await fundedCustomer();
    simulator.faults.drop = true;
    try {
      const { transaction, sendId } = await payout('1', funded);
      const done = await settled(production, transaction.id);
      expect(done.status).toBe('SUCCESS');
      expect(simulator.calls.some((c) => c.path === `/v2/gn/pix/enviados/id-envio/${sendId}`)).toBe(true);
    } finally {
      simulator.faults.drop = false;
    }
  });
});

describe('refunds of held deposits as API Pix devoluções', () => {
  /** A production on-ramp paid with `paid` instead of `requested`: FAILED, its deposit held for refund. */
  async function heldDeposit(requested: string, paid: string) {
    const customer = await productionCustomer();
    const created = await createOnRamp(production, customer.id, requested);
    const e2e = await simulator.pay(idOf(created), paid);
    await settle();
    expect((await production.get(`/transactions/${created.id}`)).json().status).toBe('FAILED');
    return { customer, transactionId: created.id as string, e2e };
  }

  it('asks the PSP for the devolução of the deposit and completes the refund on DEVOLVIDO, once', async () => {
    const { customer, transactionId, e2e } = await heldDeposit('100.00', '80.00');
    expect((await balances(production, customer.id)).BRL).toBe('80.00');
    const asked = await production.post(`/transactions/${transactionId}/refund`, {});
    expect(asked.statusCode).toBe(200);
    expect(asked.json().refund).toMatchObject({ status: 'PENDING', amount: '80.00' });
    const done = await eventually(
      async () => (await production.get(`/transactions/${transactionId}`)).json(),
      (t) => t.refund.status !== 'PENDING',
    );
    await settle();
    expect(done.refund).toMatchObject({ status: 'SUCCESS', amount: '80.00', failureReason: null });
    const refunds = simulator.received.get(e2e)!.devolucoes;
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({ valor: '80.00', status: 'DEVOLVIDO' });
    // the PIX listed again by the sweep, and notified again: nothing more
    await sweepEnvironment(server.ctx, 'production');
    await simulator.notifyRaw(PIX_KEY, [{ endToEndId: e2e }]);
    await settle();
    expect((await production.get(`/transactions/${transactionId}`)).json().refund.status).toBe('SUCCESS');
    expect((await balances(production, customer.id)).BRL).toBe('0.00');
    expect(await unbalanced(server)).toEqual([]);
  });

  it('gives the BRL back to the customer when the PSP does not make the devolução (NAO_REALIZADO)', async () => {
    simulator.setRefundOutcome(() => 'NAO_REALIZADO');
    try {
      const { customer, transactionId } = await heldDeposit('60.00', '61.00');
      expect((await production.post(`/transactions/${transactionId}/refund`, {})).statusCode).toBe(200);
      const done = await eventually(
        async () => (await production.get(`/transactions/${transactionId}`)).json(),
        (t) => t.refund.status !== 'PENDING',
      );
      expect(done.refund.status).toBe('FAILED');
      expect(done.refund.failureReason).toBeTruthy();
      expect((await balances(production, customer.id)).BRL).toBe('61.00');
      expect(await unbalanced(server)).toEqual([]);
    } finally {
      simulator.setRefundOutcome(() => 'DEVOLVIDO');
    }
  });
});
