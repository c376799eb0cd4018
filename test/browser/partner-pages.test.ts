/**
 * What a partner meets in the browser beyond the dashboard's flows: the API reference at /docs (self-
 * hosted: no request leaves the listener, titled Ponte, with the bearer key input and no hosted AI agent
 * or SDK generator), the icon, and a 404 page for addresses that name nothing. Pages are checked with
 * axe-core and captured at 1280 and 390 wide under test-results/.
 */
import type { FastifyInstance } from 'fastify';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDashboardApp } from '../../src/app.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
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
let browser: Browser;
let page: Page;

describe.skipIf(!hasChromium)('partner pages in a browser', { timeout: 90_000 }, () => {
  beforeAll(async () => {
    server = await startTestServer({ workers: false });
    const tenant = await server.newTenant('Banco Exemplo');
    dashboard = await buildDashboardApp(server.ctx);
    origin = await listen(dashboard);
    docsOrigin = await listen(server.sandbox);
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
    await docs.goto(`${docsOrigin}/docs/`, { waitUntil: 'networkidle' });
    await docs.waitForSelector('text=Authentication', { timeout: 60_000 });
    await docs.waitForLoadState('networkidle');
    expect(await docs.title()).toMatch(/^Ponte API reference/);
    const body = (await docs.textContent('body')) ?? '';
    expect(body).not.toContain('Ask AI');
    expect(body).not.toContain('Generate SDKs');
    expect(body).toContain('Bearer Token');
    // Every request the page made went to this listener (or was a data: or blob: URL).
    const foreign = requested.filter((url) => !url.startsWith(docsOrigin) && !/^(data|blob):/.test(url));
    expect(foreign).toEqual([]);
    expect(requested.some((url) => url.startsWith(`${docsOrigin}/openapi.json`))).toBe(true);
    // The bearer key input: the reference offers the API key scheme for "Try it".
    expect(await docs.locator('input').count()).toBeGreaterThan(0);
    // The reference's interface is Scalar's own (its markup fails axe in ways this project cannot change),
    // so it is captured at both widths without the accessibility check the project's own pages pass.
    await docs.screenshot({ path: `${SHOTS}/docs-reference.png` });
    await docs.setViewportSize(PHONE);
    await docs.screenshot({ path: `${SHOTS}/docs-reference-phone.png` });
    await context.close();
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
});
