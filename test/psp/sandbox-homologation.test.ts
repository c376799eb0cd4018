/**
 * The sandbox on a PSP's homologation environment (`PONTE_SANDBOX_PIX_*`): the sandbox listener then
 * speaks to the PSP as production does — charges registered at the PSP, notifications confirmed with it,
 * payouts sent with Efí's homologation outcomes (dev.efipay.com.br/docs/api-pix/envio-pagamento-pix) —
 * and production is untouched.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selfBody } from '../bank-accounts/bodies.ts';
import { type Client, client, eventually } from '../helpers/server.ts';
import { offRamp, settled } from '../off-ramp/support.ts';
import {
  approvedIndividual,
  createOnRamp,
  type IsolatedServer,
  setRate,
  startIsolatedServer,
} from '../transactions/support.ts';
import type { PspSimulator } from './simulator.ts';
import { expectNoViolations, pspEnv, startSimulator, terminatedDelivery } from './support.ts';

let server: IsolatedServer;
let simulator: PspSimulator;
let sandbox: Client;

beforeAll(async () => {
  simulator = await startSimulator({ deliver: terminatedDelivery(() => server?.sandbox) });
  server = await startIsolatedServer({
    env: pspEnv(
      simulator,
      { PONTE_PIX_PAYOUT_STATUS_AFTER_MS: '300', PONTE_SANDBOX_PIX_RECONCILE_EVERY_MS: '600000' },
      'PONTE_SANDBOX_PIX_',
    ),
  });
  await server.ctx.pix.psp('sandbox')!.registerWebhook();
  sandbox = client(server.sandbox, (await server.newTenant()).sandboxKey);
  await setRate(server, 'BRL/USDC', '0.2');
  await setRate(server, 'USDC/BRL', '5');
});
afterAll(async () => {
  await server?.close();
  await simulator?.close();
});
expectNoViolations(() => simulator);

describe('the sandbox on a PSP homologation environment', () => {
  it('runs an on-ramp and an off-ramp through the PSP on the sandbox listener, production untouched', async () => {
    expect(server.ctx.pix.psp('production')).toBeNull();
    const customer = await approvedIndividual(sandbox);
    const onRamp = await createOnRamp(sandbox, customer.id, '50.00');
    const txid = onRamp.id.replace(/-/g, '');
    expect(simulator.charges.get(txid)).toMatchObject({ valor: '50.00' });
    // the BR Code is the PSP's pixCopiaECola, not one the sandbox encodes itself
    expect(onRamp.depositInstructions.brCode).toContain('pix.simulator.invalid');
    await simulator.pay(txid);
    const credited = await eventually(
      async () => (await sandbox.get(`/transactions/${onRamp.id}`)).json(),
      (t) => t.status === 'SUCCESS',
      15_000,
    );
    expect(credited.status).toBe('SUCCESS');

    const account = await sandbox.post('/bank-accounts', selfBody(customer));
    expect(account.statusCode).toBe(201);
    const created = await offRamp(sandbox, {
      customerId: customer.id,
      bankAccountId: account.json().id,
      sourceCurrency: 'USDC',
      sourceAmount: '1',
    });
    expect(created.statusCode).toBe(201);
    const done = await settled(sandbox, created.json().id);
    expect(done.status).toBe('SUCCESS');
    const send = simulator.sends.get(created.json().id.replace(/-/g, ''))!;
    expect(send).toMatchObject({
      valor: done.receipt.targetAmount,
      favorecido: { chave: customer.taxId.replace(/\D/g, '') },
    });
    expect(done.payout.endToEndId).toBe(send.e2eId);
  });
});
