import { randomUUID } from 'node:crypto';
/**
 * The name a project's customers see on the hosted pages, in Chromium: an admin sets it in the dashboard's
 * Settings; the terms and verification pages then say "<name> works with Ponte"; unset, they use neutral
 * wording, never the project's internal name (the first run's is "Default"); only admins change it.
 */
import type { FastifyInstance } from 'fastify';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDashboardApp } from '../../src/app.ts';
import { linkPath } from '../compliance/support.ts';
import { createCustomer } from '../helpers/factories.ts';
import { type Client, client, startTestServer, type TestServer } from '../helpers/server.ts';
import { checkPage, csrfOf, hasChromium, launch, listen, newPage, pathOf, submit } from './web-support.ts';

const PASSWORD = 'a long and good password';

let server: TestServer;
let dashboard: FastifyInstance;
let origins: { dashboard: string; production: string };
let browser: Browser;
let people = 0;

async function signedIn(projectId: string, role: 'admin' | 'viewer'): Promise<Page> {
  people += 1;
  const invited = await server.operator.inject({
    method: 'POST',
    url: `/operator/projects/${projectId}/users`,
    payload: { email: `person${people}-${randomUUID().slice(0, 8)}@banco.example`, role },
    headers: { authorization: `Bearer ${server.operatorToken}` },
  });
  expect(invited.statusCode).toBe(201);
  const { page } = await newPage(browser);
  await page.goto(`${origins.dashboard}${pathOf(invited.json().inviteUrl)}`);
  await page.fill('#password', PASSWORD);
  expect(await submit(page, 'button[type=submit]')).toBe(200);
  return page;
}

/** The text of the terms page and of the verification page a new customer of `api` opens. */
async function hostedPagesOf(api: Client): Promise<string[]> {
  const customer = await createCustomer(api);
  const terms = (await api.post(`/customers/${customer.id}/tos`, {})).json().url;
  const { page } = await newPage(browser);
  const texts: string[] = [];
  for (const link of [terms, customer.verification.link]) {
    await page.goto(`${origins.production}${linkPath(link)}`);
    texts.push(((await page.textContent('main')) ?? '').replace(/\s+/g, ' '));
  }
  await page.close();
  return texts;
}

describe.runIf(hasChromium)('the name customers see on the hosted pages', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    server = await startTestServer();
    dashboard = await buildDashboardApp(server.ctx);
    origins = { dashboard: await listen(dashboard), production: await listen(server.production) };
    browser = await launch();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await dashboard?.close();
    await server?.close();
  });

  it("an admin sets it in the dashboard's Settings; the terms and verification pages then name it", async () => {
    const tenant = await server.newTenant('Projeto Interno 7');
    const production = client(server.production, tenant.productionKey);
    const admin = await signedIn(tenant.projectId, 'admin');
    await admin.click('nav >> text=Display name');
    expect(pathOf(admin.url())).toBe('/sandbox/settings');
    await admin.fill('#displayName', '  Banco   Exemplo ');
    expect(await submit(admin, 'form[action="/sandbox/settings"] button[type=submit]')).toBe(200);
    expect(await admin.textContent('[role=status]')).toContain('The name was saved.');
    expect(await admin.inputValue('#displayName')).toBe('Banco Exemplo');
    await checkPage(admin, 'dashboard-settings');

    const [terms, verification] = await hostedPagesOf(production);
    expect(terms).toContain('Banco Exemplo works with Ponte');
    expect(verification).toContain('Banco Exemplo needs to confirm who you are');
    for (const text of [terms, verification]) expect(text).not.toContain('Projeto Interno 7');

    // an over-long name is refused in the page, the form kept as typed
    await admin.evaluate("document.querySelector('#displayName').removeAttribute('maxlength')");
    await admin.fill('#displayName', 'x'.repeat(81));
    expect(await submit(admin, 'form[action="/sandbox/settings"] button[type=submit]')).toBe(400);
    expect(await admin.textContent('[role=alert]')).toContain('at most 80 characters');
    expect(await admin.inputValue('#displayName')).toBe('x'.repeat(81));
  });

  it("unset, the hosted pages use neutral wording, never the project's internal name", async () => {
    const tenant = await server.newTenant('Default');
    const [terms, verification] = await hostedPagesOf(client(server.production, tenant.productionKey));
    expect(terms).toContain('The service that sent you here works with Ponte');
    expect(verification).toContain('The service that sent you here needs to confirm who you are');
    for (const text of [terms, verification]) expect(text).not.toContain('Default');
  });

  it('a viewer reads it but cannot change it: the server refuses the form', async () => {
    const tenant = await server.newTenant('Projeto Interno 8');
    const viewer = await signedIn(tenant.projectId, 'viewer');
    await viewer.goto(`${origins.dashboard}/sandbox/settings`);
    expect(await viewer.isVisible('#displayName')).toBe(false);
    const refused = await viewer.request.post(`${origins.dashboard}/sandbox/settings`, {
      form: { _csrf: await csrfOf(viewer), displayName: 'Sneaky' },
    });
    expect(refused.status()).toBe(403);
    const [row] = await server.ctx.db.query<{ display_name: string | null }>(
      'SELECT display_name FROM projects WHERE id = $1',
      [tenant.projectId],
    );
    expect(row!.display_name).toBeNull();
  });
});
