/**
 * The dashboard's forms as a person meets them in a browser: a form that creates something redirects to
 * the page that shows it (Post/Redirect/Get), so a reload or Back creates nothing and a secret is shown
 * exactly once; a refused field is answered beside the field, in people's words, with the form kept.
 * Pages are checked with axe-core and captured at 1280 and 390 wide under test-results/.
 */
import type { FastifyInstance } from 'fastify';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDashboardApp } from '../../src/app.ts';
import { businessBody, createCustomer, validCnpj } from '../helpers/factories.ts';
import { type Client, client, startTestServer, type TestServer } from '../helpers/server.ts';
import {
  checkPage,
  csrfOf,
  DESKTOP,
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
let browser: Browser;
let page: Page;
let sandbox: Client;
let projectId: string;

const countRows = async (sql: string, params: unknown[]) =>
  Number((await server.ctx.db.query<{ n: string }>(sql, params))[0]!.n);

/** Reloads the page as a person would (F5), answering the status of what the browser loaded. */
async function reload(target: Page): Promise<number> {
  const response = await target.reload();
  return response?.status() ?? 0;
}

describe.skipIf(!hasChromium)('dashboard forms in a browser', { timeout: 90_000 }, () => {
  beforeAll(async () => {
    server = await startTestServer();
    const tenant = await server.newTenant('Banco Formulário');
    projectId = tenant.projectId;
    sandbox = client(server.sandbox, tenant.sandboxKey);
    dashboard = await buildDashboardApp(server.ctx);
    origin = await listen(dashboard);
    browser = await launch();
    ({ page } = await newPage(browser));
    const invited = await server.operator.inject({
      method: 'POST',
      url: `/operator/projects/${projectId}/users`,
      payload: { email: 'ana@formulario.example', role: 'admin' },
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

  it('creating an API key redirects to the page that shows it once; two reloads and Back create no other key', async () => {
    await page.goto(`${origin}/sandbox/api-keys`);
    await page.fill('#key-name', 'recarregada');
    expect(await submit(page, 'form[action="/sandbox/api-keys"] button[type=submit]')).toBe(200);
    expect(pathOf(page.url())).toBe('/sandbox/api-keys');
    const key = (await page.textContent('#new-key'))!.trim();
    expect(key).toMatch(/^sk_sandbox_/);
    expect(page.url()).not.toContain(key);
    expect((await client(server.sandbox, key).get('/customers')).statusCode).toBe(200);
    await checkPage(page, 'dashboard-forms-key-shown');

    for (const _ of [1, 2]) {
      expect(await reload(page)).toBe(200);
      expect(await page.content()).not.toContain(key);
      expect(await page.textContent('[role=status]')).toContain('shown once');
    }
    // Back lands on the form's page, loaded again (no ERR_CACHE_MISS), and Forward shows the key no more.
    const back = await page.goBack();
    expect(back?.status()).toBe(200);
    expect(pathOf(page.url())).toBe('/sandbox/api-keys');
    expect(await page.isVisible('#key-name')).toBe(true);
    await page.goForward();
    expect(await page.content()).not.toContain(key);
    expect(
      await countRows('SELECT count(*) AS n FROM api_keys WHERE project_id = $1 AND name = $2', [
        projectId,
        'recarregada',
      ]),
    ).toBe(1);
  });

  it('adding a webhook endpoint, rotating its secret and inviting a user redirect too: a reload creates nothing', async () => {
    await page.goto(`${origin}/sandbox/webhooks`);
    await page.fill('#url', 'https://93.184.215.14/hooks/prg');
    expect(await submit(page, 'form[action="/sandbox/webhooks"] button[type=submit]')).toBe(200);
    const secret = (await page.textContent('#new-secret'))!.trim();
    expect(secret).toMatch(/^whsec_/);
    expect(await reload(page)).toBe(200);
    expect(await page.content()).not.toContain(secret);
    const endpoints = 'SELECT count(*) AS n FROM webhook_endpoints WHERE url = $1';
    expect(await countRows(endpoints, ['https://93.184.215.14/hooks/prg'])).toBe(1);

    await page.click('a:has-text("https://93.184.215.14/hooks/prg")');
    await page.waitForLoadState('load');
    const [endpoint] = await server.ctx.db.query<{ id: string; secret_ciphertext: string }>(
      'SELECT id, secret_ciphertext FROM webhook_endpoints WHERE url = $1',
      ['https://93.184.215.14/hooks/prg'],
    );
    expect(await submit(page, 'button:has-text("Rotate secret")')).toBe(200);
    expect(pathOf(page.url())).toBe(`/sandbox/webhooks/${endpoint!.id}`);
    const rotated = (await page.textContent('#new-secret'))!.trim();
    expect(rotated).not.toBe(secret);
    const [after] = await server.ctx.db.query<{ secret_ciphertext: string }>(
      'SELECT secret_ciphertext FROM webhook_endpoints WHERE id = $1',
      [endpoint!.id],
    );
    expect(await reload(page)).toBe(200);
    expect(await page.content()).not.toContain(rotated);
    expect(
      await server.ctx.db.query('SELECT secret_ciphertext FROM webhook_endpoints WHERE id = $1', [
        endpoint!.id,
      ]),
    ).toEqual([after]);

    await page.goto(`${origin}/sandbox/team`);
    await page.fill('#invite-email', 'novo@formulario.example');
    expect(await submit(page, 'form[action="/sandbox/team"] button')).toBe(200);
    const link = (await page.textContent('#invite-url'))!.trim();
    expect(link).toContain('/invite/');
    expect(await reload(page)).toBe(200);
    expect(await page.content()).not.toContain(link);
    const invites = `SELECT count(*) AS n FROM web_invites i JOIN web_users u ON u.id = i.user_id
      WHERE u.email = $1`;
    expect(await countRows(invites, ['novo@formulario.example'])).toBe(1);
  });

  it("a key waiting to be shown is sealed, and the creating session's alone: another user given the address sees nothing", async () => {
    await page.goto(`${origin}/sandbox/api-keys`);
    const posted = await page.request.post(`${origin}/sandbox/api-keys`, {
      form: { _csrf: await csrfOf(page), name: 'só minha' },
      maxRedirects: 0,
    });
    expect(posted.status()).toBe(303);
    const address = posted.headers().location!;
    expect(address).toMatch(/^\/sandbox\/api-keys\?shown=[0-9a-f-]{36}$/);
    const stored = JSON.stringify(await server.ctx.db.query('SELECT * FROM web_flashes'));
    expect(stored).not.toContain('sk_sandbox_');

    const invited = await server.operator.inject({
      method: 'POST',
      url: `/operator/projects/${projectId}/users`,
      payload: { email: 'outra@formulario.example', role: 'admin' },
      headers: { authorization: `Bearer ${server.operatorToken}` },
    });
    const { page: other } = await newPage(browser);
    await other.goto(`${origin}${pathOf(invited.json().inviteUrl)}`);
    await other.fill('#password', PASSWORD);
    expect(await submit(other, 'button[type=submit]')).toBe(200);
    await other.goto(`${origin}${address}`);
    expect(await other.isVisible('#new-key')).toBe(false);
    await other.context().close();

    await page.goto(`${origin}${address}`);
    expect((await page.textContent('#new-key'))!.trim()).toMatch(/^sk_sandbox_/);
  });

  it('request log: a status it cannot filter by is refused in the page, as a bad transaction filter is, never ignored', async () => {
    for (const [address, field] of [
      ['/sandbox/requests?status=999', '999'],
      ['/sandbox/requests?status=teapot&path=/customers', 'teapot'],
      ['/sandbox/transactions?status=PAID', 'status'],
    ] as const) {
      const response = await page.goto(`${origin}${address}`);
      expect(response?.status(), address).toBe(400);
      expect(await page.textContent('[role=alert]'), address).toContain(field);
      // the form is kept as typed, and no list pretends the filter applied
      expect(await page.isVisible('form[role=search]'), address).toBe(true);
      expect(await page.locator('tbody tr').count(), address).toBe(0);
    }
    expect(await page.inputValue('#status')).toBe('PAID');
    await page.goto(`${origin}/sandbox/requests?status=999`);
    expect(await page.inputValue('#status')).toBe('999');
    await checkPage(page, 'dashboard-forms-request-log-refused');
    // choosing a status from the list applies it, the error gone
    await page.selectOption('#status', 'failure');
    expect(await submit(page, 'form[role=search] button')).toBe(200);
    expect(await page.isVisible('[role=alert]')).toBe(false);
    const longPath = await page.goto(`${origin}/sandbox/requests?path=${'x'.repeat(300)}`);
    expect(longPath?.status()).toBe(400);
    expect(await page.textContent('[role=alert]')).toContain('Path contains');
  });

  it("a business customer's profile keeps its tax id, e-mail and id whole on one line at 1280, and fits at 390", async () => {
    const business = await createCustomer(
      sandbox,
      businessBody({
        name: 'Distribuidora Atacadista Horizonte do Norte Ltda',
        taxId: validCnpj('1'),
        email: 'financeiro.operacoes@distribuidora-horizonte.example',
      }),
    );
    await page.goto(`${origin}/sandbox/customers/${business.id}`);
    // The lines a value takes in the profile: the client rectangles' distinct lines of the innermost
    // element showing exactly that value (one line, one top).
    const lines = (value: string) =>
      page.evaluate(`(() => {
        const shown = [...document.querySelectorAll('#profile ~ dl *')]
          .filter((element) => element.textContent.trim() === ${JSON.stringify(value)});
        const element = shown[shown.length - 1];
        if (!element) return 0;
        const range = document.createRange();
        range.selectNodeContents(element);
        const tops = [...range.getClientRects()].filter((rect) => rect.width > 0)
          .map((rect) => rect.top).sort((a, b) => a - b);
        // boxes on one line may sit a pixel or two apart; a new line is a line-height lower
        return tops.filter((top, i) => i === 0 || top - tops[i - 1] > 8).length;
      })()`);
    await page.screenshot({ path: `${SHOTS}/dashboard-forms-business-profile.png`, fullPage: true });
    const email = 'financeiro.operacoes@distribuidora-horizonte.example';
    for (const value of [business.taxId, email, business.id]) expect(await lines(value), value).toBe(1);

    await page.setViewportSize(PHONE);
    const overflow = await page.evaluate('document.documentElement.scrollWidth - window.innerWidth');
    expect(overflow).toBeLessThanOrEqual(0);
    for (const value of [business.taxId, business.id]) expect(await lines(value), value).toBe(1);
    await page.screenshot({ path: `${SHOTS}/dashboard-forms-business-profile-phone.png`, fullPage: true });
    await page.setViewportSize(DESKTOP);
    await checkPage(page, 'dashboard-forms-business-customer');
  });
});
