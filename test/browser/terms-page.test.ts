/**
 * The hosted terms-of-service page in Chromium, on the public listeners a customer uses (production and
 * sandbox, bound to real ports): the customer clicks the button and the terms are accepted; every error a
 * person can cause (an expired link, a used link, a double click) answers a page, never JSON.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkPath, manualClock } from '../compliance/support.ts';
import { createCustomer, individualBody, validCpf } from '../helpers/factories.ts';
import { type Client, client, startTestServer, type TestServer } from '../helpers/server.ts';
import { customerOf } from '../verifications/support.ts';
import { checkPage, hasChromium, launch, listen, newPage } from './web-support.ts';

const clock = manualClock(Date.now());
let server: TestServer;
let production: Client;
let sandbox: Client;
let origins: { production: string; sandbox: string };
let browser: Browser;
let productionKey: string;

const termsLink = async (api: Client, customerId: string): Promise<string> => {
  const response = await api.post(`/customers/${customerId}/tos`, {});
  expect(response.statusCode).toBe(201);
  return response.json().url;
};

/** Opens a terms link on a listener in a new page. */
async function openTerms(link: string, origin = origins.production): Promise<Page> {
  const { page } = await newPage(browser);
  const response = await page.goto(`${origin}${linkPath(link)}`);
  expect(response?.status()).toBe(200);
  return page;
}

/** Clicks the accept button as a person does and answers the page the browser lands on. */
async function clickAccept(page: Page) {
  const [response] = await Promise.all([
    page.waitForNavigation(),
    page.click('button:has-text("I accept the terms of service")'),
  ]);
  // read without waiting: a JSON answer has neither
  const main = await page.$('main');
  const heading = await page.$('h1');
  return {
    status: response?.status(),
    contentType: response?.headers()['content-type'],
    state: main ? await main.getAttribute('data-status') : null,
    heading: heading ? (await heading.textContent())?.trim() : null,
  };
}

describe.runIf(hasChromium)('the hosted terms page in Chromium', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    server = await startTestServer({ clock });
    const tenant = await server.newTenant('Banco Exemplo');
    productionKey = tenant.productionKey;
    production = client(server.production, productionKey);
    sandbox = client(server.sandbox, tenant.sandboxKey);
    origins = { production: await listen(server.production), sandbox: await listen(server.sandbox) };
    browser = await launch();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('a customer clicking "I accept" on the production listener accepts the terms: tosAcceptedAt is set', async () => {
    const customer = await createCustomer(production, individualBody({ name: 'Ana Souza' }));
    const page = await openTerms(await termsLink(production, customer.id));
    await checkPage(page, 'terms-1-open');
    const at = clock.advance();
    const landed = await clickAccept(page);
    expect(landed).toEqual({
      status: 200,
      contentType: 'text/html; charset=utf-8',
      state: 'ACCEPTED',
      heading: 'Thank you, the terms are accepted',
    });
    await checkPage(page, 'terms-2-accepted');
    const after = await customerOf(production, customer.id);
    expect(after.tosAcceptedAt).toBe(at);
    expect(after.requirements[0]).toEqual({ name: 'TERMS_OF_SERVICE', status: 'APPROVED' });
  });

  it('a customer clicking "I accept" on the sandbox listener accepts the terms: tosAcceptedAt is set', async () => {
    // a taxId ending in 1: the sandbox simulation leaves the customer alone, terms not accepted
    const customer = await createCustomer(sandbox, individualBody({ taxId: validCpf('1') }));
    expect((await customerOf(sandbox, customer.id)).tosAcceptedAt).toBeNull();
    const page = await openTerms(await termsLink(sandbox, customer.id), origins.sandbox);
    expect(await page.textContent('.sandbox')).toContain('Sandbox');
    const landed = await clickAccept(page);
    expect(landed.state).toBe('ACCEPTED');
    expect((await customerOf(sandbox, customer.id)).tosAcceptedAt).not.toBeNull();
  });

  it('a terms link clicked after it expired answers a page saying so; the terms stay not accepted', async () => {
    const customer = await createCustomer(production);
    const page = await openTerms(await termsLink(production, customer.id));
    clock.advance(24 * 3600_000);
    const landed = await clickAccept(page);
    expect(landed).toEqual({
      status: 410,
      contentType: 'text/html; charset=utf-8',
      state: 'EXPIRED',
      heading: 'This link has expired',
    });
    await checkPage(page, 'terms-3-expired');
    expect((await customerOf(production, customer.id)).tosAcceptedAt).toBeNull();
  });

  it('a used terms link clicked again from another tab answers a page saying the terms are already accepted', async () => {
    const customer = await createCustomer(production);
    const link = await termsLink(production, customer.id);
    const first = await openTerms(link);
    const second = await openTerms(link);
    const at = clock.advance();
    expect((await clickAccept(first)).state).toBe('ACCEPTED');
    clock.advance();
    const landed = await clickAccept(second);
    expect(landed).toEqual({
      status: 410,
      contentType: 'text/html; charset=utf-8',
      state: 'USED',
      heading: 'The terms are already accepted',
    });
    expect(await second.textContent('main')).toContain('nothing more to do');
    await checkPage(second, 'terms-4-used');
    expect((await customerOf(production, customer.id)).tosAcceptedAt).toBe(at);
  });

  it('a double click on "I accept" accepts the terms once and lands on a page, never JSON', async () => {
    const customer = await createCustomer(production);
    const page = await openTerms(await termsLink(production, customer.id));
    const at = clock.advance();
    const answers: { status: number; contentType: string | undefined }[] = [];
    page.on('response', (response) => {
      if (response.request().method() === 'POST') {
        answers.push({ status: response.status(), contentType: response.headers()['content-type'] });
      }
    });
    await page.dblclick('button:has-text("I accept the terms of service")');
    await page.waitForSelector('main[data-status=ACCEPTED], main[data-status=USED]');
    await page.waitForLoadState('load');
    expect(await page.textContent('h1')).toMatch(/the terms are (already )?accepted/i);
    for (const answer of answers) expect(answer.contentType).toBe('text/html; charset=utf-8');
    expect((await customerOf(production, customer.id)).tosAcceptedAt).toBe(at);
  });

  it('the JSON API beside the page still refuses a form body with 415 problem+json', async () => {
    const customer = await createCustomer(production);
    for (const url of ['/customers', `/customers/${customer.id}/tos`]) {
      const response = await server.production.inject({
        method: 'POST',
        url,
        headers: {
          authorization: `Bearer ${productionKey}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        payload: 'name=Ana&taxId=1',
      });
      expect(response.statusCode).toBe(415);
      expect(response.headers['content-type']).toContain('application/problem+json');
    }
  });
});
