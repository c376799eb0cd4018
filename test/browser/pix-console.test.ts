/**
 * The PIX rail page of the operator console in a real browser, against the PSP simulator: the last
 * complete sweep as the sweep recorded it (after it applied a payment whose notification was lost), the
 * send awaiting the PSP under its idEnvio until the PSP settles it, and an item that could not be applied
 * with its reason. Checked with axe-core and captured under test-results/.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selfBody } from '../bank-accounts/bodies.ts';
import { individualBody } from '../helpers/factories.ts';
import { type Client, client, eventually } from '../helpers/server.ts';
import { offRamp } from '../off-ramp/support.ts';
import type { PspSimulator } from '../psp/simulator.ts';
import {
  expectNoViolations,
  pspEnv,
  startSimulator,
  terminatedDelivery,
  WEBHOOK_URL,
} from '../psp/support.ts';
import { createOnRamp, type IsolatedServer, setRate, startIsolatedServer } from '../transactions/support.ts';
import { checkPage, hasChromium, launch, listen, newPage, pathOf, submit } from './web-support.ts';

const PASSWORD = 'operator password long enough';
const WEBHOOK_PATH = `${new URL(WEBHOOK_URL).pathname}/pix`;

let server: IsolatedServer;
let simulator: PspSimulator;
let production: Client;
let origin: string;
let browser: Browser;
let page: Page;

const idOf = (transaction: { id: string }) => transaction.id.replace(/-/g, '');
const operatorCall = (url: string, payload: object) =>
  server.operator.inject({
    method: 'POST',
    url,
    payload,
    headers: { authorization: `Bearer ${server.operatorToken}` },
  });
const text = (selector: string) => page.locator(selector).innerText();
const production$ = (selector: string) => `section[aria-labelledby=pix-production] ${selector}`;

async function productionCustomer() {
  const customer = (await production.post('/customers', individualBody())).json();
  await server.ctx.db.query("UPDATE verifications SET status = 'APPROVED' WHERE customer_id = $1", [
    customer.id,
  ]);
  return customer;
}

describe.skipIf(!hasChromium)('the PIX rail in the operator console', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    simulator = await startSimulator({
      maxPageSize: 2,
      deliver: terminatedDelivery(() => server?.production),
    });
    server = await startIsolatedServer({
      env: pspEnv(simulator, {
        PONTE_PIX_RECONCILE_EVERY_MS: '600000',
        PONTE_PIX_PAYOUT_STATUS_AFTER_MS: '600000',
        PONTE_OFFRAMP_FEE_BPS: '0',
        PONTE_TRANSACTION_MIN_FEE: '0.00',
      }),
    });
    await server.ctx.pix.psp('production')!.registerWebhook();
    production = client(server.production, (await server.newTenant()).productionKey);
    await setRate(server, 'BRL/USDC', '0.2');
    await setRate(server, 'USDC/BRL', '5');
    origin = await listen(server.operator);
    browser = await launch();
    ({ page } = await newPage(browser));
    const operatorId = (await operatorCall('/operator/operators', { name: 'Paula Pix' })).json().id;
    const invited = await operatorCall(`/operator/operators/${operatorId}/console-invite`, {
      email: 'paula@ponte.example',
    });
    await page.goto(`${origin}${pathOf(invited.json().inviteUrl)}`);
    await page.fill('#password', PASSWORD);
    expect(await submit(page, 'button[type=submit]')).toBe(200);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await simulator?.close();
  });
  expectNoViolations(() => simulator);

  it('shows the last complete sweep with its window, PSP calls and items, after it applied a lost payment', async () => {
    // the sweep the workers run at start is over before the payment
    await eventually(
      async () =>
        (
          await server.ctx.db.query<{ done: boolean }>(
            "SELECT completed_at IS NOT NULL AND lease_until IS NULL AS done FROM pix_sweeps WHERE environment = 'production'",
          )
        )[0]?.done,
      (done) => done === true,
      15_000,
    );
    const customer = await productionCustomer();
    const transaction = await createOnRamp(production, customer.id, '30.00');
    simulator.faults.drop = true;
    await simulator.pay(idOf(transaction));
    simulator.faults.drop = false;
    const due = new Date();
    await server.ctx.db.query("UPDATE pix_sweeps SET next_at = $1 WHERE environment = 'production'", [due]);
    const [sweep] = await eventually(
      () =>
        server.ctx.db.query<{
          completed_at: Date;
          complete_from: Date;
          swept_to: Date;
          complete_calls: number;
          complete_items: number;
          complete_applied: number;
        }>(
          `SELECT completed_at, complete_from, swept_to, complete_calls, complete_items, complete_applied
             FROM pix_sweeps WHERE environment = 'production' AND completed_at >= $1`,
          [due],
        ),
      (rows) => rows.length === 1,
      15_000,
    );
    expect((await production.get(`/transactions/${transaction.id}`)).json().status).toBe('SUCCESS');
    expect(sweep!.complete_applied).toBe(1);
    expect(sweep!.complete_items).toBeGreaterThanOrEqual(1);
    expect(sweep!.complete_calls).toBeGreaterThanOrEqual(2); // received and sent, each at least a page

    await page.goto(`${origin}/console/pix`);
    expect(await page.locator('nav a[href="/console/pix"]').count()).toBe(1);
    const time = (at: Date) =>
      at
        .toISOString()
        .replace('T', ' ')
        .replace(/\.\d{3}Z$/, ' UTC');
    expect(await text(production$('[data-field=completed]'))).toBe(time(sweep!.completed_at));
    expect(await text(production$('[data-field=window]'))).toBe(
      `${time(sweep!.complete_from)} to ${time(sweep!.swept_to)}`,
    );
    expect(await text(production$('[data-field=calls]'))).toBe(String(sweep!.complete_calls));
    expect(await text(production$('[data-field=items]'))).toBe(String(sweep!.complete_items));
    expect(await text(production$('[data-field=applied]'))).toBe('1');
    // the window reaches back over the previous sweep's end
    expect(sweep!.complete_from.getTime()).toBeLessThan(due.getTime());
    expect(await text('section[aria-labelledby=pix-sandbox]')).toContain('No complete sweep yet.');
    await checkPage(page, 'console-pix-sweep');
  });

  it('lists a send awaiting the PSP under its idEnvio, oldest first, until the PSP settles it', async () => {
    simulator.setAutoSettle(false);
    const customer = await productionCustomer();
    const account = await production.post('/bank-accounts', selfBody(customer));
    const funding = await createOnRamp(production, customer.id, '100.00');
    await simulator.pay(idOf(funding));
    await simulator.idle();
    await server.ctx.pix.settled();
    const sends: string[] = [];
    for (const sourceAmount of ['1', '1.5']) {
      const created = await offRamp(production, {
        customerId: customer.id,
        bankAccountId: account.json().id,
        sourceCurrency: 'USDC',
        sourceAmount,
      });
      expect(created.statusCode).toBe(201);
      sends.push(idOf(created.json()));
      await eventually(
        async () => simulator.sends.get(idOf(created.json()))?.status,
        (status) => status === 'EM_PROCESSAMENTO',
        10_000,
      );
    }
    await eventually(
      () =>
        server.ctx.db.query(
          "SELECT 1 FROM pix_payouts WHERE end_to_end_id = ANY($1::text[]) AND status = 'SUBMITTED'",
          [sends],
        ),
      (rows) => rows.length === 2,
      10_000,
    );
    await page.goto(`${origin}/console/pix`);
    expect(await page.locator(production$('[data-field=send-id]')).allInnerTexts()).toEqual(sends);
    const rows = await page.locator(production$('tr:has([data-field=send-id])')).allInnerTexts();
    expect(rows[0]).toContain('5.00 BRL');
    expect(rows[0]).toContain('Off-ramp payout');
    expect(rows[1]).toContain('7.50 BRL');
    expect(rows[0]).toContain(simulator.sends.get(sends[0]!)!.e2eId);
    await checkPage(page, 'console-pix-sends');

    simulator.setAutoSettle(true);
    await simulator.settlePending();
    await simulator.idle();
    await server.ctx.pix.settled();
    await page.goto(`${origin}/console/pix`);
    expect(await page.locator(production$('[data-field=send-id]')).count()).toBe(0);
    expect(await text('section[aria-labelledby=pix-production]')).toContain('No send is awaiting the PSP.');
  });

  it('lists the items that could not be applied with the reason, newest first', async () => {
    for (const endToEndId of ['short-one', 'short-two']) {
      const response = await server.production.inject({
        method: 'POST',
        url: WEBHOOK_PATH,
        payload: { pix: [{ endToEndId }] },
      });
      expect(response.statusCode).toBe(200);
    }
    const rejects = await eventually(
      () =>
        server.ctx.db.query<{ reason: string; environment: string }>(
          "SELECT reason, environment FROM pix_notification_rejects WHERE item->>'endToEndId' LIKE 'short-%' ORDER BY received_at DESC, id DESC",
        ),
      (rows) => rows.length === 2,
    );
    expect(rejects.every((row) => row.environment === 'production')).toBe(true);
    await page.goto(`${origin}/console/pix`);
    const rows = await page.locator(production$('tr:has-text("endToEndId=short-")')).allInnerTexts();
    expect(rows).toHaveLength(2);
    expect(rows[0]).toContain('endToEndId=short-two');
    expect(rows[1]).toContain('endToEndId=short-one');
    expect(rows[0]).toContain(rejects[0]!.reason);
    expect(rows[0]).toContain('notification');
    await checkPage(page, 'console-pix-rejects');
  });
});
