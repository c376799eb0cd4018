/**
 * The operator console in a real browser on the operator listener: sign-in by invitation, the review
 * queues with their documents shown inline and the decisions the operator API takes, projects with keys
 * and dashboard users, rates, transactions and the audit log, which names the signed-in operator for
 * every console action. Every page is checked with axe-core and captured under test-results/.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountBody } from '../bank-accounts/bodies.ts';
import { form, PDF, PNG } from '../compliance/files.ts';
import { idleSandboxCustomer, submitDocuments } from '../compliance/support.ts';
import { approvedCustomer, individualBody, validCpf } from '../helpers/factories.ts';
import { type Client, client, startTestServer, type TestServer } from '../helpers/server.ts';
import { checkPage, csrfOf, hasChromium, launch, listen, newPage, pathOf, submit } from './web-support.ts';

const PASSWORD = 'operator password long enough';

let server: TestServer;
let origin: string;
let browser: Browser;
let page: Page;
let cspViolations: string[];
let sandbox: Client;
let projectId: string;
let operatorId: string;

const operatorCall = (method: 'GET' | 'POST', url: string, payload?: object) =>
  server.operator.inject({
    method,
    url,
    ...(payload ? { payload } : {}),
    headers: { authorization: `Bearer ${server.operatorToken}` },
  });

describe.skipIf(!hasChromium)('operator console in a browser', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    server = await startTestServer();
    const tenant = await server.newTenant('Parceiro Console');
    projectId = tenant.projectId;
    sandbox = client(server.sandbox, tenant.sandboxKey);
    origin = await listen(server.operator);
    browser = await launch();
    ({ page, cspViolations } = await newPage(browser));
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('signs an operator in through a console invitation; the bootstrap token keeps working for the API', async () => {
    operatorId = (await operatorCall('POST', '/operator/operators', { name: 'Carla Compliance' })).json().id;
    const invited = await operatorCall('POST', `/operator/operators/${operatorId}/console-invite`, {
      email: 'carla@ponte.example',
    });
    expect(invited.statusCode).toBe(201);
    await page.goto(`${origin}/console`);
    expect(pathOf(page.url())).toBe('/console/sign-in');
    await checkPage(page, 'console-sign-in');
    await page.goto(`${origin}${pathOf(invited.json().inviteUrl)}`);
    await page.fill('#password', PASSWORD);
    expect(await submit(page, 'button[type=submit]')).toBe(200);
    expect(pathOf(page.url())).toBe('/console/reviews/limit-requests');
    expect((await operatorCall('GET', '/operator/limit-requests?status=IN_REVIEW')).statusCode).toBe(200);
    // a console session is no operator API credential, and the API token opens no console page
    expect((await page.request.get(`${origin}/operator/limit-requests?status=IN_REVIEW`)).status()).toBe(401);
  });

  it('reviews a limit request with its supporting document shown inline', async () => {
    const customer = await approvedCustomer(sandbox, individualBody({ name: 'Daniela Prado' }));
    const document = (
      await sandbox.post(
        `/customers/${customer.id}/documents`,
        form({ file: { content: PNG, name: 'extrato.png' } }, { type: 'LIMIT_REQUEST_BANK_STATEMENT' }),
      )
    ).json();
    const created = await sandbox.post(`/customers/${customer.id}/limit-requests`, {
      requested: { single: '20000.00' },
      supportingDocumentType: 'LIMIT_REQUEST_BANK_STATEMENT',
      supportingDocumentId: document.id,
    });
    expect(created.statusCode).toBe(201);
    await page.goto(`${origin}/console/reviews/limit-requests`);
    await checkPage(page, 'console-limit-requests');
    await page.click('a:has-text("Daniela Prado")');
    await page.waitForLoadState('load');
    expect(await page.evaluate('document.querySelector("img.doc").naturalWidth')).toBeGreaterThan(0);
    await checkPage(page, 'console-limit-request');
    await page.selectOption('#decision', 'REJECT');
    expect(await submit(page, 'button:has-text("Record decision")')).toBe(400);
    await page.goBack();
    await page.selectOption('#decision', 'PARTIALLY_APPROVE');
    await page.fill('#single', '12000.00');
    await page.fill('#reviewComment', 'Statement supports a lower amount');
    expect(await submit(page, 'button:has-text("Record decision")')).toBe(200);
    const after = (await sandbox.get(`/customers/${customer.id}/limit-requests/${created.json().id}`)).json();
    expect(after.status).toBe('PARTIALLY_APPROVED');
    expect(after.approved.single).toBe('12000.00');
  });

  it('reviews a verification with the submitted documents', async () => {
    const customer = await idleSandboxCustomer(sandbox, { name: 'Eduardo Reis' });
    expect(
      (await submitDocuments(server.sandbox, customer.verification.link, { document: PDF, selfie: PNG }))
        .statusCode,
    ).toBeLessThan(400);
    await page.goto(`${origin}/console/reviews/verifications`);
    await page.click('a:has-text("Eduardo Reis")');
    await page.waitForLoadState('load');
    expect(await page.locator('figure').count()).toBe(2);
    expect(await page.locator('iframe.doc').count()).toBe(1);
    await checkPage(page, 'console-verification');
    await page.selectOption('#status', 'APPROVED');
    expect(await submit(page, 'button:has-text("Record decision")')).toBe(200);
    expect((await sandbox.get(`/customers/${customer.id}`)).json().verification.status).toBe('APPROVED');
  });

  it('reviews a third-party holder', async () => {
    const customer = await approvedCustomer(
      sandbox,
      individualBody({ name: 'Fernanda Luz', taxId: validCpf('4') }),
    );
    const account = await sandbox.post(
      '/bank-accounts',
      accountBody(customer.id, { holder: { legalName: 'Gustavo Terceiro' } }),
    );
    expect(account.statusCode).toBe(201);
    await page.goto(`${origin}/console/reviews/holders`);
    await checkPage(page, 'console-holders');
    await page.click('a:has-text("Gustavo Terceiro")');
    await page.waitForLoadState('load');
    await checkPage(page, 'console-holder');
    await page.selectOption('#status', 'APPROVED');
    expect(await submit(page, 'button:has-text("Record decision")')).toBe(200);
    expect((await sandbox.get(`/bank-accounts/${account.json().id}`)).json().holder.verification.status).toBe(
      'APPROVED',
    );
  });

  it('manages projects, their keys, dashboard users and partner fees; sets rates; searches transactions and opens one', async () => {
    await page.goto(`${origin}/console/projects`);
    await page.fill('#name', 'Novo Parceiro');
    expect(await submit(page, 'button:has-text("Create project")')).toBe(200);
    await checkPage(page, 'console-project');
    await page.selectOption('#environment', 'sandbox');
    expect(await submit(page, 'button:has-text("Issue key")')).toBe(200);
    const key = (await page.textContent('#new-key'))!.trim();
    expect((await client(server.sandbox, key).get('/customers')).statusCode).toBe(200);
    // Post/Redirect/Get: a reload shows the key no more and issues no other; the invitation likewise.
    const keysOf = (project: string) =>
      server.ctx.db.query('SELECT id FROM api_keys WHERE project_id = $1', [project]);
    const issuedKeys = await keysOf(pathOf(page.url()).split('/')[3]!);
    await page.reload();
    expect(await page.content()).not.toContain(key);
    expect(await page.textContent('main')).toContain('shown once');
    expect(await keysOf(pathOf(page.url()).split('/')[3]!)).toEqual(issuedKeys);
    await page.fill('#email', 'admin@novo.example');
    expect(await submit(page, 'button:has-text("Invite")')).toBe(200);
    expect((await page.textContent('#invite-url'))!).toContain('/invite/');
    const inviteLink = (await page.textContent('#invite-url'))!.trim();
    await page.reload();
    expect(await page.content()).not.toContain(inviteLink);
    expect(
      await server.ctx.db.query("SELECT 1 FROM web_users WHERE email = 'admin@novo.example'"),
    ).toHaveLength(1);
    await page.fill('#email', 'dev@novo.example');
    expect(await submit(page, 'button:has-text("Invite")')).toBe(200);
    const newProjectId = pathOf(page.url()).split('/')[3]!;
    await page.selectOption('select[aria-label="Role of dev@novo.example"]', 'viewer');
    expect(await submit(page, 'tr:has-text("dev@novo.example") button:has-text("Save")')).toBe(200);
    expect(await page.textContent('tr:has-text("dev@novo.example")')).toContain('viewer');
    page.once('dialog', (dialog) => void dialog.accept());
    expect(await submit(page, 'tr:has-text("dev@novo.example") button:has-text("Remove")')).toBe(200);
    expect(await page.textContent('main')).not.toContain('dev@novo.example');

    // partner fees, as the operator API sets them
    await page.fill('#off_ramp-bps', '75');
    await page.fill('#off_ramp-flat', '1.50');
    expect(await submit(page, 'button:has-text("Save off-ramp fee")')).toBe(200);
    expect(await page.textContent('[role=status]')).toContain('fee saved');
    const fees = (await operatorCall('GET', `/operator/projects/${newProjectId}/partner-fees`)).json().data;
    expect(fees).toContainEqual(
      expect.objectContaining({ transactionType: 'OFF_RAMP', bps: 75, flat: '1.50' }),
    );
    await page.fill('#off_ramp-flat', '1.999');
    expect(await submit(page, 'button:has-text("Save off-ramp fee")')).toBe(400);
    expect(await page.textContent('#off_ramp-flat-error')).toContain('amount in BRL with up to two decimals');
    expect(await page.inputValue('#off_ramp-flat')).toBe('1.999');
    expect(await page.inputValue('#off_ramp-bps')).toBe('75');
    await page.goto(`${origin}/console/projects`);
    await checkPage(page, 'console-projects');

    await page.goto(`${origin}/console/rates`);
    await page.fill('#rate', '0.1825');
    expect(await submit(page, 'button:has-text("Set rate")')).toBe(200);
    expect(await page.textContent('tbody')).toContain('0.1825');
    await checkPage(page, 'console-rates');

    const payer = await approvedCustomer(
      sandbox,
      individualBody({ name: 'Helena Costa', taxId: validCpf('6') }),
    );
    const onRamp = (
      await sandbox.post('/transactions/on-ramp', { customerId: payer.id, currency: 'BRL', amount: '99.00' })
    ).json();
    // by id, across every project
    await page.goto(`${origin}/console/transactions`);
    await page.fill('#id', onRamp.id);
    expect(await submit(page, 'form[role=search] button')).toBe(200);
    expect(await page.locator('tbody tr').count()).toBe(1);
    expect(await page.textContent('tbody')).toContain('Parceiro Console');
    await page.click(`a[href="/console/transactions/${onRamp.id}"]`);
    await page.waitForLoadState('load');
    const detail = await page.textContent('main');
    expect(detail).toContain('Parceiro Console');
    expect(detail).toContain('AWAITING FUNDS');
    expect(await page.textContent('#brcode')).toBe(onRamp.depositInstructions.brCode);
    await checkPage(page, 'console-transaction');
    const missing = await page.request.get(`${origin}/console/transactions/${payer.id}`);
    expect(missing.status()).toBe(404);
    // by project, customer and status
    await page.goto(`${origin}/console/transactions`);
    await page.selectOption('#projectId', projectId);
    await page.fill('#customerId', payer.id);
    await page.selectOption('#status', 'AWAITING_FUNDS');
    expect(await submit(page, 'form[role=search] button')).toBe(200);
    expect(await page.locator('tbody tr').count()).toBe(1);
    await checkPage(page, 'console-transactions');
    await page.goto(`${origin}/console/transactions?customerId=${payer.id}&status=SUCCESS`);
    expect(await page.locator('tbody tr').count()).toBe(0);
    expect((await page.request.get(`${origin}/console/transactions?id=nope`)).status()).toBe(400);
  });

  it("finds a customer's transactions by the customer's name, tax id or e-mail, as the dashboard does", async () => {
    const taxId = validCpf('7');
    const customer = await approvedCustomer(
      sandbox,
      individualBody({ name: 'Otília Brandão Quintela', taxId, email: 'otilia.quintela@example.com' }),
    );
    await approvedCustomer(
      sandbox,
      individualBody({
        name: 'Otília Brandão Ferraz',
        taxId: validCpf('8'),
        email: 'otilia.ferraz@example.com',
      }),
    );
    const onRamp = (
      await sandbox.post('/transactions/on-ramp', {
        customerId: customer.id,
        currency: 'BRL',
        amount: '77.00',
      })
    ).json();
    const search = async (text: string) => {
      await page.goto(`${origin}/console/transactions`);
      await page.fill('#customerId', text);
      return submit(page, 'form[role=search] button');
    };
    for (const text of ['Quintela', taxId, taxId.replace(/\D/g, ''), 'otilia.quintela@example.com']) {
      expect(await search(text), text).toBe(200);
      expect(await page.locator('tbody tr').count(), text).toBe(1);
      expect(await page.textContent('tbody'), text).toContain(onRamp.id);
      // the text typed stays in the field
      expect(await page.inputValue('#customerId')).toBe(text);
    }
    await checkPage(page, 'console-transactions-by-customer');
    // two customers match: the page says which, and asks for more
    expect(await search('Otília Brandão')).toBe(400);
    const ambiguous = await page.textContent('main');
    expect(ambiguous).toContain('Quintela');
    expect(ambiguous).toContain('Ferraz');
    expect(await search('Nobody Of That Name')).toBe(400);
    expect(await page.textContent('main')).toContain('No customer has');
  });

  it('records every console action in the audit log under the signed-in operator', async () => {
    await page.goto(`${origin}/console/audit`);
    await checkPage(page, 'console-audit');
    const rows = await server.ctx.db.query<{ action: string; actor: string }>(
      `SELECT action, actor FROM audit_log WHERE actor LIKE $1`,
      [`operator:${operatorId}:%`],
    );
    const actions = new Set(rows.map((row) => row.action));
    for (const action of [
      'limit_request.reviewed',
      'verification.reviewed',
      'project.created',
      'api_key.issued',
      'web_user.invited',
      'web_user.role_changed',
      'web_user.removed',
      'partner_fee.set',
      'rate.set',
    ]) {
      expect(actions, action).toContain(action);
    }
    expect(await page.textContent('tbody')).toContain('carla@ponte.example');
  });

  it('refuses a console form without its CSRF token', async () => {
    await page.goto(`${origin}/console/rates`);
    expect(await csrfOf(page)).not.toBe('');
    const refused = await page.request.post(`${origin}/console/rates`, {
      form: { pair: 'BRL/USDC', rate: '9' },
    });
    expect(refused.status()).toBe(403);
    expect(cspViolations).toEqual([]);
  });
});
