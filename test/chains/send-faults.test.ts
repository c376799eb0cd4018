/**
 * Outbound sends against a real EVM node behind a fault-injecting JSON-RPC proxy: a send stuck below a
 * raised base fee is re-signed with a higher fee within the chain's ceiling; a send whose nonce another
 * transaction took is settled once, with the amount back; a transfer that reverted on chain shows its hash.
 */
import { type Address, encodeAbiParameters, type Hex, keccak256, numberToHex, parseGwei } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customerBalances } from '../../src/modules/ledger/repo.ts';
import { checkSubmitted, replacementFees } from '../../src/modules/wallets/sender.ts';
import { watchChain } from '../../src/modules/wallets/watcher.ts';
import { type Anvil, startAnvil } from './anvil.ts';
import { approvedCustomer, type ChainWorld, CONFIRMATIONS, chainWorld, usdcBalance } from './support.ts';

const CEILING_GWEI = 1_000n;
const { node: anvil, reason } = await startAnvil();
if (!anvil) console.warn(`SKIPPED: the real-node tests need anvil, which could not start here: ${reason}`);

describe('replacement fees', () => {
  const gwei = (n: number) => parseGwei(String(n));
  it('offer what the chain asks, at least a node’s replacement bump, never above the ceiling', () => {
    const previous = { maxFeePerGas: gwei(2), maxPriorityFeePerGas: gwei(1) };
    const market = { baseFeePerGas: gwei(500), maxFeePerGas: gwei(601), maxPriorityFeePerGas: gwei(1) };
    expect(replacementFees(previous, market, gwei(1000))).toEqual({
      maxFeePerGas: gwei(601),
      maxPriorityFeePerGas: gwei(1) + gwei(1) / 8n + 1n,
    });
    expect(replacementFees(previous, market, gwei(300))).toEqual({
      maxFeePerGas: gwei(300),
      maxPriorityFeePerGas: gwei(1) + gwei(1) / 8n + 1n,
    });
    // already at the ceiling: no replacement a node would take
    expect(
      replacementFees({ maxFeePerGas: gwei(300), maxPriorityFeePerGas: gwei(1) }, market, gwei(300)),
    ).toBe(null);
  });
});

describe.skipIf(!anvil)('sends through a flaky node (anvil behind a JSON-RPC proxy)', () => {
  const node = anvil as Anvil;
  let world: ChainWorld;

  beforeAll(async () => {
    world = await chainWorld(node, { PONTE_CHAIN_ETHEREUM_MAX_FEE_GWEI: String(CEILING_GWEI) });
    await watch();
  });
  afterAll(async () => {
    await world?.close();
    node.stop();
  });

  const adapter = () => world.server.ctx.chains.get('production', 'ETHEREUM');
  const watch = () => watchChain(world.server.ctx, adapter());
  const check = () => checkSubmitted(world.server.ctx);
  const target = (digit: string) => privateKeyToAccount(`0x${digit.repeat(64)}` as Hex).address;

  /** A customer holding `amount` USDC (minor units), deposited on chain to their own address. */
  async function fundedCustomer(amount: bigint) {
    const customer = await approvedCustomer(world);
    await node.mint(world.usdc, customer.address, amount);
    await watch();
    await node.mine(CONFIRMATIONS);
    await watch();
    return customer;
  }

  async function transfer(from: string, to: string, amount: string) {
    const response = await world.production.post('/transactions/transfer', {
      currency: 'USDC',
      from,
      to,
      amount,
      blockchain: 'ETHEREUM',
    });
    expect(response.statusCode).toBe(201);
    return response.json();
  }

  const get = async (id: string) => {
    const response = await world.production.get(`/transactions/${id}`);
    expect(response.statusCode).toBe(200);
    return response.json();
  };

  async function withoutAutomine<T>(work: () => Promise<T>): Promise<T> {
    await node.client.setAutomine(false);
    try {
      return await work();
    } finally {
      await node.client.setAutomine(true);
    }
  }

  it('re-signs sends stuck below a raised base fee with a higher fee, same nonce, within the ceiling', async () => {
    const customer = await fundedCustomer(20_000_000n);
    const [first, second] = await withoutAutomine(async () => {
      const a = await transfer(customer.id, target('a'), '3');
      const b = await transfer(customer.id, target('b'), '4');
      await node.client.setNextBlockBaseFeePerGas({ baseFeePerGas: parseGwei('500') });
      await node.mine(15);
      // the second as if signed before fees were recorded: its offer is read from its signed bytes
      await world.server.ctx.db.query(
        `UPDATE chain_sends SET max_fee_per_gas = NULL, max_priority_fee_per_gas = NULL WHERE transaction_id = $1`,
        [b.id],
      );
      await world.server.ctx.db.query(
        `DELETE FROM chain_send_attempts WHERE send_id = (SELECT id FROM chain_sends WHERE transaction_id = $1)`,
        [b.id],
      );
      await check();
      expect((await get(a.id)).status).toBe('PROCESSING'); // the old, cheap transactions could not be mined
      expect(await node.balanceOf(world.usdc, target('a'))).toBe(0n);
      return [a, b];
    });
    const sends = await world.server.ctx.db.query<{
      transaction_id: string;
      nonce: bigint;
      transaction_hash: string;
      max_fee_per_gas: bigint;
    }>(
      `SELECT transaction_id, nonce, transaction_hash, max_fee_per_gas FROM chain_sends
        WHERE transaction_id = ANY($1::uuid[]) ORDER BY nonce`,
      [[first.id, second.id]],
    );
    expect(sends.map((s) => s.transaction_id)).toEqual([first.id, second.id]);
    for (const send of sends) {
      const attempts = await world.server.ctx.db.query<{ transaction_hash: string }>(
        `SELECT transaction_hash FROM chain_send_attempts WHERE send_id =
           (SELECT id FROM chain_sends WHERE transaction_id = $1)`,
        [send.transaction_id],
      );
      // the first signature and its replacement (the second's first was signed before attempts were kept)
      expect(attempts).toHaveLength(send.transaction_id === first.id ? 2 : 1);
      expect(attempts.map((a) => a.transaction_hash)).toContain(send.transaction_hash);
      expect(send.transaction_hash).not.toBe(
        send.transaction_id === first.id
          ? first.receipt.blockchain.transactionHash
          : second.receipt.blockchain.transactionHash,
      );
      expect(BigInt(send.max_fee_per_gas)).toBeLessThanOrEqual(CEILING_GWEI * 10n ** 9n);
      const mined = await node.client.getTransaction({ hash: send.transaction_hash as Hex });
      expect(BigInt(mined.nonce)).toBe(BigInt(send.nonce));
      expect(mined.maxFeePerGas!).toBeLessThanOrEqual(CEILING_GWEI * 10n ** 9n);
    }
    await node.mine(CONFIRMATIONS);
    await check();
    for (const [tx, to, amount] of [
      [first, target('a'), 3_000_000n],
      [second, target('b'), 4_000_000n],
    ] as const) {
      const done = await get(tx.id);
      expect(done.status).toBe('SUCCESS');
      const hash = done.receipt.blockchain.transactionHash as Hex;
      expect(hash).toBe(sends.find((s) => s.transaction_id === tx.id)!.transaction_hash);
      expect((await node.client.getTransactionReceipt({ hash })).status).toBe('success');
      expect(await node.balanceOf(world.usdc, to)).toBe(amount);
    }
    expect(await usdcBalance(world, customer.id)).toBe('13.000000');
  });

  it('settles once, FAILED with the amount back, a send whose nonce another transaction used', async () => {
    const customer = await fundedCustomer(10_000_000n);
    const restore = world.proxy.swallowBroadcasts();
    let created: { id: string };
    try {
      created = await transfer(customer.id, target('c'), '2.5');
      expect(world.proxy.swallowedSends).toBeGreaterThan(0);
      expect(await usdcBalance(world, customer.id)).toBe('7.500000');
      // another transaction from the treasury takes the nonce, straight to the node
      const [send] = await world.server.ctx.db.query<{ nonce: bigint }>(
        `SELECT nonce FROM chain_sends WHERE transaction_id = $1`,
        [created.id],
      );
      const other = await adapter().node!.sign({
        fromIndex: 0,
        to: target('d'),
        currency: 'USDC',
        amount: 1n,
        nonce: Number(send!.nonce),
      });
      await node.client.sendRawTransaction({ serializedTransaction: other.raw as Hex });
    } finally {
      restore();
    }
    await node.mine(CONFIRMATIONS);
    await check();
    // taken at the final block: failed only when that still holds a confirmation window later
    expect((await get(created.id)).status).toBe('PROCESSING');
    expect(await usdcBalance(world, customer.id)).toBe('7.500000');
    await node.mine(CONFIRMATIONS);
    await Promise.all([check(), check()]);
    await check();

    const failed = await get(created.id);
    expect(failed.status).toBe('FAILED');
    expect(failed.failureReason).toMatch(/back in the wallet: another transaction .* used its nonce/);
    expect(failed.receipt).toBeNull(); // nothing of it is on chain
    expect(failed.timeline.map((s: { status: string }) => s.status)).toEqual(['PROCESSING', 'FAILED']);
    expect(await node.balanceOf(world.usdc, target('c'))).toBe(0n);
    expect(await usdcBalance(world, customer.id)).toBe('10.000000');
    expect(await customerBalances(world.server.ctx.db, customer.id)).toEqual(
      new Map([['USDC', 10_000_000n]]),
    );
    const journals = await world.server.ctx.db.query<{ kind: string; total: string }>(
      `SELECT j.kind, sum(e.amount)::text AS total FROM ledger_journals j JOIN ledger_entries e ON e.journal_id = j.id
        WHERE j.reference = $1 GROUP BY j.kind ORDER BY j.kind`,
      [created.id],
    );
    expect(journals).toEqual([
      { kind: 'CHAIN_SEND', total: '0' },
      { kind: 'CHAIN_SEND_REVERSED', total: '0' },
    ]);
    await node.mine(CONFIRMATIONS);
    expect(await check()).toBe(0);
    expect((await get(created.id)).status).toBe('FAILED');
  });

  it('a transfer that reverted on chain is FAILED with its transactionHash in the receipt', async () => {
    const customer = await fundedCustomer(5_000_000n);
    const slot = keccak256(
      encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [world.treasury as Address, 3n]),
    );
    const held = await node.balanceOf(world.usdc, world.treasury);
    expect(BigInt((await node.client.getStorageAt({ address: world.usdc, slot }))!)).toBe(held);
    const created = await withoutAutomine(async () => {
      const created = await transfer(customer.id, target('e'), '1.25');
      // the treasury's tokens are gone by the time the transfer is mined: it reverts on chain
      await node.client.setStorageAt({
        address: world.usdc,
        index: slot,
        value: numberToHex(0n, { size: 32 }),
      });
      await node.mine(1);
      await node.client.setStorageAt({
        address: world.usdc,
        index: slot,
        value: numberToHex(held, { size: 32 }),
      });
      return created;
    });
    await node.mine(CONFIRMATIONS);
    await check();
    const failed = await get(created.id);
    expect(failed.status).toBe('FAILED');
    expect(failed.failureReason).toMatch(/reverted on chain/);
    const hash = failed.receipt.blockchain.transactionHash as Hex;
    expect(hash).toBe(created.receipt.blockchain.transactionHash);
    expect(failed.receipt.blockchain.blockExplorerUrl).toBe(`https://etherscan.io/tx/${hash}`);
    expect((await node.client.getTransactionReceipt({ hash })).status).toBe('reverted');
    expect(await usdcBalance(world, customer.id)).toBe('5.000000');
  });
});
