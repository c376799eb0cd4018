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
import {
  approvedCustomer,
  businessBody,
  createCustomer,
  individualBody,
  validCnpj,
} from '../helpers/factories.ts';
import { type Client, client, startTestServer, type TestServer } from '../helpers/server.ts';
import { addParty, companyParty, personParty } from '../verifications/support.ts';
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

  it('a refused webhook URL is answered beside the field in plain words, the form kept as typed', async () => {
    await page.goto(`${origin}/sandbox/webhooks`);
    await page.fill('#url', 'ftp://93.184.215.14/hooks');
    await page.check('input[name=events][value="customer.created"]');
    expect(await submit(page, 'form[action="/sandbox/webhooks"] button[type=submit]')).toBe(400);
    const message = (await page.textContent('#url-error'))!;
    expect(message).toContain('must start with https://');
    expect(await page.content()).not.toContain('request body is invalid');
    expect(await page.getAttribute('#url', 'aria-invalid')).toBe('true');
    expect(await page.getAttribute('#url', 'aria-describedby')).toBe('url-error');
    expect(await page.inputValue('#url')).toBe('ftp://93.184.215.14/hooks');
    expect(await page.isChecked('input[name=events][value="customer.created"]')).toBe(true);
    await checkPage(page, 'dashboard-forms-webhook-refused');
    await page.fill('#url', 'https://ana:segredo@93.184.215.14/hooks');
    expect(await submit(page, 'form[action="/sandbox/webhooks"] button[type=submit]')).toBe(400);
    expect(await page.textContent('#url-error')).toContain('Leave the user name and password out');
    expect(
      await countRows('SELECT count(*) AS n FROM webhook_endpoints WHERE url LIKE $1', ['%/hooks']),
    ).toBe(0);
  });

  it('an over-long API key name is answered beside the field, the form kept, no key created', async () => {
    await page.goto(`${origin}/sandbox/api-keys`);
    // The input stops at 200 characters; a browser that lets more through (or a pasted script) still
    // meets a message beside the field, not a page of the validator's wording.
    await page.evaluate(`document.querySelector('#key-name').removeAttribute('maxlength')`);
    const long = 'chave '.repeat(50).trim();
    await page.fill('#key-name', long);
    expect(await submit(page, 'form[action="/sandbox/api-keys"] button[type=submit]')).toBe(400);
    expect(await page.textContent('#key-name-error')).toContain('at most 200 characters');
    expect(await page.inputValue('#key-name')).toBe(long);
    expect(await page.isVisible('nav[aria-label=Main]')).toBe(true);
    await checkPage(page, 'dashboard-forms-key-name-refused');
    expect(await countRows('SELECT count(*) AS n FROM api_keys WHERE name LIKE $1', ['chave chave%'])).toBe(
      0,
    );
  });

  it('an invitation to an address that already has a user is answered beside the field, the form kept, nothing created', async () => {
    // The signed-in admin's own address, typed in other letters' case: the user exists and has signed in.
    await page.goto(`${origin}/sandbox/team`);
    await page.fill('#invite-email', 'Ana@Formulario.example');
    await page.selectOption('#invite-role', 'viewer');
    expect(await submit(page, 'form[action="/sandbox/team"] button')).toBe(400);
    expect(await page.textContent('#invite-email-error')).toContain('already has a user');
    expect(await page.inputValue('#invite-email')).toBe('Ana@Formulario.example');
    expect(await page.inputValue('#invite-role')).toBe('viewer');
    expect(await page.isVisible('nav[aria-label=Main]')).toBe(true);
    await checkPage(page, 'dashboard-forms-invite-refused');
    const users = `SELECT count(*) AS n FROM web_users WHERE project_id = $1 AND lower(email) = $2 AND role = 'admin'`;
    expect(await countRows(users, [projectId, 'ana@formulario.example'])).toBe(1);
  });

  it("the transaction page names its customer, linked to the customer's page", async () => {
    const customer = await approvedCustomer(sandbox, individualBody({ name: 'Clara Transação' }));
    const created = await sandbox.post('/transactions/on-ramp', {
      customerId: customer.id,
      currency: 'BRL',
      amount: '150.00',
    });
    expect(created.statusCode).toBe(201);
    await page.goto(`${origin}/sandbox/transactions/${created.json().id}`);
    const link = page.locator(`dd a[href="/sandbox/customers/${customer.id}"]`);
    expect(await link.textContent()).toBe('Clara Transação');
    await checkPage(page, 'dashboard-forms-transaction-customer');
    await Promise.all([page.waitForNavigation(), link.click()]);
    expect(pathOf(page.url())).toBe(`/sandbox/customers/${customer.id}`);
  });

  it("a business's parties show as its ownership tree, a 30% owner through a holding marked as an indirect UBO", async () => {
    const business = await createCustomer(sandbox, businessBody({ name: 'Árvore Comércio Ltda' }));
    const holding = await addParty(sandbox, business.id, companyParty({ name: 'Holding Raiz SA' }));
    const owner = await addParty(
      sandbox,
      business.id,
      personParty({
        role: 'SHAREHOLDER',
        name: 'Otávio Indireto',
        parentId: holding.id,
        ownershipPercentage: 50,
      }),
    );
    const direct = await addParty(
      sandbox,
      business.id,
      personParty({ name: 'Dora Direta', ownershipPercentage: 40 }),
    );
    await page.goto(`${origin}/sandbox/customers/${business.id}`);
    const rows = page.locator('section[aria-labelledby=parties] tbody tr');
    const order = await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-party')));
    expect(order.indexOf(owner.id)).toBe(order.indexOf(holding.id) + 1);
    const ownerRow = page.locator(`tr[data-party="${owner.id}"]`);
    expect(await ownerRow.getAttribute('data-depth')).toBe('1');
    expect(await ownerRow.locator('[data-ubo]').getAttribute('data-ubo')).toBe('indirect');
    expect(await ownerRow.textContent()).toContain('through Holding Raiz SA');
    expect(await ownerRow.textContent()).toContain('30.00%');
    const directRow = page.locator(`tr[data-party="${direct.id}"]`);
    expect(await directRow.getAttribute('data-depth')).toBe('0');
    expect(await directRow.locator('[data-ubo]').getAttribute('data-ubo')).toBe('direct');
    expect(await page.locator(`tr[data-party="${holding.id}"] [data-ubo]`).count()).toBe(0);
    await checkPage(page, 'dashboard-forms-ownership-tree');
  });
});
