/**
 * The sandbox's simulated chains confirm after a delay: a transfer to an external address and an inbound
 * deposit stay PROCESSING until it has passed, then the workers carry them to SUCCESS. A fake clock
 * moves time; the worker steps run by hand.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { confirmSimulatedDeposits } from '../../src/modules/wallets/deposits.ts';
import { checkSubmitted } from '../../src/modules/wallets/sender.ts';
import { approvedCustomer } from '../helpers/factories.ts';
import { type Client, client } from '../helpers/server.ts';
import { type IsolatedServer, startIsolatedServer } from '../transactions/support.ts';
import { totalOf, transfer, walletOn } from './support.ts';

let now = Date.now();
let server: IsolatedServer;
let sandbox: Client;

beforeAll(async () => {
  server = await startIsolatedServer({
    clock: () => new Date(now),
    env: { PONTE_SANDBOX_CHAIN_CONFIRMATION_MS: '5000' },
  });
  sandbox = client(server.sandbox, (await server.newTenant()).sandboxKey);
});
afterAll(async () => {
  await server.close();
});

describe('simulated confirmations', () => {
  it('credits a sandbox deposit and settles an external transfer only after the confirmation delay', async () => {
    const customer = await approvedCustomer(sandbox);
    const wallet = await walletOn(sandbox, customer.id, 'ETHEREUM');
    const deposit = (
      await sandbox.post(`/sandbox/wallets/${wallet.address}/deposit`, { currency: 'USDC', amount: '10' })
    ).json();
    expect(deposit.status).toBe('PROCESSING');
    await confirmSimulatedDeposits(server.ctx);
    expect(await totalOf(sandbox, customer.id, 'USDC')).toBe('0.000000');

    now += 5_000;
    await confirmSimulatedDeposits(server.ctx);
    expect((await sandbox.get(`/transactions/${deposit.id}`)).json().status).toBe('SUCCESS');
    expect(await totalOf(sandbox, customer.id, 'USDC')).toBe('10.000000');

    const sent = (
      await transfer(sandbox, {
        currency: 'USDC',
        from: customer.id,
        to: '0x52908400098527886E0F7030069857D2E4169EE7',
        amount: '4',
      })
    ).json();
    expect(sent.status).toBe('PROCESSING');
    expect(sent.receipt.blockchain.transactionHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await totalOf(sandbox, customer.id, 'USDC')).toBe('6.000000');
    await checkSubmitted(server.ctx);
    expect((await sandbox.get(`/transactions/${sent.id}`)).json().status).toBe('PROCESSING');

    now += 5_000;
    await checkSubmitted(server.ctx);
    const done = (await sandbox.get(`/transactions/${sent.id}`)).json();
    expect(done.status).toBe('SUCCESS');
    expect(done.receipt.blockchain.transactionHash).toBe(sent.receipt.blockchain.transactionHash);
  });
});
