/**
 * The console's rates page in a real browser: per pair, an SVG chart of the last 24 hours with the rates
 * set as a step line and one point per quote given, a caption, a title and description, and its data as a
 * table. Checked with axe-core and captured under test-results/ at both widths.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, client, startTestServer, type TestServer } from '../helpers/server.ts';
import { checkPage, hasChromium, launch, listen, newPage, pathOf, submit } from './web-support.ts';

let server: TestServer;
let origin: string;
let browser: Browser;
let page: Page;
let sandbox: Client;

const operatorCall = (url: string, payload: object) =>
  server.operator.inject({
    method: 'POST',
    url,
    payload,
    headers: { authorization: `Bearer ${server.operatorToken}` },
  });

const quote = (sourceCurrency: string, targetCurrency: string, sourceAmount: string) =>
  sandbox.post('/exchange-rates', { type: 'FLOATING', sourceCurrency, targetCurrency, sourceAmount });

describe.skipIf(!hasChromium)('console rates chart in a browser', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    server = await startTestServer({ ownDatabase: true });
    const tenant = await server.newTenant('Parceiro Cambio');
    sandbox = client(server.sandbox, tenant.sandboxKey);
    origin = await listen(server.operator);
    browser = await launch();
    ({ page } = await newPage(browser));
    const operatorId = (await operatorCall('/operator/operators', { name: 'Rita Rates' })).json().id;
    const invited = await operatorCall(`/operator/operators/${operatorId}/console-invite`, {
      email: 'rita@ponte.example',
    });
    await page.goto(`${origin}${pathOf(invited.json().inviteUrl)}`);
    await page.fill('#password', 'operator password long enough');
    expect(await submit(page, 'button[type=submit]')).toBe(200);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('says so where a pair has neither a rate nor quotes', async () => {
    await page.goto(`${origin}/console/rates`);
    expect(await page.locator('svg.chart').count()).toBe(0);
    expect(await page.textContent('section[aria-labelledby="chart-brl-usdc-h"]')).toContain(
      'No rate in force and no quotes given in the last 24 hours.',
    );
  });

  it('draws the rates set as a step line and one point per quote, on the same scale', async () => {
    await page.goto(`${origin}/console/rates`);
    await page.fill('#rate', '0.18');
    expect(await submit(page, 'button:has-text("Set rate")')).toBe(200);
    expect((await quote('BRL', 'USDC', '100.00')).statusCode).toBe(201);
    await page.fill('#rate', '0.1825');
    expect(await submit(page, 'button:has-text("Set rate")')).toBe(200);
    for (const amount of ['200.00', '350.00'])
      expect((await quote('BRL', 'USDC', amount)).statusCode).toBe(201);
    expect((await quote('USDC', 'BRL', '50.000000')).statusCode).toBe(201);

    await page.reload();
    const chart = page.locator('svg#chart-brl-usdc');
    expect(await chart.getAttribute('role')).toBe('img');
    expect(await chart.getAttribute('aria-labelledby')).toBe('chart-brl-usdc-title chart-brl-usdc-desc');
    expect(await chart.locator('title#chart-brl-usdc-title').textContent()).toBe(
      'BRL/USDC over the last 24 hours',
    );
    expect(await chart.locator('desc').textContent()).toContain(
      '2 rates in force, the last 0.1825; 3 quotes given',
    );
    expect(await page.locator('figure:has(#chart-brl-usdc) figcaption').textContent()).toContain(
      'BRL/USDC: rates set and quotes given over the last 24 hours',
    );

    // one point per quote of the pair in the window, and only the pair's
    const points = chart.locator('g.series-quote circle');
    expect(await points.count()).toBe(3);
    expect(await page.locator('svg#chart-usdc-brl g.series-quote circle').count()).toBe(1);
    expect(await page.locator('svg#chart-brl-usdt').count()).toBe(0);
    // USDC/BRL has quotes at the sandbox's default rate and no rate set: no step line, none in its legend
    expect(await page.locator('svg#chart-usdc-brl path.series-rate').count()).toBe(0);
    expect(await page.textContent('figure:has(#chart-usdc-brl) .legend')).toBe('Quotes');

    // the step line: the first rate, a step to the second, held to the window's end (x = 704)
    const d = (await chart.locator('path.series-rate').getAttribute('d')) ?? '';
    const step = /^M([\d.]+) ([\d.]+) H([\d.]+) V([\d.]+) H704$/.exec(d);
    expect(step, d).not.toBeNull();
    const [, x0, y0, x1, y1] = step!;
    expect(Number(x1)).toBeGreaterThanOrEqual(Number(x0));
    // the second rate is higher: drawn above the first
    expect(Number(y0)).toBeGreaterThan(Number(y1));
    const ys = await points.evaluateAll((nodes) => nodes.map((n) => n.getAttribute('cy')));
    // a sandbox quote is priced at the rate in force: each point sits on the step it was given under
    expect(ys).toEqual([y0, y1, y1]);
    const xs = await points.evaluateAll((nodes) => nodes.map((n) => Number(n.getAttribute('cx'))));
    expect(xs[0]).toBeGreaterThanOrEqual(Number(x0));
    expect(xs[0]).toBeLessThanOrEqual(Number(x1));
    expect(xs[2]).toBeLessThanOrEqual(704);
    expect(await chart.locator('path.series-rate title').textContent()).toMatch(
      /^0\.18 from .+; 0\.1825 from /,
    );

    // the same data as a table: two rates set, three quotes
    expect(await page.locator('summary:has-text("BRL/USDC data") + .tablewrap tbody tr').count()).toBe(5);
    await checkPage(page, 'console-rates-chart');
  });
});
