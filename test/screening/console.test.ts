/**
 * Screening in the operator console, in a real browser: the list versions in force, the review queue,
 * a case beside the entry it matched, and a decision recorded through the same service as the API.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPage, hasChromium, launch, listen, newPage, pathOf, submit } from '../browser/web-support.ts';
import { createCustomer, individualBody } from '../helpers/factories.ts';
import { type Client, client, startTestServer, type TestServer } from '../helpers/server.ts';
import { importFixture, OFAC_DIR } from './support.ts';

let server: TestServer;
let origin: string;
let browser: Browser;
let page: Page;
let sandbox: Client;

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
