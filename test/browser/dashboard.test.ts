/**
 * The partner dashboard in a real browser (Debian's Chromium through playwright-core) against a real
 * listener: invitations, sign-in with an optional second factor, every page of the list, roles
 * and CSRF enforced by the server, and isolation between projects. Every page is checked with axe-core
 * and captured at 1280×800 and at a phone width under test-results/.
 */
import type { FastifyInstance } from 'fastify';
import { generate } from 'otplib';
import type { Browser, Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDashboardApp } from '../../src/app.ts';
import { accountBody } from '../bank-accounts/bodies.ts';
import { PDF } from '../compliance/files.ts';
import { approvedCustomer, createCustomer, individualBody, validCpf } from '../helpers/factories.ts';
import { type Client, client, eventually, type TestServer } from '../helpers/server.ts';
import { type Receiver, startReceiver, startWebhookServer } from '../webhooks/support.ts';
import { checkPage, csrfOf, hasChromium, launch, listen, newPage, pathOf, submit } from './web-support.ts';

const PASSWORD = 'a long and good password';

let server: TestServer;
let dashboard: FastifyInstance;
let origin: string;
let browser: Browser;
let page: Page;
let cspViolations: string[];
let sandbox: Client;
let receiver: Receiver;
let tenant: { projectId: string; sandboxKey: string; productionKey: string };

async function invite(projectId: string, email: string, role: string): Promise<string> {
  const response = await server.operator.inject({
    method: 'POST',
    url: `/operator/projects/${projectId}/users`,
    payload: { email, role },
    headers: { authorization: `Bearer ${server.operatorToken}` },
  });
  expect(response.statusCode).toBe(201);
  return response.json().inviteUrl;
}

/** Opens an invitation in `target`, sets the password and returns after landing on the overview. */
async function acceptInvite(target: Page, inviteUrl: string, shot?: string) {
  await target.goto(`${origin}${pathOf(inviteUrl)}`);
  if (shot) await checkPage(target, shot);
  await target.fill('#password', PASSWORD);
  expect(await submit(target, 'button[type=submit]')).toBe(200);
  expect(pathOf(target.url())).toBe('/sandbox');
}

async function signIn(target: Page, email: string, password = PASSWORD) {
  await target.goto(`${origin}/sign-in`);
  await target.fill('#email', email);
  await target.fill('#password', password);
  return submit(target, 'button[type=submit]');
}

describe.skipIf(!hasChromium)('partner dashboard in a browser', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    // A database of its own: on the shared one, other files' dispatchers (other settings, no private
    // receivers allowed) could claim this file's deliveries.
    server = await startWebhookServer({
      env: {
        PONTE_REQUEST_LOG_FLUSH_MS: '50',
        PONTE_WEBHOOK_RETRY_BASE_MS: '600000',
      },
    });
    tenant = await server.newTenant('Banco Exemplo');
    sandbox = client(server.sandbox, tenant.sandboxKey);
    dashboard = await buildDashboardApp(server.ctx);
    origin = await listen(dashboard);
    browser = await launch();
    ({ page, cspViolations } = await newPage(browser));
    receiver = await startReceiver(() => 503);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await dashboard?.close();
    await server?.close();
  });

  it('accepts an invitation, sets a password and signs in to the sandbox overview', async () => {
    const link = await invite(tenant.projectId, 'ana@banco.example', 'admin');
    await page.goto(`${origin}/sandbox`);
    expect(pathOf(page.url())).toBe('/sign-in');
    await checkPage(page, 'dashboard-sign-in');
    await acceptInvite(page, link, 'dashboard-invite');
    await checkPage(page, 'dashboard-overview');
    // single use
    const again = await page.request.get(`${origin}${pathOf(link)}`);
    expect(again.status()).toBe(404);
  });

  it('creates a sandbox key in the page; it works against the sandbox API; revoked in the page it gets 401', async () => {
    await page.goto(`${origin}/sandbox/api-keys`);
    await page.fill('#key-name', 'checkout');
    expect(await submit(page, 'form[action="/sandbox/api-keys"] button[type=submit]')).toBe(200);
    const key = (await page.textContent('#new-key'))!.trim();
    expect(key).toMatch(/^sk_sandbox_/);
    expect(await page.isVisible('button[data-copy="new-key"]')).toBe(true);
    await checkPage(page, 'dashboard-api-keys-created');
    expect((await client(server.sandbox, key).get('/customers')).statusCode).toBe(200);

    // shown once: a reload shows only the prefix
    await page.goto(`${origin}/sandbox/api-keys`);
    expect(await page.content()).not.toContain(key);
    page.once('dialog', (dialog) => void dialog.accept());
    expect(await submit(page, 'button:has-text("Revoke")')).toBe(200);
    expect(await page.textContent('[role=status]')).toContain('revoked');
    await checkPage(page, 'dashboard-api-keys');
    await eventually(
      () => client(server.sandbox, key).get('/customers'),
      (response) => response.statusCode === 401,
    );
  });

  it('switches between sandbox and production data, and every page says which one it shows', async () => {
    await createCustomer(sandbox, individualBody({ name: 'Somente Sandbox' }));
    await page.goto(`${origin}/sandbox/customers`);
    expect(await page.getAttribute('[data-environment]', 'data-environment')).toBe('sandbox');
    expect(await page.content()).toContain('Somente Sandbox');
    await page.click('nav[aria-label=Environment] >> text=Production');
    expect(pathOf(page.url())).toBe('/production/customers');
    expect(await page.getAttribute('[data-environment]', 'data-environment')).toBe('production');
    expect(await page.content()).not.toContain('Somente Sandbox');
    await checkPage(page, 'dashboard-customers-production');
    for (const path of [
      '/sandbox',
      '/sandbox/webhooks',
      '/sandbox/requests',
      '/sandbox/transactions',
      '/sandbox/limit-requests',
      '/sandbox/team',
    ]) {
      await page.goto(`${origin}${path}`);
      expect(await page.getAttribute('[data-environment]', 'data-environment'), path).toBe('sandbox');
      expect(await page.isVisible('nav[aria-label=Environment]'), path).toBe(true);
    }
  });

  it('enables a TOTP second factor, signs out, and signs in again with password and code', async () => {
    await page.goto(`${origin}/account`);
    await checkPage(page, 'dashboard-account');
    const secret = (await page.textContent('#totp-secret'))!.trim();
    const enabling = await generate({ secret });
    await page.fill('#totp-code', enabling);
    expect(await submit(page, 'form[action="/account/totp"] button')).toBe(200);
    expect(await page.textContent('[role=status]')).toContain('on');

    expect(await submit(page, 'form[action="/sign-out"] button')).toBe(200);
    expect(pathOf(page.url())).toBe('/sign-in');
    expect((await page.request.get(`${origin}/sandbox`, { maxRedirects: 0 })).status()).toBe(303);

    expect(await signIn(page, 'ana@banco.example')).toBe(200);
    expect(pathOf(page.url())).toBe('/sign-in/code');
    await checkPage(page, 'dashboard-sign-in-code');
    // the pending session opens nothing else
    expect((await page.request.get(`${origin}/sandbox`, { maxRedirects: 0 })).status()).toBe(303);
    await page.fill('#code', '000000');
    expect(await submit(page, 'button[type=submit]')).toBe(401);
    // a code signs in once: the one that enabled the factor is spent, the next step's code is accepted
    await page.fill('#code', enabling);
    expect(await submit(page, 'button[type=submit]')).toBe(401);
    await page.fill('#code', await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 }));
    expect(await submit(page, 'button[type=submit]')).toBe(200);
    expect(pathOf(page.url())).toBe('/sandbox');
  });

  it('webhooks: adds an endpoint with its secret shown once, shows deliveries with each attempt, retries one', async () => {
    await page.goto(`${origin}/sandbox/webhooks`);
    await page.fill('#url', receiver.url);
    expect(await submit(page, 'form[action="/sandbox/webhooks"] button[type=submit]')).toBe(200);
    expect((await page.textContent('#new-secret'))!.trim()).toMatch(/^whsec_/);
    await checkPage(page, 'dashboard-webhooks');

    await createCustomer(sandbox, individualBody({ name: 'Gatilho Webhook' }));
    await eventually(
      async () => receiver.received.length,
      (n) => n >= 1,
    );
    await page.click(`a:has-text("${receiver.url}")`);
    await page.waitForLoadState('load');
    await eventually(
      async () => {
        await page.reload();
        return page.content();
      },
      (html) => html.includes('HTTP 503'),
    );
    await checkPage(page, 'dashboard-webhook-deliveries');
    // The oldest delivery goes first (deliveries of one resource keep their order).
    const before = receiver.received.length;
    const [response] = await Promise.all([
      page.waitForNavigation(),
      page.locator('button:has-text("Retry")').last().click(),
    ]);
    expect(response?.status()).toBe(200);
    expect(await page.textContent('[role=status]')).toContain('attempted again');
    // the dispatcher's next tick sends it; a loaded machine may take a few seconds to get there
    await eventually(
      async () => receiver.received.length,
      (n) => n > before,
      20_000,
    );
    await eventually(
      async () => {
        await page.reload();
        return page.locator('tbody tr').last().locator('li').count();
      },
      (count) => count >= 2,
    );

    page.once('dialog', (dialog) => void dialog.accept());
    expect(await submit(page, 'button:has-text("Remove endpoint")')).toBe(200);
    expect(await page.content()).not.toContain(receiver.url);
  });

  it('webhooks: sends a signed test event to the one endpoint asked, whatever events it subscribes to', async () => {
    const ok = await startReceiver();
    try {
      await page.goto(`${origin}/sandbox/webhooks`);
      await page.fill('#url', ok.url);
      await page.check('input[name=events][value="customer.created"]');
      expect(await submit(page, 'form[action="/sandbox/webhooks"] button[type=submit]')).toBe(200);
      const secret = (await page.textContent('#new-secret'))!.trim();
      // another endpoint of the project, subscribed to everything: it must not receive the test
      await page.fill('#url', `${ok.url}/other`);
      expect(await submit(page, 'form[action="/sandbox/webhooks"] button[type=submit]')).toBe(200);
      const [endpoint] = await server.ctx.db.query<{ id: string }>(
        'SELECT id FROM webhook_endpoints WHERE url = $1',
        [ok.url],
      );
      await page.goto(`${origin}/sandbox/webhooks/${endpoint!.id}`);
      expect(await submit(page, 'button:has-text("Send a test event")')).toBe(200);
      expect(await page.textContent('[role=status]')).toContain('webhook_endpoint.test');
      await eventually(
        async () => ok.received.length,
        (n) => n >= 1,
        20_000,
      );
      const request = ok.received[0]!;
      const payload = new Webhook(secret).verify(request.body, {
        'webhook-id': String(request.headers['webhook-id']),
        'webhook-timestamp': String(request.headers['webhook-timestamp']),
        'webhook-signature': String(request.headers['webhook-signature']),
      }) as { eventId: string; eventType: string; data: { id: string; url: string } };
      expect(payload.eventType).toBe('webhook_endpoint.test');
      expect(payload.data).toMatchObject({ id: endpoint!.id, url: ok.url });
      const deliveries = await server.ctx.db.query(
        'SELECT endpoint_id FROM webhook_deliveries WHERE event_id = $1',
        [payload.eventId],
      );
      expect(deliveries).toEqual([{ endpoint_id: endpoint!.id }]);
      await eventually(
        async () => {
          await page.reload();
          return page.textContent('tbody');
        },
        (text) => /webhook_endpoint\.test[\s\S]*DELIVERED[\s\S]*HTTP 200/.test(text ?? ''),
      );
      await checkPage(page, 'dashboard-webhook-test-event');
      expect(ok.received).toHaveLength(1);

      // Rotating the secret in the page: the new one is shown once, and both sign for the overlap chosen.
      await page.selectOption('#overlap', '3600');
      const [rotation] = await Promise.all([
        page.waitForNavigation(),
        page.locator('button:has-text("Rotate secret")').click(),
      ]);
      expect(rotation?.status()).toBe(200);
      expect((await rotation!.allHeaders())['cache-control']).toBe('no-store');
      const rotated = (await page.textContent('#new-secret'))!.trim();
      expect(rotated).toMatch(/^whsec_/);
      expect(rotated).not.toBe(secret);
      expect(await page.textContent('dl')).toContain('Previous secret');
      await checkPage(page, 'dashboard-webhook-rotated');
      await page.goto(`${origin}/sandbox/webhooks/${endpoint!.id}`);
      expect(await page.content()).not.toContain(rotated);
      expect(await submit(page, 'button:has-text("Send a test event")')).toBe(200);
      await eventually(
        async () => ok.received.length,
        (n) => n >= 2,
        20_000,
      );
      const second = ok.received[1]!;
      const headers = {
        'webhook-id': String(second.headers['webhook-id']),
        'webhook-timestamp': String(second.headers['webhook-timestamp']),
        'webhook-signature': String(second.headers['webhook-signature']),
      };
      expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
      for (const key of [secret, rotated]) {
        expect(new Webhook(key).verify(second.body, headers)).toMatchObject({
          eventType: 'webhook_endpoint.test',
        });
      }
    } finally {
      await ok.close();
    }
  });

  it('request log: recent API requests with the problem body of a failure, filtered by status and path', async () => {
    const failed = await sandbox.post('/customers', { type: 'INDIVIDUAL' });
    expect(failed.statusCode).toBe(400);
    const requestId = failed.json().requestId as string;
    await page.goto(`${origin}/sandbox/requests`);
    await eventually(
      async () => {
        await page.reload();
        return page.content();
      },
      (html) => html.includes(requestId),
    );
    await page.selectOption('#status', 'failure');
    await page.fill('#path', '/customers');
    expect(await submit(page, 'form[role=search] button')).toBe(200);
    const rows = await page.locator('tbody tr').allTextContents();
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row).toMatch(/\b4\d\d\b/);
    expect(await page.content()).toContain(requestId);
    await page.click(`tr:has-text("${requestId}") summary`);
    expect(await page.textContent(`tr:has-text("${requestId}") pre`)).toContain('invalid_request');
    await checkPage(page, 'dashboard-request-log');
    await page.selectOption('#status', 'success');
    await submit(page, 'form[role=search] button');
    expect(await page.content()).not.toContain(requestId);
  });

  let customerId: string;
  let customerTaxId: string;

  it('customers: search by name, taxId and e-mail; the detail shows verification, limits, accounts, balances, transactions', async () => {
    customerTaxId = validCpf('5');
    const customer = await approvedCustomer(
      sandbox,
      individualBody({ name: 'Beatriz Nogueira', taxId: customerTaxId, email: 'beatriz@cliente.example' }),
    );
    customerId = customer.id;
    expect((await sandbox.post('/bank-accounts', accountBody(customerId))).statusCode).toBe(201);

    for (const query of ['Nogueira', customerTaxId, 'beatriz@cliente']) {
      await page.goto(`${origin}/sandbox/customers`);
      await page.fill('#q', query);
      await submit(page, 'form[role=search] button');
      const rows = await page.locator('tbody tr').allTextContents();
      expect(rows.length, query).toBe(1);
      expect(rows[0]).toContain('Beatriz Nogueira');
    }
    await checkPage(page, 'dashboard-customers');
    await page.click('a:has-text("Beatriz Nogueira")');
    await page.waitForLoadState('load');
    const text = await page.textContent('main');
    expect(text).toContain('APPROVED');
    expect(text).toContain('7500.00');
    expect(text).toContain('Bruno Lima');
    expect(text).toContain('USDC');
    await checkPage(page, 'dashboard-customer');
  });

  it('transactions: list with a filter, and a page with timeline and the BR Code as a QR image', async () => {
    const created = await sandbox.post('/transactions/on-ramp', {
      customerId,
      currency: 'BRL',
      amount: '150.00',
    });
    expect(created.statusCode).toBe(201);
    const tx = created.json();
    await page.goto(`${origin}/sandbox/transactions`);
    await page.fill('#customerId', customerId);
    await page.selectOption('#status', 'AWAITING_FUNDS');
    await page.selectOption('#type', 'ON_RAMP');
    await page.selectOption('#currency', 'BRL');
    const today = tx.createdAt.slice(0, 10);
    await page.fill('#from', today);
    await page.fill('#to', today);
    expect(await submit(page, 'form[role=search] button')).toBe(200);
    expect(await page.locator('tbody tr').count()).toBe(1);
    expect(await page.inputValue('#from')).toBe(today);
    await checkPage(page, 'dashboard-transactions');
    const next = new Date(Date.parse(today) + 86_400_000).toISOString().slice(0, 10);
    for (const miss of [
      'status=SUCCESS',
      'type=OFF_RAMP',
      'type=TRANSFER',
      'currency=USDC',
      `from=${next}`,
    ]) {
      await page.goto(`${origin}/sandbox/transactions?customerId=${customerId}&${miss}`);
      expect(await page.locator('tbody tr').count(), miss).toBe(0);
    }
    for (const bad of ['status=PAID', 'from=2026-02-30', `from=${next}&to=${today}`]) {
      const response = await page.request.get(`${origin}/sandbox/transactions?${bad}`);
      expect(response.status(), bad).toBe(400);
    }
    await page.goto(`${origin}/sandbox/transactions?customerId=${customerId}`);
    await page.click(`a[href="/sandbox/transactions/${tx.id}"]`);
    await page.waitForLoadState('load');
    expect(await page.textContent('#brcode')).toBe(tx.depositInstructions.brCode);
    const qr = await page.getAttribute('img.qr', 'src');
    expect(qr).toMatch(/^data:image\/png;base64,/);
    expect(await page.evaluate('document.querySelector("img.qr").naturalWidth')).toBeGreaterThan(100);
    expect(await page.textContent('main')).toContain('AWAITING FUNDS');
    expect(await page.locator('dd.reference').count()).toBe(0); // no quote, no reference
    await checkPage(page, 'dashboard-transaction');

    // a transaction on a quote shows the market reference the quote was priced from
    const quote = (
      await sandbox.post('/exchange-rates', {
        type: 'LOCKED',
        sourceCurrency: 'BRL',
        targetCurrency: 'USDC',
        sourceAmount: '120.00',
        timeLock: '5m',
      })
    ).json();
    expect(quote.reference.rate).toMatch(/^\d+(\.\d+)?$/);
    const quoted = await sandbox.post('/transactions/on-ramp', { customerId, exchangeRateId: quote.id });
    expect(quoted.statusCode, quoted.body).toBe(201);
    await page.goto(`${origin}/sandbox/transactions/${quoted.json().id}`);
    const at = quote.reference.at
      ? ` at ${quote.reference.at.replace('T', ' ').replace(/\.\d{3}Z$/, ' UTC')}`
      : '';
    expect(await page.textContent('dd.reference')).toBe(
      `${quote.reference.source} ${quote.reference.rate}${at}`,
    );
    await checkPage(page, 'dashboard-transaction-quoted');
  });

  it('limit requests: creates one with the document uploaded from the page, and follows its review', async () => {
    await page.goto(`${origin}/sandbox/customers/${customerId}`);
    await page.click('a:has-text("Request higher limits")');
    await page.waitForLoadState('load');
    expect(await page.inputValue('#customerId')).toBe(customerId);
    await page.fill('#single', '20000.00');
    await page.setInputFiles('#document', { name: 'extrato.pdf', mimeType: 'application/pdf', buffer: PDF });
    await checkPage(page, 'dashboard-limit-request-new');
    expect(await submit(page, 'button[type=submit]:has-text("Send")')).toBe(200);
    expect(await page.textContent('[role=status]')).toContain('review');
    expect(await page.textContent('tbody')).toContain('IN REVIEW');

    const [request] = (await sandbox.get(`/customers/${customerId}/limit-requests`)).json().data;
    expect(request.supportingDocumentId).toBeTruthy();
    const reviewed = await server.operator.inject({
      method: 'POST',
      url: `/operator/limit-requests/${request.id}/review`,
      payload: { decision: 'APPROVE' },
      headers: { authorization: `Bearer ${server.operatorToken}` },
    });
    expect(reviewed.statusCode).toBe(200);
    await page.reload();
    expect(await page.textContent('tbody')).toContain('APPROVED');
    await checkPage(page, 'dashboard-limit-requests');
  });

  it('team: invites, changes a role and removes a user, whose session then ends', async () => {
    await page.goto(`${origin}/sandbox/team`);
    await page.fill('#invite-email', 'dev@banco.example');
    await page.selectOption('#invite-role', 'developer');
    expect(await submit(page, 'form[action="/sandbox/team"] button')).toBe(200);
    const link = (await page.textContent('#invite-url'))!.trim();
    await checkPage(page, 'dashboard-team');

    const { page: other } = await newPage(browser);
    await acceptInvite(other, link);
    await page.goto(`${origin}/sandbox/team`);
    const row = page.locator('tr:has-text("dev@banco.example")');
    await row.locator('select').selectOption('viewer');
    expect(await submit(page, 'tr:has-text("dev@banco.example") button:has-text("Save")')).toBe(200);
    await other.goto(`${origin}/sandbox/team`);
    expect(await other.textContent('.user')).toContain('viewer');

    page.once('dialog', (dialog) => void dialog.accept());
    expect(await submit(page, 'tr:has-text("dev@banco.example") button:has-text("Remove")')).toBe(200);
    expect(await page.content()).not.toContain('dev@banco.example');
    await other.goto(`${origin}/sandbox/team`);
    expect(pathOf(other.url())).toBe('/sign-in');
    expect(await signIn(other, 'dev@banco.example')).toBe(401);
    await other.context().close();
  });

  it("refuses a viewer's attempt to create a key on the server, not only in the page", async () => {
    const link = await invite(tenant.projectId, 'viewer@banco.example', 'viewer');
    const { page: viewer } = await newPage(browser);
    await acceptInvite(viewer, link);
    await viewer.goto(`${origin}/sandbox/api-keys`);
    expect(await viewer.isVisible('#key-name')).toBe(false);
    await checkPage(viewer, 'dashboard-api-keys-viewer');
    const csrf = await csrfOf(viewer);
    const refused = await viewer.request.post(`${origin}/sandbox/api-keys`, {
      form: { _csrf: csrf, name: 'sneaky' },
    });
    expect(refused.status()).toBe(403);
    for (const path of ['/sandbox/webhooks', '/sandbox/team']) {
      const response = await viewer.request.post(`${origin}${path}`, {
        form: { _csrf: csrf, url: 'https://example.com/h', email: 'x@y.example', role: 'admin' },
      });
      expect(response.status(), path).toBe(403);
    }
    const keys = await server.ctx.db.query("SELECT 1 FROM api_keys WHERE name = 'sneaky'");
    expect(keys).toHaveLength(0);
    const [endpoint] = await server.ctx.db.query<{ id: string }>(
      'SELECT id FROM webhook_endpoints WHERE project_id = $1 AND deleted_at IS NULL LIMIT 1',
      [tenant.projectId],
    );
    const events = await server.ctx.db.query('SELECT count(*) AS n FROM events');
    expect(
      (
        await viewer.request.post(`${origin}/sandbox/webhooks/${endpoint!.id}/test`, {
          form: { _csrf: csrf },
        })
      ).status(),
    ).toBe(403);
    expect(await server.ctx.db.query('SELECT count(*) AS n FROM events')).toEqual(events);
    const secrets = await server.ctx.db.query(
      'SELECT secret_ciphertext FROM webhook_endpoints WHERE id = $1',
      [endpoint!.id],
    );
    expect(
      (
        await viewer.request.post(`${origin}/sandbox/webhooks/${endpoint!.id}/rotate-secret`, {
          form: { _csrf: csrf, expiresIn: '0' },
        })
      ).status(),
    ).toBe(403);
    expect(
      await server.ctx.db.query('SELECT secret_ciphertext FROM webhook_endpoints WHERE id = $1', [
        endpoint!.id,
      ]),
    ).toEqual(secrets);
    await viewer.context().close();

    // fees are the admins': a developer reads them and is refused a change on the server
    const { page: developer } = await newPage(browser);
    await acceptInvite(developer, await invite(tenant.projectId, 'developer@banco.example', 'developer'));
    await developer.goto(`${origin}/sandbox/fees`);
    expect(await developer.isVisible('#on_ramp-bps')).toBe(false);
    expect(await developer.textContent('main')).toContain('Only the project');
    const feeChange = {
      _csrf: await csrfOf(developer),
      transactionType: 'ON_RAMP',
      bps: '4000',
      flat: '0.00',
    };
    expect((await developer.request.post(`${origin}/sandbox/fees`, { form: feeChange })).status()).toBe(403);
    expect(
      await server.ctx.db.query(
        "SELECT 1 FROM audit_log WHERE action = 'partner_fee.set' AND after::text LIKE '%4000%'",
      ),
    ).toHaveLength(0);
    await developer.context().close();
  });

  it('refuses a state-changing request without the CSRF token, or from another origin', async () => {
    const before = await server.ctx.db.query('SELECT count(*) AS n FROM api_keys');
    const missing = await page.request.post(`${origin}/sandbox/api-keys`, { form: { name: 'no token' } });
    expect(missing.status()).toBe(403);
    const wrong = await page.request.post(`${origin}/sandbox/api-keys`, {
      form: { _csrf: 'x'.repeat(32), name: 'bad' },
    });
    expect(wrong.status()).toBe(403);
    await page.goto(`${origin}/sandbox/api-keys`);
    const foreign = await page.request.post(`${origin}/sandbox/api-keys`, {
      form: { _csrf: await csrfOf(page), name: 'foreign' },
      headers: { origin: 'https://evil.example' },
    });
    expect(foreign.status()).toBe(403);
    expect(await server.ctx.db.query('SELECT count(*) AS n FROM api_keys')).toEqual(before);
  });

  it('throttles sign-in per account after repeated failures', async () => {
    const { page: attacker } = await newPage(browser);
    for (let i = 0; i < 5; i++)
      expect(await signIn(attacker, 'ana@banco.example', 'wrong password!')).toBe(401);
    expect(await signIn(attacker, 'ana@banco.example', 'wrong password!')).toBe(429);
    expect(await attacker.textContent('[role=alert]')).toContain('Too many');
    await attacker.context().close();
  });

  it('fees: the partner fee beside the platform fee; an admin changes it, audited, read by the API, charged on receipts', async () => {
    await page.goto(`${origin}/sandbox/fees`);
    const platform = server.ctx.config.onRamp.feeBasisPoints;
    expect(await page.textContent('tbody')).toContain(
      `${Math.floor(platform / 100)}.${String(platform % 100).padStart(2, '0')}%`,
    );
    await page.fill('#on_ramp-bps', '125');
    await page.fill('#on_ramp-flat', '2.00');
    expect(await submit(page, 'button:has-text("Save on-ramp fee")')).toBe(200);
    expect(await page.textContent('[role=status]')).toContain('saved');
    expect(await page.textContent('tbody')).toContain('1.25% + BRL 2.00');
    await checkPage(page, 'dashboard-fees');
    const read = await server.operator.inject({
      method: 'GET',
      url: `/operator/projects/${tenant.projectId}/partner-fees`,
      headers: { authorization: `Bearer ${server.operatorToken}` },
    });
    expect(read.json().data).toContainEqual(
      expect.objectContaining({ transactionType: 'ON_RAMP', bps: 125, flat: '2.00' }),
    );
    const audit = await server.ctx.db.query<{ actor: string }>(
      "SELECT actor FROM audit_log WHERE action = 'partner_fee.set' AND resource_id = $1",
      [tenant.projectId],
    );
    expect(audit.map((row) => row.actor)).toEqual([
      expect.stringMatching(/^dashboard:.*:ana@banco\.example$/),
    ]);
    // a transaction created now charges it, and its receipt shows both fees apart
    const created = (
      await sandbox.post('/transactions/on-ramp', { customerId, currency: 'BRL', amount: '200.00' })
    ).json();
    expect((await sandbox.post(`/sandbox/transactions/${created.id}/deposit`, {})).statusCode).toBeLessThan(
      300,
    );
    const settled = await eventually(
      async () => (await sandbox.get(`/transactions/${created.id}`)).json(),
      (tx) => tx.status === 'SUCCESS',
      20_000,
    );
    expect(settled.receipt.fees.partner).toEqual({ amount: '4.50', currency: 'BRL' });
    await page.goto(`${origin}/sandbox/transactions/${created.id}`);
    const receipt = await page.textContent('section[aria-labelledby=receipt]');
    expect(receipt).toContain('Your feeBRL 4.50');
    expect(receipt).toContain(`Platform feeBRL ${settled.receipt.fees.platform.amount}`);
    await page.goto(`${origin}/sandbox/fees`);
    // out of range: refused beside the field in a person's words, the form kept as typed, nothing changed
    await page.fill('#on_ramp-bps', '9999');
    expect(await submit(page, 'button:has-text("Save on-ramp fee")')).toBe(400);
    expect(await page.textContent('#on_ramp-bps-error')).toContain(
      'whole number of basis points from 0 to 5000',
    );
    expect(await page.inputValue('#on_ramp-bps')).toBe('9999');
    expect(await page.getAttribute('#on_ramp-bps', 'aria-invalid')).toBe('true');
    expect(await page.textContent('main')).not.toContain('/body/');
    await checkPage(page, 'dashboard-fees-refused');
    await page.goto(`${origin}/sandbox/fees`);
    expect(await page.textContent('tbody')).toContain('1.25% + BRL 2.00');
  });

  it('cross-tenant: nothing of another project is reachable through any page or form', async () => {
    const other = await server.newTenant('Outro Parceiro');
    const otherApi = client(server.sandbox, other.sandboxKey);
    const foreignCustomer = await createCustomer(otherApi, individualBody({ name: 'Cliente Alheio' }));
    const endpoint = (await otherApi.post('/webhook-endpoints', { url: 'https://example.com/other' })).json();
    const [foreignKey] = await server.ctx.db.query<{ id: string }>(
      "SELECT id FROM api_keys WHERE project_id = $1 AND environment = 'sandbox'",
      [other.projectId],
    );
    const foreignUserLink = await invite(other.projectId, 'someone@outro.example', 'admin');
    const [foreignUser] = await server.ctx.db.query<{ id: string }>(
      "SELECT id FROM web_users WHERE email = 'someone@outro.example'",
    );
    expect(foreignUserLink).toBeTruthy();

    const reads = [
      `/sandbox/customers/${foreignCustomer.id}`,
      `/sandbox/webhooks/${endpoint.id}`,
      `/production/customers/${customerId}`,
    ];
    for (const path of reads) expect((await page.request.get(`${origin}${path}`)).status(), path).toBe(404);
    const foreignFee = await server.operator.inject({
      method: 'POST',
      url: `/operator/projects/${other.projectId}/partner-fees`,
      payload: { transactionType: 'OFF_RAMP', bps: 4321, flat: '7.77' },
      headers: { authorization: `Bearer ${server.operatorToken}` },
    });
    expect(foreignFee.statusCode).toBe(201);
    await page.goto(`${origin}/sandbox/fees`);
    expect(await page.content()).not.toContain('43.21%');
    for (const path of ['/sandbox/customers', '/sandbox/team', '/sandbox/api-keys', '/sandbox/webhooks']) {
      await page.goto(`${origin}${path}?q=Alheio`);
      const html = await page.content();
      expect(html, path).not.toContain('Cliente Alheio');
      expect(html, path).not.toContain('someone@outro.example');
      expect(html, path).not.toContain('example.com/other');
    }
    await page.goto(`${origin}/sandbox/api-keys`);
    const csrf = await csrfOf(page);
    const writes: [string, Record<string, string>][] = [
      [`/sandbox/api-keys/${foreignKey!.id}/revoke`, {}],
      [`/sandbox/webhooks/${endpoint.id}/delete`, {}],
      [`/sandbox/webhooks/${endpoint.id}/test`, {}],
      [`/sandbox/webhooks/${endpoint.id}/rotate-secret`, { expiresIn: '0' }],
      [`/sandbox/webhooks/${endpoint.id}/deliveries/${foreignCustomer.id}/retry`, {}],
      [`/sandbox/team/${foreignUser!.id}/role`, { role: 'viewer' }],
      [`/sandbox/team/${foreignUser!.id}/remove`, {}],
    ];
    for (const [path, form] of writes) {
      const response = await page.request.post(`${origin}${path}`, { form: { _csrf: csrf, ...form } });
      expect(response.status(), path).toBe(404);
    }
    const upload = await page.request.post(`${origin}/sandbox/limit-requests`, {
      multipart: {
        _csrf: csrf,
        customerId: foreignCustomer.id,
        single: '1000.00',
        document: { name: 'x.pdf', mimeType: 'application/pdf', buffer: PDF },
      },
    });
    expect(upload.status()).toBe(404);
    expect((await otherApi.get(`/webhook-endpoints/${endpoint.id}`)).statusCode).toBe(200);
    const tests = await server.ctx.db.query(
      "SELECT 1 FROM events WHERE project_id = $1 AND type = 'webhook_endpoint.test'",
      [other.projectId],
    );
    expect(tests).toHaveLength(0);
    expect((await otherApi.get('/customers')).statusCode).toBe(200);
    const [still] = await server.ctx.db.query<{ role: string; removed_at: Date | null }>(
      'SELECT role, removed_at FROM web_users WHERE id = $1',
      [foreignUser!.id],
    );
    expect(still).toEqual({ role: 'admin', removed_at: null });
    const documents = await server.ctx.db.query('SELECT 1 FROM documents WHERE customer_id = $1', [
      foreignCustomer.id,
    ]);
    expect(documents).toHaveLength(0);
  });

  it('loads no asset from another host and breaks no Content-Security-Policy rule', async () => {
    const headers = (await page.request.get(`${origin}/sandbox`)).headers();
    expect(headers['content-security-policy']).toContain("default-src 'none'");
    expect(headers['content-security-policy']).toContain("script-src 'self'");
    expect(headers['x-frame-options']).toBe('DENY');
    expect(cspViolations).toEqual([]);
  });
});
