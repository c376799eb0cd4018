/**
 * What a person meets when a page's form goes wrong, clicked in Chromium: the hosted verification page on
 * the production listener, and the invitation (set a password) pages of the dashboard and the console.
 * An expired link, a used link, a double click, a missing file: each answers a page (HTML) that says what
 * happened, never problem+json, and changes nothing it should not.
 */
import type { FastifyInstance } from 'fastify';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDashboardApp } from '../../src/app.ts';
import { JPEG, PDF } from '../compliance/files.ts';
import { linkPath, manualClock } from '../compliance/support.ts';
import { createCustomer, individualBody } from '../helpers/factories.ts';
import { type Client, client, startTestServer, type TestServer } from '../helpers/server.ts';
import { checkPage, hasChromium, launch, listen, newPage, pathOf } from './web-support.ts';

const HTML = 'text/html; charset=utf-8';
const PASSWORD = 'a long and good password';
const DAY = 24 * 3600_000;

const clock = manualClock(Date.now());
let server: TestServer;
let production: Client;
let projectId: string;
let dashboard: FastifyInstance;
let origins: { production: string; dashboard: string; console: string };
let browser: Browser;

async function openPage(url: string): Promise<Page> {
  const { page } = await newPage(browser);
  const response = await page.goto(url);
  expect(response?.status()).toBe(200);
  return page;
}

/** Clicks a form's button as a person does; the answer the browser landed on. */
async function click(page: Page, selector = 'button[type=submit]') {
  const [response] = await Promise.all([page.waitForNavigation(), page.click(selector)]);
  const main = await page.$('main');
  return {
    status: response?.status(),
    contentType: response?.headers()['content-type'],
    state: main ? await main.getAttribute('data-status') : null,
  };
}

/** Records the content type of every answer to a POST the page sends. */
function postAnswers(page: Page): (string | undefined)[] {
  const types: (string | undefined)[] = [];
  page.on('response', (response) => {
    if (response.request().method() === 'POST') types.push(response.headers()['content-type']);
  });
  return types;
}

async function fillUpload(page: Page, files: { selfie?: boolean } = {}) {
  await page.selectOption('#documentType', 'PASSPORT');
  await page.setInputFiles('#document', { name: 'passport.pdf', mimeType: 'application/pdf', buffer: PDF });
  if (files.selfie !== false) {
    await page.setInputFiles('#selfie', { name: 'selfie.jpg', mimeType: 'image/jpeg', buffer: JPEG });
  }
}

const verificationStatus = async (customer: { id: string; verification: { id: string } }) =>
  (await production.get(`/customers/${customer.id}/verifications/${customer.verification.id}`)).json().status;

const storedDocuments = async (verificationId: string) =>
  (
    await server.ctx.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM documents WHERE verification_id = $1',
      [verificationId],
    )
  )[0]!.n;

const operatorPost = (url: string, payload: object) =>
  server.operator.inject({
    method: 'POST',
    url,
    payload,
    headers: { authorization: `Bearer ${server.operatorToken}` },
  });

let invited = 0;
async function dashboardInvite(): Promise<string> {
  invited += 1;
  const response = await operatorPost(`/operator/projects/${projectId}/users`, {
    email: `person${invited}@banco.example`,
    role: 'viewer',
  });
  expect(response.statusCode).toBe(201);
  return `${origins.dashboard}${pathOf(response.json().inviteUrl)}`;
}

async function consoleInvite(): Promise<string> {
  invited += 1;
  const operator = (await operatorPost('/operator/operators', { name: `Operator ${invited}` })).json();
  const response = await operatorPost(`/operator/operators/${operator.id}/console-invite`, {
    email: `operator${invited}@ponte.example`,
  });
  expect(response.statusCode).toBe(201);
  return `${origins.console}${pathOf(response.json().inviteUrl)}`;
}

/** The dead-link page of an invitation, with the way back to signing in. */
async function expectDeadInvite(page: Page, landed: Awaited<ReturnType<typeof click>>, signIn: string) {
  expect(landed.status).toBe(404);
  expect(landed.contentType).toBe(HTML);
  expect(await page.textContent('h1')).toBe('This link does not work');
  expect(await page.getAttribute('a:has-text("sign in")', 'href')).toBe(signIn);
}

describe.runIf(hasChromium)('errors a person can cause on a page, in Chromium', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    server = await startTestServer({ clock });
    const tenant = await server.newTenant('Banco Exemplo');
    projectId = tenant.projectId;
    production = client(server.production, tenant.productionKey);
    dashboard = await buildDashboardApp(server.ctx);
    origins = {
      production: await listen(server.production),
      dashboard: await listen(dashboard),
      console: await listen(server.operator),
    };
    browser = await launch();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await dashboard?.close();
    await server?.close();
  });

  describe('the hosted verification page', () => {
    it('a verification link submitted after it expired answers the invalid-link page; nothing is stored', async () => {
      const customer = await createCustomer(production, individualBody({ name: 'Ana Souza' }));
      const page = await openPage(`${origins.production}${linkPath(customer.verification.link)}`);
      await fillUpload(page);
      clock.advance(8 * DAY);
      const landed = await click(page);
      expect(landed).toEqual({ status: 404, contentType: HTML, state: 'INVALID_LINK' });
      expect(await verificationStatus(customer)).toBe('NOT_STARTED');
      expect(await storedDocuments(customer.verification.id)).toBe(0);
    });

    it('a verification form submitted again from a stale tab shows the review under way; nothing more is stored', async () => {
      const customer = await createCustomer(production);
      const url = `${origins.production}${linkPath(customer.verification.link)}`;
      const first = await openPage(url);
      const stale = await openPage(url);
      await fillUpload(first);
      expect((await click(first)).state).toBe('UNDER_VERIFICATION');
      await fillUpload(stale);
      const landed = await click(stale);
      expect(landed).toEqual({ status: 409, contentType: HTML, state: 'UNDER_VERIFICATION' });
      expect(await stale.$('#form-errors')).toBeNull();
      await checkPage(stale, 'hosted-page-used-link');
      expect(await storedDocuments(customer.verification.id)).toBe(2);
    });

    it('a double click on "Submit for review" stores the documents once and shows the review under way', async () => {
      const customer = await createCustomer(production);
      const page = await openPage(`${origins.production}${linkPath(customer.verification.link)}`);
      const answers = postAnswers(page);
      await fillUpload(page);
      await page.dblclick('button[type=submit]');
      await page.waitForSelector('main[data-status=UNDER_VERIFICATION]');
      await page.waitForLoadState('load');
      // every answer the browser got is a page (or the redirect to one), and the one it shows has
      // nothing to correct
      expect(answers.length).toBeGreaterThan(0);
      for (const type of answers) expect(type ?? HTML).toBe(HTML);
      expect(await page.$('#form-errors')).toBeNull();
      expect(await verificationStatus(customer)).toBe('UNDER_VERIFICATION');
      expect(await storedDocuments(customer.verification.id)).toBe(2);
    });

    it('a verification form sent without the selfie comes back naming the missing file; nothing changes', async () => {
      const customer = await createCustomer(production);
      const page = await openPage(`${origins.production}${linkPath(customer.verification.link)}`);
      await fillUpload(page, { selfie: false });
      // a browser that does not enforce `required` (or a person's tools) sends the form as it is
      await page.evaluate("document.querySelector('#selfie').removeAttribute('required')");
      const landed = await click(page);
      expect(landed).toEqual({ status: 400, contentType: HTML, state: 'NOT_STARTED' });
      expect(await page.textContent('#form-errors')).toContain('Selfie: is required');
      await checkPage(page, 'hosted-page-missing-file');
      expect(await verificationStatus(customer)).toBe('NOT_STARTED');
      expect(await storedDocuments(customer.verification.id)).toBe(0);
    });
  });

  describe('accepting an invitation (setting a password)', () => {
    it('a dashboard invitation submitted after it expired answers a page that offers signing in', async () => {
      const page = await openPage(await dashboardInvite());
      await page.fill('#password', PASSWORD);
      clock.advance(8 * DAY);
      await expectDeadInvite(page, await click(page), '/sign-in');
    });

    it('a dashboard invitation used in another tab answers a page that offers signing in with the password set', async () => {
      const link = await dashboardInvite();
      const first = await openPage(link);
      const stale = await openPage(link);
      await first.fill('#password', PASSWORD);
      expect((await click(first)).status).toBe(200);
      expect(pathOf(first.url())).toBe('/sandbox');
      await stale.fill('#password', 'another long password');
      await expectDeadInvite(stale, await click(stale), '/sign-in');
      await checkPage(stale, 'dashboard-invite-used');
    });

    it('a console invitation used in another tab answers a page that offers signing in with the password set', async () => {
      const link = await consoleInvite();
      const first = await openPage(link);
      const stale = await openPage(link);
      await first.fill('#password', PASSWORD);
      expect((await click(first)).status).toBe(200);
      await stale.fill('#password', 'another long password');
      await expectDeadInvite(stale, await click(stale), '/console/sign-in');
    });

    it('a double click on "Set password and sign in" ends on a page, and the password set signs the person in', async () => {
      invited += 1;
      const email = `person${invited}@banco.example`;
      const response = await operatorPost(`/operator/projects/${projectId}/users`, { email, role: 'viewer' });
      const page = await openPage(`${origins.dashboard}${pathOf(response.json().inviteUrl)}`);
      const answers = postAnswers(page);
      await page.fill('#password', PASSWORD);
      await page.dblclick('button[type=submit]');
      await page.waitForLoadState('load');
      await page.waitForSelector('h1');
      // a redirect carries no body; anything else is a page
      for (const type of answers) expect(type ?? HTML).toBe(HTML);
      // whichever answer the browser kept, the password works
      await page.goto(`${origins.dashboard}/sign-in`);
      if (pathOf(page.url()) === '/sign-in') {
        await page.fill('#email', email);
        await page.fill('#password', PASSWORD);
        await click(page);
      }
      expect(pathOf(page.url())).toBe('/sandbox');
    });
  });
});
