/**
 * Dollars in on the pages, in a real browser (Debian's Chromium through playwright-core): the partner
 * dashboard shows a customer's USD accounts with their deposit instructions (each field with a Copy
 * button) and status; a USD on-ramp's page shows the rail it came by, the account it came to and a
 * failure code when there is one; the operator console's USD rail page shows the last sweep, the
 * transfers returned that the bank has not accepted yet and the transfers received by rail and outcome.
 * Dollars out: a USD off-ramp's page shows the rail it was paid over, and once the bank returned it its
 * failure code and Nacha return code; the console lists the payout with its code.
 * Checked with axe-core and captured under test-results/.
 */
import type { FastifyInstance } from 'fastify';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDashboardApp } from '../../src/app.ts';
import { approvedCustomer } from '../helpers/factories.ts';
import { type Client, client } from '../helpers/server.ts';
import { fund, offRamp, settled } from '../off-ramp/support.ts';
import { usAccount } from '../off-ramp/usd-support.ts';
import { type IsolatedServer, startIsolatedServer } from '../transactions/support.ts';
import { checkPage, hasChromium, launch, listen, newPage, pathOf, submit } from './web-support.ts';

const PASSWORD = 'a long and good password';

let server: IsolatedServer;
let dashboard: FastifyInstance;
let dashboardOrigin: string;
let consoleOrigin: string;
let browser: Browser;
let partnerPage: Page;
let consolePage: Page;
let sandbox: Client;

const operatorCall = (url: string, payload: object) =>
  server.operator.inject({
    method: 'POST',
    url,
    payload,
    headers: { authorization: `Bearer ${server.operatorToken}` },
  });

async function customerWithUsdAccount() {
  const customer = await approvedCustomer(sandbox);
  const opened = await sandbox.post(`/customers/${customer.id}/accounts`, { currency: 'USD' });
  expect(opened.statusCode, opened.body).toBe(201);
  return { customer, account: opened.json() };
}

const deposit = async (accountId: string, body: Record<string, unknown>) => {
  const response = await sandbox.post(`/sandbox/accounts/${accountId}/deposit`, body);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
};

describe.skipIf(!hasChromium)('dollars in on the dashboard and the console', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    server = await startIsolatedServer();
    const tenant = await server.newTenant('Banco Dólar');
    sandbox = client(server.sandbox, tenant.sandboxKey);
    dashboard = await buildDashboardApp(server.ctx);
    dashboardOrigin = await listen(dashboard);
    consoleOrigin = await listen(server.operator);
    browser = await launch();
    ({ page: partnerPage } = await newPage(browser));
    ({ page: consolePage } = await newPage(browser));

    const invited = await operatorCall(`/operator/projects/${tenant.projectId}/users`, {
      email: 'dora@banco.example',
      role: 'admin',
    });
    expect(invited.statusCode).toBe(201);
    await partnerPage.goto(`${dashboardOrigin}${pathOf(invited.json().inviteUrl)}`);
    await partnerPage.fill('#password', PASSWORD);
    expect(await submit(partnerPage, 'button[type=submit]')).toBe(200);

    const operatorId = (await operatorCall('/operator/operators', { name: 'Otto Usd' })).json().id;
    const consoleInvite = await operatorCall(`/operator/operators/${operatorId}/console-invite`, {
      email: 'otto@ponte.example',
    });
    await consolePage.goto(`${consoleOrigin}${pathOf(consoleInvite.json().inviteUrl)}`);
    await consolePage.fill('#password', PASSWORD);
    expect(await submit(consolePage, 'button[type=submit]')).toBe(200);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await dashboard?.close();
    await server?.close();
  });

  it("shows a customer's USD accounts with status and each deposit instruction beside a Copy button", async () => {
    const { customer, account } = await customerWithUsdAccount();
    const instructions = account.depositInstructions;
    expect(instructions).not.toBeNull();
    await partnerPage.goto(`${dashboardOrigin}/sandbox/customers/${customer.id}`);
    const panel = partnerPage.locator(`section[data-account="${account.id}"]`);
    expect(await panel.locator('.badge, [class*=badge]').first().innerText()).toContain('ACTIVE');
    expect(await panel.locator('[data-field=rails]').innerText()).toBe('ACH, WIRE');
    for (const [field, value] of [
      ['routing-number', instructions.routingNumber],
      ['account-number', instructions.accountNumber],
      ['beneficiary', instructions.beneficiaryName],
      ['bank-name', instructions.bankName],
    ]) {
      const id = `usd-${account.id}-${field}`;
      expect(await partnerPage.locator(`#${id}`).innerText()).toBe(value);
      expect(await partnerPage.isVisible(`button[data-copy="${id}"]`)).toBe(true);
    }
    await checkPage(partnerPage, 'dashboard-customer-usd-accounts');

    // a closed account shows its status, and no number to pay into
    expect((await sandbox.delete(`/accounts/${account.id}`)).statusCode).toBe(200);
    await partnerPage.goto(`${dashboardOrigin}/sandbox/customers/${customer.id}`);
    expect(await panel.innerText()).toContain('CLOSED');
  });

  it("shows a USD on-ramp's rail and the account it came into, and its failure code when there is one", async () => {
    const { customer, account } = await customerWithUsdAccount();
    const wired = await deposit(account.id, { amount: '120.00', rail: 'WIRE' });
    expect(wired.outcome).toBe('APPLIED');
    await settled(sandbox, wired.transaction.id);
    await partnerPage.goto(`${dashboardOrigin}/sandbox/transactions/${wired.transaction.id}`);
    expect(await partnerPage.locator('[data-field=rail]').innerText()).toBe('WIRE');
    expect(await partnerPage.locator('[data-field=account]').innerText()).toContain(account.id);
    expect(await partnerPage.isVisible(`button[data-copy="id-${account.id}"]`)).toBe(true);
    expect(await partnerPage.locator('[data-field=failure-code]').count()).toBe(0);
    await checkPage(partnerPage, 'dashboard-usd-on-ramp');

    // the customer's transactions list shows the USD row
    await partnerPage.goto(`${dashboardOrigin}/sandbox/transactions?customerId=${customer.id}&currency=USD`);
    const row = partnerPage.locator('tr', {
      has: partnerPage.locator(`a[href="/sandbox/transactions/${wired.transaction.id}"]`),
    });
    expect(await row.count()).toBe(1);
    expect(await row.innerText()).toContain('120.00');
    expect(await row.innerText()).toContain('USD');

    // a failed transaction carries a code (an R-code once payouts are returned); only the code is set here
    await server.ctx.db.query("UPDATE transactions SET failure_code = 'compliance_refused' WHERE id = $1", [
      wired.transaction.id,
    ]);
    await partnerPage.goto(`${dashboardOrigin}/sandbox/transactions/${wired.transaction.id}`);
    expect(await partnerPage.locator('[data-field=failure-code]').innerText()).toBe('compliance_refused');
  });

  it('shows the USD rail in the console: last sweep, pending returns and transfers by rail and outcome', async () => {
    const { account } = await customerWithUsdAccount();
    expect((await deposit(account.id, { amount: '10.00' })).outcome).toBe('APPLIED');
    expect((await deposit(account.id, { amount: '20.00', rail: 'WIRE' })).outcome).toBe('APPLIED');
    expect((await sandbox.delete(`/accounts/${account.id}`)).statusCode).toBe(200);
    const returned = await deposit(account.id, { amount: '30.00' });
    expect(returned.outcome).toBe('RETURNED');
    const sweptAt = new Date('2026-11-29T08:00:00.000Z');
    await server.ctx.db.query(
      `INSERT INTO bank_sweeps (bank, environment, swept_through, swept_at) VALUES ('INCREASE', 'sandbox', $1, $2)
       ON CONFLICT (bank, environment) DO UPDATE SET swept_through = $1, swept_at = $2`,
      [new Date('2026-11-29T07:59:00.000Z'), sweptAt],
    );

    await consolePage.goto(`${consoleOrigin}/console`);
    await consolePage.click('a[href="/console/usd"]');
    expect(pathOf(consolePage.url())).toBe('/console/usd');
    const sandbox$ = (selector: string) =>
      consolePage.locator(`section[aria-labelledby=usd-sandbox] ${selector}`);
    expect(await sandbox$('[data-field=swept-at]').count()).toBe(1);
    // the counts are the sandbox's since the file started (other tests received transfers too)
    const recorded = await server.ctx.db.query<{ rail: string; outcome: string; n: number }>(
      `SELECT rail, outcome, count(*)::int AS n FROM inbound_bank_transfers
        WHERE environment = 'sandbox' GROUP BY rail, outcome`,
    );
    expect(recorded.length).toBeGreaterThanOrEqual(3);
    for (const { rail, outcome, n } of recorded) {
      expect(await sandbox$(`[data-count="${rail}-${outcome}"] td:last-child`).innerText()).toBe(String(n));
    }
    const notApplied = recorded.filter((r) => r.outcome !== 'APPLIED').reduce((sum, r) => sum + r.n, 0);
    expect(await sandbox$('[data-field=failures]').innerText()).toBe(
      `Not applied (held or returned): ${notApplied}`,
    );
    // the sandbox's simulated bank has no one to return to: its return is never pending
    const pending = sandbox$('tr[data-list=pending-return]');
    expect(await pending.count()).toBe(0);
    // one Increase reported that Ponte returned, not yet accepted by the bank: pending, oldest first
    await server.ctx.db.query(
      `INSERT INTO inbound_bank_transfers (bank, bank_transfer_id, environment, rail, account_id, amount, outcome,
         return_reason, payload, received_at)
       VALUES ('INCREASE', 'inbound_ach_transfer_pending', 'sandbox', 'ACH', $1, 3000, 'RETURNED',
         'The account is closed', '{}', now())`,
      [account.id],
    );
    await consolePage.reload();
    expect(await pending.count()).toBe(1);
    expect(await pending.first().innerText()).toContain('inbound_ach_transfer_pending');
    expect(await pending.first().innerText()).toContain('30.00 USD');
    expect(await consolePage.locator('section[aria-labelledby=usd-production]').innerText()).toContain(
      'No complete sweep yet.',
    );
    await checkPage(consolePage, 'console-usd-rail');
  });

  it("shows a USD payout's rail, and once returned its failure code and Nacha return code, on the dashboard and in the console", async () => {
    const customer = await approvedCustomer(sandbox);
    await fund(sandbox, customer.id, '1000.00');
    const accountId = await usAccount(sandbox, customer, 'ACH');
    const created = await offRamp(sandbox, {
      customerId: customer.id,
      bankAccountId: accountId,
      sourceCurrency: 'USDC',
      sourceAmount: '40',
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id;
    expect((await settled(sandbox, id)).status).toBe('SUCCESS');
    const returned = await sandbox.post(`/sandbox/transactions/${id}/return`, { code: 'R02' });
    expect(returned.statusCode, returned.body).toBe(200);

    await partnerPage.goto(`${dashboardOrigin}/sandbox/transactions/${id}`);
    expect(await partnerPage.locator('[data-field=rail]').innerText()).toBe('ACH');
    expect(await partnerPage.locator('[data-field=account]').innerText()).toContain(accountId);
    expect(await partnerPage.locator('[data-field=failure-code]').innerText()).toBe('ach_returned');
    expect(await partnerPage.locator('[data-field=return-code]').innerText()).toBe('R02');
    expect(await partnerPage.locator('[data-field=return-reason]').innerText()).toContain(
      'R02 (account closed)',
    );
    await checkPage(partnerPage, 'dashboard-usd-payout-returned');

    await consolePage.goto(`${consoleOrigin}/console/usd`);
    const row = consolePage.locator(`section[aria-labelledby=usd-sandbox] tr[data-list=payout]`, {
      hasText: id,
    });
    expect(await row.count()).toBe(1);
    expect(await row.innerText()).toContain('39.80 USD');
    expect(await row.innerText()).toContain('RETURNED');
    expect(await row.innerText()).toContain('R02');
    expect(
      await consolePage
        .locator('section[aria-labelledby=usd-sandbox] [data-count="payout-ACH-RETURNED"] td:last-child')
        .innerText(),
    ).toBe('1');
    await checkPage(consolePage, 'console-usd-payouts');
  });
});
