/**
 * Ponte against a real EVM node (anvil from npm): on-ramp deliveries, external transfers and inbound
 * deposits as real ERC-20 transfers, with confirmations, a watcher restart and a reorganisation. The
 * background workers are off: each test runs the sender, the confirmation checker and the watcher itself,
 * and mines blocks to reach the confirmations.
 */

import type { Address } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../src/context.ts';
import { customerBalances } from '../../src/modules/ledger/repo.ts';
import { checkSubmitted, signQueued } from '../../src/modules/wallets/sender.ts';
import { watchChain } from '../../src/modules/wallets/watcher.ts';
import { openChainRegistry } from '../../src/rails/chains/registry.ts';
import { openContext } from '../../src/runtime.ts';
import { individualBody } from '../helpers/factories.ts';
import { type Client, client, usingPostgres } from '../helpers/server.ts';
import type { PspSimulator } from '../psp/simulator.ts';
import { pspEnv, startSimulator, terminatedDelivery } from '../psp/support.ts';
import { createOnRamp, type IsolatedServer, setRate, startIsolatedServer } from '../transactions/support.ts';
import { type Anvil, startAnvil } from './anvil.ts';

const CONFIRMATIONS = 3;
const { node: anvil, reason } = await startAnvil();
if (!anvil) console.warn(`SKIPPED: the real-node tests need anvil, which could not start here: ${reason}`);

describe.skipIf(!anvil)('on a real EVM node (anvil)', () => {
  const node = anvil as Anvil;
  let server: IsolatedServer;
  let production: Client;
  let usdc: Address;
  let usdt: Address;
  let treasury: string;
  let simulator: PspSimulator;

  beforeAll(async () => {
    simulator = await startSimulator({
      deliver: terminatedDelivery(() => server?.production),
    });
    usdc = await node.deployToken('USD Coin (test)', 'USDC');
    usdt = await node.deployToken('Tether USD (test)', 'USDT');
    server = await startIsolatedServer({
      workers: false,
      env: {
        ...pspEnv(simulator),
        PONTE_ONRAMP_FEE_BPS: '0',
        PONTE_TRANSACTION_MIN_FEE: '0',
        PONTE_CHAIN_ETHEREUM_RPC_URL: node.url,
        PONTE_CHAIN_ETHEREUM_TOKENS: `USDC=${usdc},USDT=${usdt}`,
        PONTE_CHAIN_ETHEREUM_CONFIRMATIONS: String(CONFIRMATIONS),
      },
    });
    await server.ctx.pix.psp('production')!.registerWebhook();
    production = client(server.production, (await server.newTenant()).productionKey);
    await setRate(server, 'BRL/USDC', '0.2');
    treasury = server.ctx.chains.get('production', 'ETHEREUM').addressAt(0);
    await node.fundGas(treasury);
    await node.mint(usdc, treasury, 1_000_000_000_000n);
    await watchChain(server.ctx, server.ctx.chains.get('production', 'ETHEREUM'));
  });
  afterAll(async () => {
    await server?.close();
    await simulator?.close();
    node.stop();
  });

  /**
   * Another process over the same database: its own connection pool and chain adapters on PostgreSQL;
   * on the embedded database (one per process) new chain adapters over the same one.
   */
  async function anotherProcess(): Promise<{ ctx: AppContext; close(): Promise<void> }> {
    if (usingPostgres()) {
      const ctx = await openContext(server.config);
      return { ctx, close: () => ctx.db.close() };
    }
    const { db, config, instanceKeys, clock } = server.ctx;
    const chains = await openChainRegistry(db, config.chains, instanceKeys.encryption, clock());
    return { ctx: { ...server.ctx, chains }, close: async () => {} };
  }
  const watch = (ctx: AppContext = server.ctx) => watchChain(ctx, ctx.chains.get('production', 'ETHEREUM'));

  async function approvedCustomer() {
    const customer = (await production.post('/customers', individualBody())).json();
    await server.ctx.db.query("UPDATE verifications SET status = 'APPROVED' WHERE customer_id = $1", [
      customer.id,
    ]);
    return customer;
  }

  async function walletOf(customerId: string) {
    const wallets = (await production.get(`/customers/${customerId}/wallets`)).json().data;
    return wallets.find((w: { blockchain: string }) => w.blockchain === 'ETHEREUM');
  }

  async function usdcBalance(customerId: string) {
    const balances = (await production.get(`/customers/${customerId}/balances`)).json().balances;
    return balances.find((b: { currency: string }) => b.currency === 'USDC').amount;
  }

  /** The payer pays the charge at the PSP; its notification is confirmed with the PSP and applied. */
  async function payCharge(charge: { id: string }, valor: string) {
    await simulator.pay(charge.id.replace(/-/g, ''), valor);
    await simulator.idle();
    await server.ctx.pix.settled();
  }

  /** A customer holding `brl × 0.2` USDC on Ethereum, delivered on chain by an on-ramp. */
  async function fundedCustomer(brl: string) {
    const customer = await approvedCustomer();
    const charge = await createOnRamp(production, customer.id, brl, { blockchain: 'ETHEREUM' });
    await payCharge(charge, brl);
    await signQueued(server.ctx);
    await node.mine(CONFIRMATIONS);
    await checkSubmitted(server.ctx);
    const done = (await production.get(`/transactions/${charge.id}`)).json();
    return { customer, onRamp: done };
  }

  it('an on-ramp lands its tokens at the customer’s address, read back with balanceOf', async () => {
    const customer = await approvedCustomer();
    const wallet = await walletOf(customer.id);
    const charge = await createOnRamp(production, customer.id, '500.00', { blockchain: 'ETHEREUM' });
    await payCharge(charge, '500.00');

    // the request that received the deposit signed and broadcast the delivery; anvil mined it at once
    const waiting = (await production.get(`/transactions/${charge.id}`)).json();
    expect(waiting.status).toBe('TRANSFERRING_STABLECOIN');
    expect(await signQueued(server.ctx)).toBe(0);
    expect(await node.balanceOf(usdc, wallet.address)).toBe(100_000_000n);
    expect(await usdcBalance(customer.id)).toBe('0.000000');

    await node.mine(CONFIRMATIONS - 2); // the block holding it plus one: not yet final
    await checkSubmitted(server.ctx);
    expect((await production.get(`/transactions/${charge.id}`)).json().status).toBe(
      'TRANSFERRING_STABLECOIN',
    );
    expect(await usdcBalance(customer.id)).toBe('0.000000');

    await node.mine(1);
    await checkSubmitted(server.ctx);
    const done = (await production.get(`/transactions/${charge.id}`)).json();
    expect(done.status).toBe('SUCCESS');
    expect(await node.balanceOf(usdc, wallet.address)).toBe(100_000_000n);
    const hash = done.receipt.blockchain.transactionHash;
    expect(done.receipt.blockchain).toEqual({
      network: 'ETHEREUM',
      transactionHash: hash,
      blockExplorerUrl: `https://etherscan.io/tx/${hash}`,
    });
    const onChain = await node.client.getTransactionReceipt({ hash });
    expect(onChain.status).toBe('success');
    expect(onChain.from.toLowerCase()).toBe(treasury.toLowerCase());
    expect(await usdcBalance(customer.id)).toBe('100.000000');
    expect((await walletOf(customer.id)).balances).toContainEqual(
      expect.objectContaining({ currency: 'USDC', amount: '100.000000' }),
    );
  });

  it('an external transfer arrives at its target address after the confirmations', async () => {
    const { customer } = await fundedCustomer('250.00'); // 50 USDC
    const target = privateKeyToAccount(`0x${'7'.repeat(64)}`).address;
    const created = await production.post('/transactions/transfer', {
      currency: 'USDC',
      from: customer.id,
      to: target,
      amount: '12.345678',
      blockchain: 'ETHEREUM',
    });
    expect(created.statusCode).toBe(201);
    const transfer = created.json();
    expect(transfer).toMatchObject({ type: 'TRANSFER', status: 'PROCESSING' });
    expect(await usdcBalance(customer.id)).toBe('37.654322');

    const hash = transfer.receipt.blockchain.transactionHash;
    expect(hash).toMatch(/^0x[0-9a-f]{64}$/);
    await node.mine(CONFIRMATIONS);
    await checkSubmitted(server.ctx);
    const done = (await production.get(`/transactions/${transfer.id}`)).json();
    expect(done.status).toBe('SUCCESS');
    expect(done.receipt.blockchain.transactionHash).toBe(hash);
    expect(await node.balanceOf(usdc, target)).toBe(12_345_678n);
    expect(await usdcBalance(customer.id)).toBe('37.654322');
  });

  it('signs concurrent sends from one address with distinct, consecutive nonces', async () => {
    const { customer } = await fundedCustomer('500.00'); // 100 USDC
    const targets = Array.from(
      { length: 6 },
      (_, i) => privateKeyToAccount(`0x${String(i + 1).repeat(64)}`).address,
    );
    const { ctx: second, close } = await anotherProcess();
    try {
      // queue without the request's own signing attempt racing the test: signing happens below
      await Promise.all(
        targets.map((to) =>
          production.post('/transactions/transfer', {
            currency: 'USDC',
            from: customer.id,
            to,
            amount: '1.000000',
          }),
        ),
      );
      await Promise.all([
        signQueued(server.ctx),
        signQueued(second),
        signQueued(server.ctx),
        signQueued(second),
      ]);
      const sends = await server.ctx.db.query<{ nonce: bigint }>(
        `SELECT nonce FROM chain_sends WHERE nonce IS NOT NULL ORDER BY nonce`,
      );
      const nonces = sends.map((s) => Number(s.nonce));
      expect(nonces.length).toBeGreaterThanOrEqual(targets.length);
      expect(new Set(nonces).size).toBe(nonces.length);
      for (let i = 1; i < nonces.length; i++) expect(nonces[i]).toBe(nonces[i - 1]! + 1);
      await node.mine(CONFIRMATIONS);
      await checkSubmitted(server.ctx);
      for (const to of targets) expect(await node.balanceOf(usdc, to)).toBe(1_000_000n);
    } finally {
      await close();
    }
  });

  it('credits an inbound transfer once after N confirmations, never twice across a watcher restart', async () => {
    const customer = await approvedCustomer();
    const wallet = await walletOf(customer.id);
    await node.mint(usdc, node.deployer.account.address, 10_000_000n);
    const hash = await node.transfer(usdc, wallet.address, 7_500_000n);

    expect(await watch()).toBe(0);
    const deposits = async () =>
      (await production.get(`/transactions?customerId=${customer.id}`))
        .json()
        .data.filter((t: { type: string }) => t.type === 'DEPOSIT');
    const [seen] = await deposits();
    expect(seen).toMatchObject({ type: 'DEPOSIT', status: 'PROCESSING', request: { amount: '7.500000' } });
    expect(seen.receipt.blockchain.transactionHash).toBe(hash);
    expect(await usdcBalance(customer.id)).toBe('0.000000');

    await node.mine(1);
    await watch();
    expect((await deposits())[0].status).toBe('PROCESSING');

    // a new watcher, as after a restart: its state is all in the database
    const { ctx: restarted, close } = await anotherProcess();
    try {
      await node.mine(CONFIRMATIONS);
      expect(await watch(restarted)).toBe(1);
      await watch(server.ctx);
      await watch(restarted);
    } finally {
      await close();
    }
    const after = await deposits();
    expect(after).toHaveLength(1);
    expect(after[0].status).toBe('SUCCESS');
    expect(await usdcBalance(customer.id)).toBe('7.500000');
    const ledger = await customerBalances(server.ctx.db, customer.id);
    expect(ledger.get('USDC')).toBe(7_500_000n);
  });

  it('credits nothing when a reorganisation removes a transfer before N confirmations', async () => {
    const customer = await approvedCustomer();
    const wallet = await walletOf(customer.id);
    await node.mint(usdc, node.deployer.account.address, 5_000_000n);
    const snapshot = await node.snapshot();
    await node.transfer(usdc, wallet.address, 5_000_000n);
    await watch();
    const list = async () => (await production.get(`/transactions?customerId=${customer.id}`)).json().data;
    expect((await list())[0]).toMatchObject({ type: 'DEPOSIT', status: 'PROCESSING' });

    await node.revert(snapshot);
    await node.mine(CONFIRMATIONS + 1);
    await watch();
    const [dropped] = await list();
    expect(dropped.status).toBe('FAILED');
    expect(dropped.failureReason).toMatch(/reorganisation/);
    expect(await usdcBalance(customer.id)).toBe('0.000000');
    expect(await node.balanceOf(usdc, wallet.address)).toBe(0n);
    const journals = await server.ctx.db.query(
      `SELECT 1 FROM ledger_journals WHERE kind = 'CHAIN_DEPOSIT' AND reference = $1`,
      [dropped.id],
    );
    expect(journals).toHaveLength(0);
  });

  it('FAILS a transfer the chain refuses, with the amount back in the wallet', async () => {
    // the customer holds USDT (deposited on chain to their own address) but the treasury holds none
    const customer = await approvedCustomer();
    const wallet = await walletOf(customer.id);
    await node.mint(usdt, wallet.address, 3_000_000n);
    await watch();
    await node.mine(CONFIRMATIONS);
    await watch();
    const total = async () =>
      (await production.get(`/customers/${customer.id}/balances`))
        .json()
        .balances.find((b: { currency: string }) => b.currency === 'USDT').amount;
    expect(await total()).toBe('3.000000');

    const response = await production.post('/transactions/transfer', {
      currency: 'USDT',
      from: customer.id,
      to: privateKeyToAccount(`0x${'9'.repeat(64)}`).address,
      amount: '2',
    });
    expect(response.statusCode).toBe(201);
    const failed = (await production.get(`/transactions/${response.json().id}`)).json();
    expect(failed.status).toBe('FAILED');
    expect(failed.failureReason).toMatch(/back in the wallet/);
    expect(failed.timeline.map((s: { status: string }) => s.status)).toEqual(['PROCESSING', 'FAILED']);
    expect(await total()).toBe('3.000000');
    expect(await customerBalances(server.ctx.db, customer.id)).toEqual(new Map([['USDT', 3_000_000n]]));
  });
});
