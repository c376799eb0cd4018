/**
 * Inbound deposits against a real EVM node behind a fault-injecting JSON-RPC proxy: an incomplete log
 * answer never fails a deposit that is in the canonical chain, and one log the ledger cannot hold never
 * stops the watcher for the other customers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customerBalances } from '../../src/modules/ledger/repo.ts';
import { watchChain } from '../../src/modules/wallets/watcher.ts';
import { type Anvil, startAnvil } from './anvil.ts';
import {
  approvedCustomer,
  type ChainWorld,
  CONFIRMATIONS,
  chainWorld,
  transactionsOf,
  usdcBalance,
} from './support.ts';

const { node: anvil, reason } = await startAnvil();
if (!anvil) console.warn(`SKIPPED: the real-node tests need anvil, which could not start here: ${reason}`);

describe.skipIf(!anvil)('deposits through a flaky node (anvil behind a JSON-RPC proxy)', () => {
  const node = anvil as Anvil;
  let world: ChainWorld;
  const errors: string[] = [];

  beforeAll(async () => {
    world = await chainWorld(node);
    await watch();
  });
  afterAll(async () => {
    await world?.close();
    node.stop();
  });

  async function watch() {
    return watchChain(
      { ...world.server.ctx, log: { error: (obj, msg) => errors.push(`${msg} ${JSON.stringify(obj)}`) } },
      world.server.ctx.chains.get('production', 'ETHEREUM'),
    );
  }

  it('credits a deposit once confirmed though one eth_getLogs answer left it out', async () => {
    const customer = await approvedCustomer(world);
    await node.mint(world.usdc, node.deployer.account.address, 30_000_000n);
    const hash = await node.transfer(world.usdc, customer.address, 30_000_000n);
    await watch();
    const [seen] = await transactionsOf(world, customer.id);
    expect(seen).toMatchObject({ type: 'DEPOSIT', status: 'PROCESSING' });

    world.proxy.dropNextNonEmptyLogs();
    await node.mine(6);
    await watch();
    expect(world.proxy.droppedLogs).toBe(1);

    const [credited] = await transactionsOf(world, customer.id);
    expect(credited).toMatchObject({ id: seen!.id, type: 'DEPOSIT', status: 'SUCCESS', failureReason: null });
    expect(
      (credited!.receipt as { blockchain: { transactionHash: string } }).blockchain.transactionHash,
    ).toBe(hash);
    // later passes, with complete answers, change nothing and credit nothing twice
    await node.mine(CONFIRMATIONS);
    expect(await watch()).toBe(0);
    expect(await transactionsOf(world, customer.id)).toHaveLength(1);
    expect(await usdcBalance(world, customer.id)).toBe('30.000000');
    expect(await customerBalances(world.server.ctx.db, customer.id)).toEqual(
      new Map([['USDC', 30_000_000n]]),
    );
    expect(await node.balanceOf(world.usdc, customer.address)).toBe(30_000_000n);
  });

  it('a Transfer log above the ledger range is rejected with its reason and every other deposit is credited', async () => {
    const whale = await approvedCustomer(world);
    const other = await approvedCustomer(world);
    const huge = 2n ** 64n; // above PostgreSQL's bigint
    await node.mint(world.usdc, whale.address, huge);
    await node.mint(world.usdc, other.address, 5_000_000n);

    await watch();
    await node.mine(CONFIRMATIONS);
    await watch();
    await watch(); // every pass carries on

    const [deposit] = await transactionsOf(world, other.id);
    expect(deposit).toMatchObject({ type: 'DEPOSIT', status: 'SUCCESS', request: { amount: '5.000000' } });
    expect(await usdcBalance(world, other.id)).toBe('5.000000');
    expect(await transactionsOf(world, whale.id)).toEqual([]);
    expect(await usdcBalance(world, whale.id)).toBe('0.000000');

    const rejected = await world.server.ctx.db.query<{ amount: string; reason: string }>(
      `SELECT amount::text AS amount, reason FROM chain_rejected_logs WHERE lower(to_address) = lower($1)`,
      [whale.address],
    );
    expect(rejected).toEqual([
      { amount: huge.toString(), reason: 'The amount is larger than the ledger can hold' },
    ]);
    // reported once, without the address or the amount
    const reports = errors.filter((line) => line.includes('rejected'));
    expect(reports).toHaveLength(1);
    expect(reports[0]).not.toContain(whale.address.slice(2).toLowerCase());
    expect(reports[0]!.toLowerCase()).not.toContain(whale.address.slice(2).toLowerCase());
    expect(reports[0]).not.toContain(huge.toString());

    // a deposit after it is still seen and credited
    await node.mint(world.usdc, other.address, 1_000_000n);
    await watch();
    await node.mine(CONFIRMATIONS);
    await watch();
    expect(await usdcBalance(world, other.id)).toBe('6.000000');
  });
});
