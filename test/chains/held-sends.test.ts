/**
 * A compliance hold stops a chain send at the moment it leaves, on a real EVM node: a transfer to an external
 * address, or an on-ramp's delivery, accepted before its customer was put on hold and still queued because
 * the node was down, is not signed nor broadcast while the hold stands (its reserve kept); a cleared case
 * lets it leave and settle; a confirmed match FAILS it (a transfer's amount back in the wallet through a
 * balanced reversal; an on-ramp's stablecoin never delivered), and nothing ever reaches the chain.
 */
import type { Address, Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenSubject } from '../../src/modules/screening/service.ts';
import { checkSubmitted, signQueued } from '../../src/modules/wallets/sender.ts';
import { watchChain } from '../../src/modules/wallets/watcher.ts';
import { eventually, usingPostgres } from '../helpers/server.ts';
import { eventTypes, unbalanced } from '../off-ramp/support.ts';
import type { PspSimulator } from '../psp/simulator.ts';
import { pspEnv, startSimulator, terminatedDelivery } from '../psp/support.ts';
import { importFixture, OFAC_DIR } from '../screening/support.ts';
import { createOnRamp, setRate } from '../transactions/support.ts';
import { type Anvil, startAnvil } from './anvil.ts';
import { approvedCustomer, type ChainWorld, CONFIRMATIONS, chainWorld, usdcBalance } from './support.ts';

const { node: anvil, reason } = await startAnvil();
if (!anvil) console.warn(`SKIPPED: the real-node tests need anvil, which could not start here: ${reason}`);

/** OFAC fixture entry 90004. */
const LISTED = {
  name: 'João Carlos dos Santos da Silva',
  kind: 'INDIVIDUAL',
  birthDate: '1975-02-02',
  country: 'BRA',
} as const;

type SendState = {
  status: string;
  nonce: bigint | null;
  transaction_hash: string | null;
  held_since: Date | null;
};

describe.skipIf(!anvil)('a compliance hold on chain sends at the moment they leave (anvil)', () => {
  const node = anvil as Anvil;
  let world: ChainWorld;
  let simulator: PspSimulator;

  beforeAll(async () => {
    simulator = await startSimulator({ deliver: terminatedDelivery(() => world?.server.production) });
    world = await chainWorld(node, {
      ...pspEnv(simulator),
      PONTE_ONRAMP_FEE_BPS: '0',
      PONTE_TRANSACTION_MIN_FEE: '0',
    } as Record<string, string>);
    await world.server.ctx.pix.psp('production')!.registerWebhook();
    await setRate(world.server, 'BRL/USDC', '0.2');
    await importFixture(world.server, 'ofac-sdn', OFAC_DIR);
    await watch();
  });
  afterAll(async () => {
    await world?.close();
    await simulator?.close();
    node.stop();
  });

  const adapter = () => world.server.ctx.chains.get('production', 'ETHEREUM');
  const watch = () => watchChain(world.server.ctx, adapter());
  const sign = () => signQueued(world.server.ctx);
  const target = (digit: string) => privateKeyToAccount(`0x${digit.repeat(64)}` as Hex).address;
  const treasuryNonce = () => node.client.getTransactionCount({ address: world.treasury as Address });

  /** A customer holding `amount` USDC (minor units), deposited on chain to their own address. */
  async function fundedCustomer(amount: bigint) {
    const customer = await approvedCustomer(world);
    await node.mint(world.usdc, customer.address, amount);
    await watch();
    await node.mine(CONFIRMATIONS);
    await watch();
    return customer;
  }

  /** A transfer to an external address made while the node is down: accepted, its send still queued. */
  async function transferWhileNodeDown(from: string, to: string, amount: string) {
    const restore = world.proxy.unavailable();
    try {
      const response = await world.production.post('/transactions/transfer', {
        currency: 'USDC',
        from,
        to,
        amount,
        blockchain: 'ETHEREUM',
      });
      expect(response.statusCode, response.body).toBe(201);
      const created = response.json();
      expect(created.status).toBe('PROCESSING');
      expect(await sendOf(created.id)).toMatchObject({ status: 'QUEUED', held_since: null });
      return created;
    } finally {
      restore();
    }
  }

  const sendOf = async (transactionId: string) =>
    (
      await world.server.ctx.db.query<SendState>(
        'SELECT status, nonce, transaction_hash, held_since FROM chain_sends WHERE transaction_id = $1',
        [transactionId],
      )
    )[0]!;

  /** Waits until the node has mined the send of `transactionId` (anvil answers a broadcast before mining it). */
  async function landed(transactionId: string) {
    const hash = (await sendOf(transactionId)).transaction_hash as Hex;
    await node.client.waitForTransactionReceipt({ hash, pollingInterval: 50 });
  }

  const get = async (id: string) => {
    const response = await world.production.get(`/transactions/${id}`);
    expect(response.statusCode).toBe(200);
    return response.json();
  };

  /** Puts the customer on hold as a re-screening does when a new list version names it; the case's id. */
  async function putOnHold(customerId: string): Promise<string> {
    const [owner] = await world.server.ctx.db.query<{ project_id: string }>(
      'SELECT project_id FROM customers WHERE id = $1',
      [customerId],
    );
    const opened = await world.server.ctx.db.transaction((tx) =>
      screenSubject(
        tx,
        {
          type: 'CUSTOMER',
          id: customerId,
          customerId,
          tenant: { projectId: owner!.project_id, environment: 'production' },
          party: LISTED,
        },
        world.server.config.screening.threshold,
        world.server.ctx.clock(),
      ),
    );
    if (!opened) throw new Error('the listed name opened no case');
    return opened.row.id;
  }

  async function decide(caseId: string, decision: 'CLEAR' | 'CONFIRM') {
    const response = await world.server.operator.inject({
      method: 'POST',
      url: `/operator/screening/cases/${caseId}/decision`,
      payload: { decision, comment: 'reviewed against the list entry' },
      headers: { authorization: `Bearer ${world.server.operatorToken}` },
    });
    expect(response.statusCode, response.body).toBe(200);
  }

  /** A transfer accepted before the hold, then looked at by the signer while the customer is held. */
  async function heldTransfer(digit: string) {
    const customer = await fundedCustomer(10_000_000n);
    const created = await transferWhileNodeDown(customer.id, target(digit), '2.5');
    expect(await usdcBalance(world, customer.id)).toBe('7.500000');
    const caseId = await putOnHold(customer.id);
    const nonce = await treasuryNonce();
    const broadcasts = world.proxy.calls('eth_sendRawTransaction');
    await sign();
    await sign();
    const held = await sendOf(created.id);
    expect(held).toMatchObject({ status: 'QUEUED', nonce: null, transaction_hash: null });
    expect(held.held_since).toBeInstanceOf(Date);
    // nothing signed, nothing broadcast, nothing on chain
    expect(world.proxy.calls('eth_sendRawTransaction')).toBe(broadcasts);
    expect(await treasuryNonce()).toBe(nonce);
    expect(await node.balanceOf(world.usdc, target(digit))).toBe(0n);
    // the reserve kept while the case is open
    expect((await get(created.id)).status).toBe('PROCESSING');
    expect(await usdcBalance(world, customer.id)).toBe('7.500000');
    return { customer, created, caseId };
  }

  it('does not sign or broadcast a held customer’s transfer accepted before the hold; a cleared case lets it leave and settle', async () => {
    const { customer, created, caseId } = await heldTransfer('1');
    await decide(caseId, 'CLEAR');
    expect(await sendOf(created.id)).toMatchObject({ status: 'QUEUED', held_since: null });
    expect(await sign()).toBe(1);
    expect((await sendOf(created.id)).status).toBe('SUBMITTED');
    await landed(created.id);
    expect(await node.balanceOf(world.usdc, target('1'))).toBe(2_500_000n);
    await node.mine(CONFIRMATIONS);
    await checkSubmitted(world.server.ctx);
    const done = await get(created.id);
    expect(done.status).toBe('SUCCESS');
    expect(
      (await node.client.getTransactionReceipt({ hash: done.receipt.blockchain.transactionHash })).status,
    ).toBe('success');
    expect(await usdcBalance(world, customer.id)).toBe('7.500000');
    expect(await unbalanced(world.server)).toEqual([]);
  });

  it('FAILS a held transfer when the match is confirmed: its amount back in the wallet, nothing on chain', async () => {
    const { customer, created, caseId } = await heldTransfer('2');
    const nonce = await treasuryNonce();
    await decide(caseId, 'CONFIRM');
    const failed = await get(created.id);
    expect(failed).toMatchObject({ status: 'FAILED', failureCode: 'compliance_refused' });
    expect(failed.failureReason).toMatch(/compliance.*back in the wallet/);
    expect(failed.timeline.map((step: { status: string }) => step.status)).toEqual(['PROCESSING', 'FAILED']);
    expect(await sendOf(created.id)).toMatchObject({ status: 'FAILED', held_since: null, nonce: null });
    expect(await usdcBalance(world, customer.id)).toBe('10.000000');
    expect((await eventTypes(world.server, created.id)).at(-1)).toBe('transaction.updated');
    const reversals = await world.server.ctx.db.query(
      "SELECT 1 FROM ledger_journals WHERE kind = 'CHAIN_SEND_REVERSED' AND reference = $1",
      [created.id],
    );
    expect(reversals).toHaveLength(1);
    expect(await unbalanced(world.server)).toEqual([]);
    // the signer never takes it up again
    expect(await sign()).toBe(0);
    await node.mine(CONFIRMATIONS);
    expect(await treasuryNonce()).toBe(nonce);
    expect(await node.balanceOf(world.usdc, target('2'))).toBe(0n);
  });

  it('refuses at the moment it would leave a queued transfer whose customer’s match was confirmed before the signer saw it', async () => {
    const customer = await fundedCustomer(10_000_000n);
    const created = await transferWhileNodeDown(customer.id, target('3'), '4');
    const caseId = await putOnHold(customer.id);
    await decide(caseId, 'CONFIRM'); // the send was not yet held: the decision found nothing to refuse
    expect((await get(created.id)).status).toBe('PROCESSING');
    const nonce = await treasuryNonce();
    expect(await sign()).toBe(1);
    expect(await get(created.id)).toMatchObject({ status: 'FAILED', failureCode: 'compliance_refused' });
    expect(await sendOf(created.id)).toMatchObject({ status: 'FAILED', held_since: null, nonce: null });
    expect(await usdcBalance(world, customer.id)).toBe('10.000000');
    expect(await treasuryNonce()).toBe(nonce);
    expect(await node.balanceOf(world.usdc, target('3'))).toBe(0n);
    expect(await unbalanced(world.server)).toEqual([]);
  });

  it('signs the sends of other customers while one customer’s send is held', async () => {
    const held = await heldTransfer('4');
    const other = await fundedCustomer(5_000_000n);
    const free = await transferWhileNodeDown(other.id, target('5'), '1');
    expect(await sign()).toBe(1);
    expect((await sendOf(free.id)).status).toBe('SUBMITTED');
    await landed(free.id);
    expect(await node.balanceOf(world.usdc, target('5'))).toBe(1_000_000n);
    expect((await sendOf(held.created.id)).status).toBe('QUEUED');
    expect(await node.balanceOf(world.usdc, target('4'))).toBe(0n);
  });

  /**
   * An on-ramp of 50.00 BRL (10 USDC) paid while the node is down: converted, its delivery queued; then
   * its customer put on hold and the delivery looked at by the signer. Held: nothing on chain.
   */
  async function heldDelivery() {
    const customer = await approvedCustomer(world);
    const charge = await createOnRamp(world.production, customer.id, '50.00', { blockchain: 'ETHEREUM' });
    const restore = world.proxy.unavailable();
    try {
      await simulator.pay(charge.id.replace(/-/g, ''), '50.00');
      await simulator.idle();
      await world.server.ctx.pix.settled();
    } finally {
      restore();
    }
    expect((await get(charge.id)).status).toBe('TRANSFERRING_STABLECOIN');
    expect((await sendOf(charge.id)).status).toBe('QUEUED');
    const caseId = await putOnHold(customer.id);
    const nonce = await treasuryNonce();
    await sign();
    const held = await sendOf(charge.id);
    expect(held).toMatchObject({ status: 'QUEUED', nonce: null, transaction_hash: null });
    expect(held.held_since).toBeInstanceOf(Date);
    expect(await treasuryNonce()).toBe(nonce);
    expect(await node.balanceOf(world.usdc, customer.address)).toBe(0n);
    expect((await get(charge.id)).status).toBe('TRANSFERRING_STABLECOIN');
    return { customer, charge, caseId, nonce };
  }

  it('does not deliver a held customer’s on-ramp stablecoin paid before the hold; a cleared case lets it land', async () => {
    const { customer, charge, caseId } = await heldDelivery();
    await decide(caseId, 'CLEAR');
    expect(await sign()).toBe(1);
    await landed(charge.id);
    expect(await node.balanceOf(world.usdc, customer.address)).toBe(10_000_000n);
    await node.mine(CONFIRMATIONS);
    await checkSubmitted(world.server.ctx);
    expect((await get(charge.id)).status).toBe('SUCCESS');
    expect(await usdcBalance(world, customer.id)).toBe('10.000000');
    expect(await unbalanced(world.server)).toEqual([]);
  });

  it('FAILS a held on-ramp delivery when the match is confirmed: nothing delivered, nothing credited', async () => {
    const { customer, charge, caseId, nonce } = await heldDelivery();
    await decide(caseId, 'CONFIRM');
    const failed = await get(charge.id);
    expect(failed).toMatchObject({ status: 'FAILED', failureCode: 'compliance_refused' });
    expect(failed.failureReason).toMatch(/compliance/);
    expect((await eventTypes(world.server, charge.id)).at(-1)).toBe('transaction.updated');
    expect(await sendOf(charge.id)).toMatchObject({ status: 'FAILED', held_since: null, nonce: null });
    expect(await sign()).toBe(0);
    await node.mine(CONFIRMATIONS);
    await watch();
    expect(await treasuryNonce()).toBe(nonce);
    expect(await node.balanceOf(world.usdc, customer.address)).toBe(0n);
    expect(await usdcBalance(world, customer.id)).toBe('0.000000');
    expect(await unbalanced(world.server)).toEqual([]);
  });

  it.runIf(usingPostgres())(
    'sees a hold opened while the send is being signed: the signer waits for the case, then holds the send',
    async () => {
      const customer = await fundedCustomer(10_000_000n);
      const created = await transferWhileNodeDown(customer.id, target('6'), '1');
      const [owner] = await world.server.ctx.db.query<{ project_id: string }>(
        'SELECT project_id FROM customers WHERE id = $1',
        [customer.id],
      );
      const lockWaiters = async () =>
        Number(
          (
            await world.server.ctx.db.query<{ n: bigint }>(
              `SELECT count(*) AS n FROM pg_stat_activity
                WHERE datname = current_database() AND wait_event_type = 'Lock'`,
            )
          )[0]!.n,
        );
      const nonce = await treasuryNonce();
      let signing: Promise<number> | undefined;
      // a re-screening opens the case; before it commits, the signer takes the send up
      await world.server.ctx.db.transaction(async (tx) => {
        const opened = await screenSubject(
          tx,
          {
            type: 'CUSTOMER',
            id: customer.id,
            customerId: customer.id,
            tenant: { projectId: owner!.project_id, environment: 'production' },
            party: LISTED,
          },
          world.server.config.screening.threshold,
          world.server.ctx.clock(),
        );
        expect(opened?.opened).toBe(true);
        signing = sign();
        await eventually(lockWaiters, (n) => n > 0, 10_000);
      });
      await signing;
      const held = await sendOf(created.id);
      expect(held.status).toBe('QUEUED');
      expect(held.held_since).toBeInstanceOf(Date);
      expect(await treasuryNonce()).toBe(nonce);
      expect(await node.balanceOf(world.usdc, target('6'))).toBe(0n);
    },
  );
});
