/**
 * Reconciliation of watched addresses' token balances against the ledger, on a real EVM node: a credited
 * deposit that a reorganisation deeper than the confirmations removed is found, counted in the metric,
 * shown as an alert in the operator console (a real browser, checked with axe-core), and resolved there by
 * the operator with an audited reversal.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customerBalances } from '../../src/modules/ledger/repo.ts';
import { reconcileChain, reconcileChains } from '../../src/modules/wallets/reconcile.ts';
import { watchChain } from '../../src/modules/wallets/watcher.ts';
import { checkPage, hasChromium, launch, listen, newPage, pathOf, submit } from '../browser/web-support.ts';
import { type Anvil, startAnvil } from './anvil.ts';
import {
  approvedCustomer,
  type ChainWorld,
  CONFIRMATIONS,
  chainWorld,
  transactionsOf,
  usdcBalance,
} from './support.ts';

const PASSWORD = 'operator password long enough';
const { node: anvil, reason } = await startAnvil();
if (!anvil) console.warn(`SKIPPED: the real-node tests need anvil, which could not start here: ${reason}`);

describe.skipIf(!anvil)('chain balance reconciliation (anvil)', { timeout: 60_000 }, () => {
  const node = anvil as Anvil;
  let world: ChainWorld;
  let customer: { id: string; address: string };
  let matched: { id: string; address: string };
  let depositId: string;
  const errors: string[] = [];

  beforeAll(async () => {
    world = await chainWorld(node);
    await watch();
  }, 120_000);
  afterAll(async () => {
    await world?.close();
    node.stop();
  });

  const deps = () => ({
    ...world.server.ctx,
    log: { error: (obj: unknown, msg: string) => errors.push(`${msg} ${JSON.stringify(obj)}`) },
  });
  const watch = () => watchChain(deps(), world.server.ctx.chains.get('production', 'ETHEREUM'));
  const reconcile = () => reconcileChains(deps());
  const differences = () =>
    world.server.ctx.db.query<{
      id: string;
      address: string;
      on_chain: string;
      ledger: string;
      status: string;
    }>(
      `SELECT id, address, on_chain::text AS on_chain, ledger::text AS ledger, status
         FROM chain_balance_differences ORDER BY first_seen_at`,
    );
  const metricLine = async () => {
    const response = await world.server.operator.inject({ method: 'GET', url: '/metrics' });
    expect(response.statusCode).toBe(200);
    return response.body
      .split('\n')
      .find((line) =>
        line.startsWith('ponte_chain_balance_differences{blockchain="ETHEREUM",currency="USDC"}'),
      );
  };

  it('finds a credited deposit that a reorganisation deeper than the confirmations removed', async () => {
    matched = await approvedCustomer(world);
    await node.mint(world.usdc, matched.address, 2_000_000n);
    customer = await approvedCustomer(world);
    const before = await node.snapshot();
    await node.mint(world.usdc, node.deployer.account.address, 5_000_000n);
    await node.transfer(world.usdc, customer.address, 5_000_000n);
    await watch();
    await node.mine(CONFIRMATIONS);
    await watch();
    const [deposit] = await transactionsOf(world, customer.id);
    expect(deposit).toMatchObject({ type: 'DEPOSIT', status: 'SUCCESS' });
    depositId = deposit!.id;
    expect(await reconcile()).toBe(0);
    expect(await differences()).toEqual([]);
    expect(await metricLine()).toMatch(/ 0$/);

    // the chain drops the credited transfer, deeper than the confirmations the watcher waited for
    await node.revert(before);
    await node.mine(CONFIRMATIONS + 2);
    await watch();
    expect(await node.balanceOf(world.usdc, customer.address)).toBe(0n);
    expect(await usdcBalance(world, customer.id)).toBe('5.000000'); // the watcher cannot see it

    expect(await reconcile()).toBe(1);
    const [difference] = await differences();
    expect(difference).toMatchObject({
      address: customer.address,
      on_chain: '0',
      ledger: '5000000',
      status: 'OPEN',
    });
    expect(await metricLine()).toMatch(/ 1$/);
    const reports = errors.filter((line) => line.includes('differs from the ledger'));
    expect(reports).toHaveLength(1);
    expect(reports[0]!.toLowerCase()).not.toContain(customer.address.slice(2).toLowerCase());

    // another pass keeps the one difference; the address that matches has none
    await node.mine(1);
    expect(await reconcile()).toBe(0);
    expect(await differences()).toHaveLength(1);
  });

  it('checks a bounded batch of addresses per pass, the least recently checked first, covering all in turn', async () => {
    const adapter = world.server.ctx.chains.get('production', 'ETHEREUM');
    const wallets = await world.server.ctx.db.query<{ address: string }>(
      `SELECT address FROM wallets WHERE environment = 'production' AND blockchain = 'ETHEREUM'`,
    );
    const covered = new Set<string>();
    for (let pass = 0; pass < wallets.length; pass++) {
      expect(await reconcileChain(deps(), adapter, 1)).toBe(0); // the one difference is already open
      const [latest] = await world.server.ctx.db.query<{ address: string }>(
        `SELECT address FROM chain_reconciled_addresses ORDER BY checked_at DESC LIMIT 1`,
      );
      covered.add(latest!.address);
    }
    expect(covered.size).toBe(wallets.length);
    expect((await differences()).filter((d) => d.status === 'OPEN')).toHaveLength(1);
  });

  describe.skipIf(!hasChromium)('in the operator console', () => {
    let browser: Browser;
    let page: Page;
    let origin: string;

    beforeAll(async () => {
      origin = await listen(world.server.operator);
      browser = await launch();
      ({ page } = await newPage(browser));
      const operator = (
        await world.server.operator.inject({
          method: 'POST',
          url: '/operator/operators',
          payload: { name: 'Olga Reconciler' },
          headers: { authorization: `Bearer ${world.server.operatorToken}` },
        })
      ).json();
      const invited = await world.server.operator.inject({
        method: 'POST',
        url: `/operator/operators/${operator.id}/console-invite`,
        payload: { email: 'olga@ponte.example' },
        headers: { authorization: `Bearer ${world.server.operatorToken}` },
      });
      await page.goto(`${origin}${pathOf(invited.json().inviteUrl)}`);
      await page.fill('#password', PASSWORD);
      expect(await submit(page, 'button[type=submit]')).toBe(200);
    }, 120_000);
    afterAll(async () => {
      await browser?.close();
    });

    it('alerts on every page while a difference is open, and the operator reverses the deposit, audited', async () => {
      await page.goto(`${origin}/console/rates`);
      const alert = page.locator('[role=alert]:has-text("Chain balances differ from the ledger")');
      expect(await alert.count()).toBe(1);
      expect(await alert.textContent()).toContain('1 open difference');
      await checkPage(page, 'console-chain-alert');

      await page.click('a:has-text("Review and resolve")');
      await page.waitForLoadState('load');
      expect(pathOf(page.url())).toBe('/console/chain-balances');
      expect(await page.locator('td:has-text("-5.000000")').count()).toBe(1);
      await checkPage(page, 'console-chain-balances');

      // a reason is required: the browser keeps the form until one is given
      await page.click('summary:has-text("Resolve")');
      await page.fill(`#reverse-note-${(await differences())[0]!.id}`, 'Removed by a deep reorganisation');
      page.once('dialog', (dialog) => void dialog.accept());
      expect(await submit(page, 'button:has-text("Reverse deposit")')).toBe(200);
      expect(await page.locator('[role=status]:has-text("The deposit was reversed.")').count()).toBe(1);
      expect(await page.locator('[role=alert]').count()).toBe(0);

      const [difference] = await differences();
      expect(difference).toMatchObject({ status: 'RESOLVED', on_chain: '0', ledger: '0' });
      expect(await usdcBalance(world, customer.id)).toBe('0.000000');
      expect(await customerBalances(world.server.ctx.db, customer.id)).toEqual(new Map([['USDC', 0n]]));
      const journals = await world.server.ctx.db.query<{ total: string }>(
        `SELECT sum(e.amount)::text AS total FROM ledger_journals j JOIN ledger_entries e ON e.journal_id = j.id
          WHERE j.kind = 'CHAIN_DEPOSIT_REVERSED' AND j.reference = $1`,
        [depositId],
      );
      expect(journals).toEqual([{ total: '0' }]);
      const audit = await world.server.ctx.db.query<{
        actor: string;
        after: { depositId: string; resolution: string };
      }>(
        `SELECT actor, after FROM audit_log WHERE action = 'chain_balance_difference.deposit_reversed'
          AND resource_id = $1`,
        [difference!.id],
      );
      expect(audit).toHaveLength(1);
      expect(audit[0]!.actor).toContain('olga@ponte.example');
      expect(audit[0]!.after).toMatchObject({ depositId, resolution: 'Removed by a deep reorganisation' });
      expect(await metricLine()).toMatch(/ 0$/);

      // the next pass finds the address and the ledger in agreement
      expect(await reconcile()).toBe(0);
      expect((await differences()).filter((d) => d.status === 'OPEN')).toEqual([]);
      // reversing twice is refused with a 4xx, changing nothing
      const again = await page.request.post(`${origin}/console/chain-balances/${difference!.id}/reverse`, {
        form: {
          depositId,
          note: 'again',
          _csrf: (await page.getAttribute('input[name=_csrf]', 'value')) ?? '',
        },
        headers: { origin },
      });
      expect(again.status()).toBe(409);
      expect(await usdcBalance(world, customer.id)).toBe('0.000000');
    });

    it('credits from the console a transfer the watcher missed when one eth_getLogs answer came incomplete', async () => {
      const missed = await approvedCustomer(world);
      await node.mint(world.usdc, node.deployer.account.address, 7_000_000n);
      const hash = await node.transfer(world.usdc, missed.address, 7_000_000n);
      await node.mine(CONFIRMATIONS); // final before the watcher looks
      world.proxy.dropNextNonEmptyLogs();
      await watch();
      await node.mine(1);
      await watch();
      expect(await transactionsOf(world, missed.id)).toEqual([]);

      expect(await reconcile()).toBe(1);
      const open = (await differences()).find((d) => d.status === 'OPEN')!;
      expect(open).toMatchObject({ address: missed.address, on_chain: '7000000', ledger: '0' });
      await page.goto(`${origin}/console/chain-balances`);
      expect(await page.locator('[role=alert]:has-text("1 open difference")').count()).toBe(1);

      // a hash that is not one is refused with a 4xx and changes nothing
      const csrf = (await page.getAttribute('input[name=_csrf]', 'value')) ?? '';
      const bad = await page.request.post(`${origin}/console/chain-balances/${open.id}/credit`, {
        form: { transactionHash: '0x1234', note: 'typo', _csrf: csrf },
        headers: { origin },
      });
      expect(bad.status()).toBe(400);
      const unrelated = await page.request.post(`${origin}/console/chain-balances/${open.id}/credit`, {
        form: { transactionHash: `0x${'ab'.repeat(32)}`, note: 'wrong one', _csrf: csrf },
        headers: { origin },
      });
      expect(unrelated.status()).toBe(400);
      expect(await transactionsOf(world, missed.id)).toEqual([]);

      await page.click('summary:has-text("Resolve")');
      await page.fill(`#credit-hash-${open.id}`, hash);
      await page.fill(`#credit-note-${open.id}`, 'Missed by an incomplete node answer');
      await checkPage(page, 'console-chain-balances-credit');
      expect(await submit(page, 'button:has-text("Credit transfer")')).toBe(200);
      expect(await page.locator('[role=status]:has-text("The transfer was credited.")').count()).toBe(1);

      const [deposit] = await transactionsOf(world, missed.id);
      expect(deposit).toMatchObject({ type: 'DEPOSIT', status: 'SUCCESS', request: { amount: '7.000000' } });
      expect(await usdcBalance(world, missed.id)).toBe('7.000000');
      expect((await differences()).find((d) => d.id === open.id)).toMatchObject({
        status: 'RESOLVED',
        ledger: '7000000',
      });
      const audit = await world.server.ctx.db.query<{ after: { transactionHash: string; amount: string } }>(
        `SELECT after FROM audit_log WHERE action = 'chain_balance_difference.deposit_credited' AND resource_id = $1`,
        [open.id],
      );
      expect(audit).toHaveLength(1);
      expect(audit[0]!.after).toMatchObject({ transactionHash: hash, amount: '7000000' });
      expect(await reconcile()).toBe(0);
      expect(await metricLine()).toMatch(/ 0$/);
      // the watcher, seeing the log again some day, credits nothing twice
      await watch();
      expect(await usdcBalance(world, missed.id)).toBe('7.000000');
    });

    it('accepts with a note, audited, a difference from a log the ledger cannot hold; it is not raised again', async () => {
      const whale = await approvedCustomer(world);
      await node.mint(world.usdc, whale.address, 2n ** 64n);
      await watch();
      await node.mine(CONFIRMATIONS);
      await watch();
      expect(await reconcile()).toBe(1);
      const open = (await differences()).find((d) => d.status === 'OPEN')!;
      expect(open).toMatchObject({ address: whale.address, on_chain: (2n ** 64n).toString(), ledger: '0' });

      await page.goto(`${origin}/console/chain-balances?status=OPEN`);
      await page.click('summary:has-text("Resolve")');
      // no explanation: the form is not sent; a blank one sent anyway is refused with a 4xx
      const csrf = (await page.getAttribute('input[name=_csrf]', 'value')) ?? '';
      const blank = await page.request.post(`${origin}/console/chain-balances/${open.id}/accept`, {
        form: { note: '   ', _csrf: csrf },
        headers: { origin },
      });
      expect(blank.status()).toBe(400);
      await page.fill(
        `#accept-note-${open.id}`,
        'Test token minted beyond the ledger range; not customer money',
      );
      expect(await submit(page, 'button:has-text("Accept with note")')).toBe(200);
      expect(await page.locator('[role=status]:has-text("The difference was accepted.")').count()).toBe(1);
      expect((await differences()).find((d) => d.id === open.id)).toMatchObject({ status: 'RESOLVED' });
      const audit = await world.server.ctx.db.query<{ actor: string }>(
        `SELECT actor FROM audit_log WHERE action = 'chain_balance_difference.accepted' AND resource_id = $1`,
        [open.id],
      );
      expect(audit).toHaveLength(1);
      expect(audit[0]!.actor).toContain('olga@ponte.example');
      await node.mine(1);
      expect(await reconcile()).toBe(0);
      expect((await differences()).filter((d) => d.status === 'OPEN')).toEqual([]);
      expect(await usdcBalance(world, whale.id)).toBe('0.000000');
    });
  });
});
