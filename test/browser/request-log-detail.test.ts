/**
 * The request log's detail in a real browser (Debian's Chromium through playwright-core): a row of the
 * Request log opens its detail inside the app frame, with the key, the idempotency key and the redacted
 * bodies; checked with axe-core and captured at 1280 and 390 wide under test-results/.
 */
import type { FastifyInstance } from 'fastify';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDashboardApp } from '../../src/app.ts';
import { individualBody, validCpf } from '../helpers/factories.ts';
import { type Client, client, eventually, startTestServer, type TestServer } from '../helpers/server.ts';
import { checkPage, hasChromium, launch, listen, newPage, pathOf, submit } from './web-support.ts';

const PASSWORD = 'a long and good password';

let server: TestServer;
let dashboard: FastifyInstance;
let origin: string;
let browser: Browser;
let page: Page;
let cspViolations: string[];
let sandbox: Client;
let tenant: { projectId: string; sandboxKey: string; productionKey: string };

describe.skipIf(!hasChromium)('request log detail in a browser', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    // a database of its own: another file's retention test prunes the whole request log of a shared one
    server = await startTestServer({
      workers: false,
      ownDatabase: true,
      env: { PONTE_REQUEST_LOG_FLUSH_MS: '50' },
    });
    tenant = await server.newTenant('Banco Detalhe');
    sandbox = client(server.sandbox, tenant.sandboxKey);
    dashboard = await buildDashboardApp(server.ctx);
    origin = await listen(dashboard);
    browser = await launch();
    ({ page, cspViolations } = await newPage(browser));
    const invited = await server.operator.inject({
      method: 'POST',
      url: `/operator/projects/${tenant.projectId}/users`,
      payload: { email: 'dev@banco.example', role: 'developer' },
      headers: { authorization: `Bearer ${server.operatorToken}` },
    });
    await page.goto(`${origin}${pathOf(invited.json().inviteUrl)}`);
    await page.fill('#password', PASSWORD);
    expect(await submit(page, 'button[type=submit]')).toBe(200);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await dashboard?.close();
    await server?.close();
  });

  it('opens a row of the request log: time, status, key, idempotency key and redacted bodies', async () => {
    const taxId = validCpf('3');
    const created = await sandbox.post(
      '/customers',
      individualBody({ name: 'Joana Reservada', email: 'joana@reservada.example', taxId }),
      { 'idempotency-key': 'browser-detail-1' },
    );
    expect(created.statusCode).toBe(201);
    const requestId = created.headers['x-request-id'] as string;
    await page.goto(`${origin}/sandbox/requests`);
    await eventually(
      async () => {
        await page.reload();
        return page.content();
      },
      (html) => html.includes(requestId),
    );
    await page.click(`tr:has-text("${requestId}") a`);
    await page.waitForURL(/\/sandbox\/requests\/[0-9a-f-]{36}$/);
    // inside the app frame, with the Request log marked as the current page
    expect(await page.getAttribute('nav a[aria-current=page]', 'href')).toBe('/sandbox/requests');
    const summary = await page.textContent('section[aria-labelledby=request-summary]');
    expect(await page.textContent('h1')).toContain('POST /customers');
    expect(summary).toContain('201');
    expect(summary).toContain(requestId);
    expect(summary).toContain('browser-detail-1');
    expect(summary).toMatch(/sk_sandbox_\w*…/);
    const requestBody = (await page.textContent('section[aria-labelledby=request-body] pre'))!;
    expect(JSON.parse(requestBody)).toMatchObject({
      type: 'INDIVIDUAL',
      name: '[redacted]',
      taxId: '[redacted]',
    });
    const responseBody = (await page.textContent('section[aria-labelledby=response-body] pre'))!;
    expect(JSON.parse(responseBody)).toMatchObject({ id: created.json().id, email: '[redacted]' });
    const content = await page.content();
    for (const clear of ['Joana', 'reservada.example', taxId, tenant.sandboxKey])
      expect(content).not.toContain(clear);
    await checkPage(page, 'dashboard-request-log-detail');
    expect(cspViolations).toEqual([]);
  });
});
