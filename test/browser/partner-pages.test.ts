/**
 * What a partner meets in the browser beyond the dashboard's flows: the API reference at /docs (self-
 * hosted: no request leaves the listener, titled Ponte, with the bearer key input and no hosted AI agent
 * or SDK generator; its title and document link painted before its script loads), the icon, and a 404 page for addresses that name nothing. Pages are checked with
 * axe-core and captured at 1280 and 390 wide under test-results/.
 */
import type { FastifyInstance } from 'fastify';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDashboardApp } from '../../src/app.ts';
import { approvedCustomer, individualBody, validCpf } from '../helpers/factories.ts';
import { type Client, client, startTestServer, type TestServer } from '../helpers/server.ts';
import {
  checkPage,
  hasChromium,
  launch,
  listen,
  newPage,
  PHONE,
  pathOf,
  SHOTS,
  submit,
} from './web-support.ts';

const PASSWORD = 'a long and good password';

let server: TestServer;
let dashboard: FastifyInstance;
let origin: string;
let docsOrigin: string;
let operatorOrigin: string;
let browser: Browser;
let page: Page;
let sandbox: Client;
let tenantId: string;

describe.skipIf(!hasChromium)('partner pages in a browser', { timeout: 90_000 }, () => {
  beforeAll(async () => {
    server = await startTestServer();
    const tenant = await server.newTenant('Banco Exemplo');
    tenantId = tenant.projectId;
    sandbox = client(server.sandbox, tenant.sandboxKey);
    dashboard = await buildDashboardApp(server.ctx);
    origin = await listen(dashboard);
    docsOrigin = await listen(server.sandbox);
    operatorOrigin = await listen(server.operator);
    browser = await launch();
    ({ page } = await newPage(browser));
    const invited = await server.operator.inject({
      method: 'POST',
      url: `/operator/projects/${tenant.projectId}/users`,
      payload: { email: 'ana@banco.example', role: 'admin' },
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

  it('serves the API reference titled Ponte, with the bearer key input, and requests nothing from another host', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const docs = await context.newPage();
    const requested: string[] = [];
    docs.on('request', (request) => requested.push(request.url()));
    // Anything addressed to another host is refused and recorded, whenever the page asks for it.
    const foreign: string[] = [];
    await context.route(
      (url) => url.origin !== docsOrigin && !/^(data|blob):/.test(url.protocol),
      (route) => {
        foreign.push(route.request().url());
        return route.abort();
      },
    );
    await docs.goto(`${docsOrigin}/docs/`);
    await docs.waitForSelector('text=Authentication', { timeout: 60_000 });
    expect(await docs.title()).toMatch(/^Ponte API reference/);
    const body = (await docs.textContent('body')) ?? '';
    expect(body).not.toContain('Ask AI');
    expect(body).not.toContain('Generate SDKs');
    expect(body).toContain('Bearer Token');
    expect(requested.some((url) => url.startsWith(`${docsOrigin}/openapi.json`))).toBe(true);
    // The bearer key input: the reference offers the API key scheme for "Try it".
    expect(await docs.locator('input').count()).toBeGreaterThan(0);
    // The reference's interface is Scalar's own (its markup fails axe in ways this project cannot change),
    // so it is captured at both widths without the accessibility check the project's own pages pass.
    await docs.screenshot({ path: `${SHOTS}/docs-reference.png` });
    await docs.setViewportSize(PHONE);
    await docs.screenshot({ path: `${SHOTS}/docs-reference-phone.png` });
    // Every request the page made, up to and including both renderings, went to this listener.
    expect(foreign).toEqual([]);
    await context.close();
  });

  it('shows the reference at once: its title and document link before the script loads, replaced once it has', async () => {
    for (const [base, path, heading, documentPath] of [
      [docsOrigin, '/docs/', 'Ponte API reference (sandbox)', '/openapi.json'],
      [operatorOrigin, '/operator/docs/', 'Ponte operator API reference', '/operator/openapi.json'],
    ] as const) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const docs = await context.newPage();
      // The reference's script is held back, as a slow network would, until the first paint is checked.
      let release: () => void = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      await context.route('**/js/scalar.js', async (route) => {
        await held;
        await route.continue();
      });
      await docs.goto(`${base}${path}`, { waitUntil: 'commit' });
      await docs.waitForSelector('#reference-loading h1', { timeout: 10_000 });
      expect(await docs.textContent('#reference-loading h1')).toBe(heading);
      expect(await docs.getAttribute('#reference-loading a', 'href')).toBe(documentPath);
      await docs.screenshot({
        path: `${SHOTS}/docs-first-paint${base === operatorOrigin ? '-operator' : ''}.png`,
      });
      release();
      await docs.waitForSelector('text=Authentication', { timeout: 60_000 });
      expect(await docs.locator('#reference-loading').count()).toBe(0);
      await context.close();
    }
  });

  it('answers /favicon.ico with an icon on the dashboard and the public listener', async () => {
    for (const base of [origin, docsOrigin]) {
      const icon = await page.request.get(`${base}/favicon.ico`);
      expect([base, icon.status(), icon.headers()['content-type']]).toEqual([base, 200, 'image/svg+xml']);
      expect(await icon.text()).toContain('<svg');
    }
    await page.goto(`${origin}/sandbox`);
    expect(await page.getAttribute('link[rel=icon]', 'href')).toMatch(/favicon\.svg$/);
  });

  it('shows a 404 page, not a validator message, at a mistyped address', async () => {
    for (const path of [
      '/sandboxx',
      '/sandbox/customers/not-an-id',
      '/sandbox/no-such-page',
      '/favicon.png',
    ]) {
      const response = await page.goto(`${origin}${path}`);
      expect([path, response?.status()]).toEqual([path, 404]);
      const text = (await page.textContent('main')) ?? '';
      expect(text).toContain('Not found');
      expect(text).not.toMatch(/must be equal to|params\//);
    }
    await checkPage(page, 'dashboard-not-found');
  });

  it('lists transactions with whole ids that copy, and the customer by name; the customer filter takes a name', async () => {
    const [ana, bia] = [
      await approvedCustomer(
        sandbox,
        individualBody({ name: 'Ana Pereira', taxId: validCpf('5'), email: 'ana.p@example.com' }),
      ),
      await approvedCustomer(
        sandbox,
        individualBody({ name: 'Bia Costa', taxId: validCpf('6'), email: 'bia@example.com' }),
      ),
    ];
    const made: string[] = [];
    for (const customer of [ana, bia, ana]) {
      const created = await sandbox.post('/transactions/on-ramp', {
        customerId: customer.id,
        currency: 'BRL',
        amount: '150.00',
        targetCurrency: 'USDC',
      });
      expect(created.statusCode).toBe(201);
      made.push(created.json().id);
    }
    await page.goto(`${origin}/sandbox/transactions`);
    for (const id of made) {
      // the whole id, in monospace, with a copy button naming it
      expect(await page.textContent(`#id-${id}`)).toBe(id);
      expect(await page.locator(`button[data-copy="id-${id}"]`).count()).toBe(1);
    }
    const rows = page.locator('tbody tr');
    expect(await rows.count()).toBe(3);
    expect(await page.locator('tbody td:has-text("Ana Pereira")').count()).toBe(2);
    expect(await page.locator('tbody td:has-text("Bia Costa")').count()).toBe(1);
    await checkPage(page, 'dashboard-transactions-ids');

    await page.fill('#customerId', 'bia@example');
    expect(await submit(page, 'button:has-text("Filter")')).toBe(200);
    expect(await rows.count()).toBe(1);
    expect(await page.textContent('tbody')).toContain('Bia Costa');
    expect(await page.inputValue('#customerId')).toBe('bia@example');
  });

  it('shows a refused transaction filter in the form, inside the app, keeping what was typed', async () => {
    await page.goto(`${origin}/sandbox/transactions`);
    await page.fill('#customerId', 'Nobody Known');
    await page.selectOption('#status', 'SUCCESS');
    expect(await submit(page, 'button:has-text("Filter")')).toBe(400);
    expect(await page.locator('nav').count()).toBeGreaterThan(0);
    expect(await page.textContent('[role=alert]')).toContain('No customer has "Nobody Known"');
    expect(await page.inputValue('#customerId')).toBe('Nobody Known');
    expect(await page.inputValue('#status')).toBe('SUCCESS');
    await checkPage(page, 'dashboard-transactions-refused-filter');

    // two customers match "example.com": both are named, and the form keeps the text
    await page.fill('#customerId', 'example.com');
    expect(await submit(page, 'button:has-text("Filter")')).toBe(400);
    const alert = (await page.textContent('[role=alert]')) ?? '';
    expect(alert).toMatch(/customers match "example.com"/);
    expect(alert).toContain('Bia Costa');
  });

  it('shows a refused webhook URL in the form, keeping the URL and the events ticked', async () => {
    await page.goto(`${origin}/sandbox/webhooks`);
    await page.fill('#url', 'http://127.0.0.1:9/hooks');
    await page.check('input[name=events][value="transaction.updated"]');
    expect(await submit(page, 'button:has-text("Add endpoint")')).toBe(400);
    expect(await page.locator('nav').count()).toBeGreaterThan(0);
    // the refusal stands beside the field it is about
    expect(await page.textContent('#url-error')).toBeTruthy();
    expect(await page.getAttribute('#url', 'aria-invalid')).toBe('true');
    expect(await page.inputValue('#url')).toBe('http://127.0.0.1:9/hooks');
    expect(await page.isChecked('input[name=events][value="transaction.updated"]')).toBe(true);
    await checkPage(page, 'dashboard-webhook-refused');
  });

  it('sends a limit request without a document, naming the customer by name; a refused one keeps the amounts', async () => {
    const carla = await approvedCustomer(
      sandbox,
      individualBody({ name: 'Carla Mendes', taxId: validCpf('7'), email: 'carla@example.com' }),
    );
    await page.goto(`${origin}/sandbox/limit-requests/new`);
    expect(await page.getAttribute('#document', 'required')).toBeNull();
    await page.fill('#customerId', 'Carla Mendes');
    await page.fill('#single', 'lots');
    await page.fill('#monthly', '50000.00');
    expect(await submit(page, 'button:has-text("Send for review")')).toBe(400);
    expect(await page.locator('nav').count(), (await page.textContent('main')) ?? '').toBeGreaterThan(0);
    expect(await page.textContent('[role=alert]')).toContain('single');
    expect(await page.inputValue('#customerId')).toBe(carla.id);
    expect(await page.inputValue('#single')).toBe('lots');
    expect(await page.inputValue('#monthly')).toBe('50000.00');
    await checkPage(page, 'dashboard-limit-request-refused');

    await page.fill('#single', '20000.00');
    expect(await submit(page, 'button:has-text("Send for review")')).toBe(200);
    expect(pathOf(page.url())).toBe('/sandbox/limit-requests');
    const listed = await sandbox.get(`/customers/${carla.id}/limit-requests`);
    expect(listed.json().data).toHaveLength(1);
    expect(listed.json().data[0]).toMatchObject({ status: 'IN_REVIEW', supportingDocumentId: null });
    expect(tenantId).toBeTruthy();
  });
});
