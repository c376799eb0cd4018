/**
 * Overrides of the market reference in the operator console, in a real browser: one outside the band is
 * refused with the band named and nothing set; forced with a reason it is set, and the rates page shows
 * its expiry and why.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPage, hasChromium, launch, newPage, pathOf, submit } from '../browser/web-support.ts';
import { type Anvil, startAnvil } from '../chains/anvil.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { type PtaxSimulator, portInRange, startPtaxSimulator } from './reference-support.ts';

const { node: anvil, reason } = await startAnvil({ port: await portInRange() });
if (!anvil)
  console.warn(`SKIPPED: the console override test needs anvil, which could not start here: ${reason}`);

describe.skipIf(!anvil || !hasChromium)('overrides in the operator console', { timeout: 60_000 }, () => {
  const node = anvil as Anvil;
  let server: TestServer;
  let ptax: PtaxSimulator;
  let browser: Browser;
  let page: Page;
  let origin: string;

  const operatorPost = (url: string, payload: object) =>
    server.operator.inject({
      method: 'POST',
      url,
      payload,
      headers: { authorization: `Bearer ${server.operatorToken}` },
    });

  beforeAll(async () => {
    ptax = await startPtaxSimulator();
    const at = new Date();
    const feeds = [];
    for (const [description, answer] of [
      ['BRL / USD', 19_000_000n],
      ['USDC / USD', 100_010_000n],
      ['USDT / USD', 100_000_000n],
    ] as const) {
      const feed = await node.deployFeed(8, description);
      await node.setRound(feed, answer, at);
      feeds.push(feed);
    }
    server = await startTestServer({
      ownDatabase: true,
      env: {
        PONTE_RATES_SOURCE: 'chainlink',
        PONTE_CHAIN_ETHEREUM_RPC_URL: node.url,
        PONTE_RATES_FEEDS: `BRL/USD=${feeds[0]},USDC/USD=${feeds[1]},USDT/USD=${feeds[2]}`,
        PONTE_RATES_PTAX_URL: ptax.url,
      },
    });
    const port = await portInRange();
    await server.operator.listen({ host: '127.0.0.1', port });
    origin = `http://127.0.0.1:${port}`;
    browser = await launch();
    ({ page } = await newPage(browser));
    const operatorId = (await operatorPost('/operator/operators', { name: 'Rita Rates' })).json().id;
    const invited = await operatorPost(`/operator/operators/${operatorId}/console-invite`, {
      email: 'rita@ponte.example',
    });
    await page.goto(`${origin}${pathOf(invited.json().inviteUrl)}`);
    await page.fill('#password', 'operator password long enough');
    await submit(page, 'button[type=submit]');
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await ptax?.close();
    node.stop();
  });

  it('refuses an override outside the band, then sets it forced with a reason and shows why', async () => {
    await page.goto(`${origin}/console/rates`);
    await page.fill('#rate', '0.2');
    expect(await submit(page, 'button:has-text("Set rate")')).toBe(422);
    expect(await page.textContent('main')).toContain('0.1861813818–0.1937806218');
    const count = async () =>
      (await server.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM conversion_rates'))[0]!.n;
    expect(await count()).toBe(0);

    await page.goto(`${origin}/console/rates`);
    await page.fill('#rate', '0.2');
    await page.fill('#reason', 'Feed lagging the market');
    await page.check('#force');
    expect(await submit(page, 'button:has-text("Set rate")')).toBe(200);
    const row = await page.textContent('tbody');
    expect(row).toContain('0.2');
    expect(row).toContain('Forced: Feed lagging the market');
    await checkPage(page, 'console-rates-override');
    const [audit] = await server.ctx.db.query<{ actor: string; after: { reason: string } }>(
      "SELECT actor, after FROM audit_log WHERE action = 'rate.override'",
    );
    expect(audit!.actor).toContain('rita@ponte.example');
    expect(audit!.after.reason).toBe('Feed lagging the market');
  });
});
