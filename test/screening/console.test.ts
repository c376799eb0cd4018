/**
 * Screening in the operator console, in a real browser: the list versions in force, the review queue,
 * a case beside the entry it matched, and a decision recorded through the same service as the API.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDashboardApp } from '../../src/app.ts';
import { checkPage, hasChromium, launch, listen, newPage, pathOf, submit } from '../browser/web-support.ts';
import { approvedCustomer, createCustomer, individualBody } from '../helpers/factories.ts';
import { type Client, client, startTestServer, type TestServer } from '../helpers/server.ts';
import { importFixture, OFAC_DIR } from './support.ts';

let server: TestServer;
let origin: string;
let browser: Browser;
let page: Page;
let sandbox: Client;
let projectId: string;

const operatorCall = (method: 'GET' | 'POST', url: string, payload?: object) =>
  server.operator.inject({
    method,
    url,
    ...(payload ? { payload } : {}),
    headers: { authorization: `Bearer ${server.operatorToken}` },
  });

describe.skipIf(!hasChromium)('screening in the operator console', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    server = await startTestServer({ ownDatabase: true });
    const tenant = await server.newTenant('Parceiro Screening');
    projectId = tenant.projectId;
    sandbox = client(server.sandbox, tenant.sandboxKey);
    await importFixture(server, 'ofac-sdn', OFAC_DIR);
    origin = await listen(server.operator);
    browser = await launch();
    ({ page } = await newPage(browser));
    const operatorId = (await operatorCall('POST', '/operator/operators', { name: 'Sara Sanctions' })).json()
      .id;
    const invited = await operatorCall('POST', `/operator/operators/${operatorId}/console-invite`, {
      email: 'sara@ponte.example',
    });
    await page.goto(`${origin}${pathOf(invited.json().inviteUrl)}`);
    await page.fill('#password', 'operator password long enough');
    await submit(page, 'button[type=submit]');
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('shows the list versions in force', async () => {
    await page.goto(`${origin}/console/screening/lists`);
    await checkPage(page, 'console-screening-lists');
    const text = await page.textContent('main');
    expect(text).toContain('OFAC_SDN');
    expect(text).toContain('IN FORCE');
  });

  it('the partner dashboard shows why a customer and a transfer are on hold, and the Travel Rule data', async () => {
    const dashboard = await buildDashboardApp(server.ctx);
    try {
      const dashboardOrigin = await listen(dashboard);
      const invited = await server.operator.inject({
        method: 'POST',
        url: `/operator/projects/${projectId}/users`,
        payload: { email: 'rui@parceiro.example', role: 'admin' },
        headers: { authorization: `Bearer ${server.operatorToken}` },
      });
      const partner = await browser.newPage();
      await partner.goto(`${dashboardOrigin}${pathOf(invited.json().inviteUrl)}`);
      await partner.fill('#password', 'a long and good password');
      await submit(partner, 'button[type=submit]');
      const held = await createCustomer(
        sandbox,
        individualBody({ name: 'Dmitry Kovalenko', birthDate: '1979-03-14' }),
      );
      await partner.goto(`${dashboardOrigin}/sandbox/customers/${held.id}`);
      await checkPage(partner, 'dashboard-customer-on-hold');
      expect(await partner.textContent('#holds')).toBe('Compliance hold');
      expect(await partner.textContent('main')).toContain(
        'The customer: the name may match a sanctions list entry',
      );
      const sender = await approvedCustomer(
        sandbox,
        individualBody({ name: 'Teresa Amaral', email: 'ta@example.com' }),
      );
      const wallet = (await sandbox.get(`/customers/${sender.id}/wallets`)).json().data[0];
      await sandbox.post(`/sandbox/wallets/${wallet.address}/deposit`, {
        currency: 'USDC',
        amount: '20',
        blockchain: wallet.blockchain,
      });
      const transfer = (
        await sandbox.post('/transactions/transfer', {
          currency: 'USDC',
          from: sender.id,
          to: '0x52908400098527886E0F7030069857D2E4169EE7',
          amount: '5',
          blockchain: wallet.blockchain,
          travelRule: { beneficiary: { name: 'Faisal Al-Rashidi' }, walletType: 'SELF_HOSTED' },
        })
      ).json();
      await partner.goto(`${dashboardOrigin}/sandbox/transactions/${transfer.id}`);
      await checkPage(partner, 'dashboard-transfer-on-hold');
      const text = await partner.textContent('main');
      expect(text).toContain('A transfer: the name may match a sanctions list entry');
      expect(text).toContain('Travel Rule (IVMS101)');
      expect(text).toContain('Faisal Al-Rashidi');
      await partner.close();
    } finally {
      await dashboard.close();
    }
  });

  it('shows a possible match beside the matched entry and records the decision', async () => {
    const customer = await createCustomer(
      sandbox,
      individualBody({ name: 'Maria José Méndez Guerrero', birthDate: '1982-11-23', country: 'COL' }),
    );
    await page.goto(`${origin}/console/screening/cases`);
    await checkPage(page, 'console-screening-cases');
    await page.click('a:has-text("Maria José Méndez Guerrero")');
    await page.waitForLoadState('load');
    await checkPage(page, 'console-screening-case');
    const text = await page.textContent('main');
    expect(text).toContain('Maria Jose MENDEZ GUERRERO');
    expect(text).toContain('1982-11-23');
    expect(text).toContain('date of birth matches');
    await page.selectOption('#decision', 'CLEAR');
    await page.fill('#comment', 'Different person: passport checked');
    expect(await submit(page, 'button:has-text("Record decision")')).toBe(200);
    const open = await operatorCall('GET', `/operator/screening/cases?subjectId=${customer.id}`);
    expect(open.json().data).toEqual([]);
    const cleared = await operatorCall(
      'GET',
      `/operator/screening/cases?subjectId=${customer.id}&status=CLEARED`,
    );
    expect(cleared.json().data[0]).toMatchObject({
      status: 'CLEARED',
      decidedBy: expect.stringContaining('sara@ponte.example'),
    });
  });
});
