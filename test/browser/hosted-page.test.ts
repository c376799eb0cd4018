/**
 * The hosted verification page in a real browser (headless Chromium through playwright-core), against
 * the production listener bound to a real port: the end customer uploads files, reads the outcome, and
 * each state of the page is captured in test-results/.
 */
import { existsSync, mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { JPEG, PDF, PNG, TEXT } from '../compliance/files.ts';
import { linkPath, operatorClient } from '../compliance/support.ts';
import { createCustomer, individualBody } from '../helpers/factories.ts';
import { type Client, client, startTestServer, type TestServer } from '../helpers/server.ts';

const SHOTS = 'test-results';
/** The browser these tests drive: Debian's Chromium (`apt-get install chromium`). */
const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
const SKIPPED = `skipped: no Chromium at ${CHROMIUM} (install it with apt-get install chromium)`;
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
];

let server: TestServer;
let production: Client;
let operator: Client;
let origin: string;
let browser: Browser;
let page: Page;
let cspViolations: string[];

beforeAll(async () => {
  if (!hasChromium) return;
  mkdirSync(SHOTS, { recursive: true });
  server = await startTestServer();
  const tenant = await server.newTenant('Banco Exemplo');
  production = client(server.production, tenant.productionKey);
  operator = operatorClient(server);
  await server.production.listen({ host: '127.0.0.1', port: 0 });
  origin = `http://127.0.0.1:${(server.production.server.address() as AddressInfo).port}`;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

beforeEach(async () => {
  if (!hasChromium) return;
  const context = await browser.newContext({ viewport: { width: 800, height: 900 } });
  page = await context.newPage();
  cspViolations = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
  });
});

const open = async (link: string) => page.goto(`${origin}${linkPath(link)}`);
const shot = (name: string) => page.screenshot({ path: `${SHOTS}/hosted-page-${name}.png`, fullPage: true });
const shownStatus = async () => ({
  state: await page.getAttribute('main', 'data-status'),
  label: (await page.textContent('#status'))?.trim(),
});

async function upload(files: { document: Buffer; documentName: string; selfie: Buffer; type?: string }) {
  await page.selectOption('#documentType', files.type ?? 'PASSPORT');
  await page.setInputFiles('#document', {
    name: files.documentName,
    mimeType: 'application/octet-stream',
    buffer: files.document,
  });
  await page.setInputFiles('#selfie', { name: 'selfie.jpg', mimeType: 'image/jpeg', buffer: files.selfie });
  await Promise.all([page.waitForLoadState('load'), page.click('button[type=submit]')]);
}

async function customerUnderVerification() {
  const customer = await createCustomer(production, individualBody({ name: 'Ana Souza' }));
  await open(customer.verification.link);
  await upload({ document: PDF, documentName: 'passport.pdf', selfie: JPEG });
  return customer;
}

async function review(customer: { verification: { id: string } }, body: object) {
  const response = await operator.post(`/operator/verifications/${customer.verification.id}/review`, body);
  expect(response.statusCode).toBe(200);
}

const verificationStatus = async (customer: { id: string; verification: { id: string } }) =>
  (await production.get(`/customers/${customer.id}/verifications/${customer.verification.id}`)).json().status;

describe.runIf(hasChromium)('the hosted verification page in Chromium', () => {
  it('NOT_STARTED: shows the form, styled under its CSP; uploading moves the verification to UNDER_VERIFICATION', async () => {
    const customer = await createCustomer(production, individualBody({ name: 'Ana Souza' }));
    const response = await open(customer.verification.link);
    expect(response?.status()).toBe(200);
    expect(await shownStatus()).toEqual({ state: 'NOT_STARTED', label: 'Not started' });
    expect(await page.textContent('h1')).toBe('Verify your identity');
    // the inline stylesheet is allowed by its hash: the button is styled
    const background = await page.evaluate(
      "getComputedStyle(document.querySelector('button')).backgroundColor",
    );
    expect(background).toBe('rgb(11, 110, 79)');
    await shot('1-not-started');

    await upload({ document: PNG, documentName: 'rg-frente.png', selfie: JPEG, type: 'ID_CARD' });
    expect(page.url()).toBe(`${origin}${linkPath(customer.verification.link)}`);
    expect(await shownStatus()).toEqual({ state: 'UNDER_VERIFICATION', label: 'Under review' });
    expect(await page.textContent('h1')).toContain('reviewing your documents');
    expect(await page.$('form')).toBeNull();
    await shot('2-under-verification');
    expect(await verificationStatus(customer)).toBe('UNDER_VERIFICATION');
    expect(cspViolations).toEqual([]);
  });

  it('a file that is not a document: the form comes back with the problem, nothing changes', async () => {
    const customer = await createCustomer(production);
    await open(customer.verification.link);
    await upload({ document: TEXT, documentName: 'passport.jpg', selfie: JPEG });
    expect(await shownStatus()).toEqual({ state: 'NOT_STARTED', label: 'Not started' });
    expect(await page.textContent('#form-errors')).toContain(
      'Identity document: must be a PDF, JPEG or PNG file',
    );
    await shot('1b-not-started-refused-file');
    expect(await verificationStatus(customer)).toBe('NOT_STARTED');
  });

  it('TEMPORARY_REJECTION: explains what was wrong and takes a resubmission', async () => {
    const customer = await customerUnderVerification();
    await review(customer, {
      status: 'TEMPORARY_REJECTION',
      statusReason: {
        rejectLabels: ['screenshot', 'unsatisfactory_photos'],
        rejectSubLabels: ['badPhoto'],
        documents: [
          {
            type: 'PASSPORT',
            status: 'TEMPORARY_REJECTION',
            comment: 'The photo of the passport is a screenshot; upload a photo of the document itself.',
            rejectLabels: ['screenshot'],
          },
        ],
      },
    });
    await open(customer.verification.link);
    expect(await shownStatus()).toEqual({ state: 'TEMPORARY_REJECTION', label: 'Action needed' });
    const reasons = await page.$$eval('#reasons li', (items) =>
      items.map((item) => item.textContent?.trim()),
    );
    expect(reasons).toEqual([
      'A screenshot was uploaded. We need a photo or scan of the document itself.',
      'The photos were not clear enough for us to read.',
      'A photo is blurred, too dark or cut off at the edges.',
      'Passport: The photo of the passport is a screenshot; upload a photo of the document itself.',
    ]);
    await shot('3-temporary-rejection');

    await upload({ document: JPEG, documentName: 'passport-photo.jpg', selfie: JPEG });
    expect(await shownStatus()).toEqual({ state: 'UNDER_VERIFICATION', label: 'Under review' });
    expect(await verificationStatus(customer)).toBe('UNDER_VERIFICATION');
  });

  it('APPROVED: says the customer is verified and offers no form', async () => {
    const customer = await customerUnderVerification();
    await review(customer, { status: 'APPROVED' });
    await open(customer.verification.link);
    expect(await shownStatus()).toEqual({ state: 'APPROVED', label: 'Verified' });
    expect(await page.textContent('h1')).toBe('You are verified');
    expect(await page.$('form')).toBeNull();
    await shot('4-approved');
  });

  it('FINAL_REJECTION: says so, offers no form, and reveals no internal labels', async () => {
    const customer = await customerUnderVerification();
    await review(customer, {
      status: 'FINAL_REJECTION',
      statusReason: { rejectLabels: ['fraudulent_patterns'] },
    });
    await open(customer.verification.link);
    expect(await shownStatus()).toEqual({ state: 'FINAL_REJECTION', label: 'Not verified' });
    expect(await page.textContent('h1')).toBe('We could not verify your identity');
    expect(await page.$('form')).toBeNull();
    expect(await page.content()).not.toContain('fraudulent');
    await shot('5-final-rejection');
  });

  it('an invalid link: a 404 page', async () => {
    const response = await page.goto(`${origin}/verify/AAAAAAAAAAAAAAAAAAAAAAAAAAA.BBBBBBBBBBBBBBBBBBBBBBBB`);
    expect(response?.status()).toBe(404);
    expect(await page.getAttribute('main', 'data-status')).toBe('INVALID_LINK');
    expect(await page.textContent('h1')).toBe('This link is not valid');
    await shot('6-invalid-link');
  });
});

// Said once in the output, beside the skipped tests, so a missing browser is never mistaken for a pass.
if (!hasChromium) console.warn(`the hosted verification page in Chromium: ${SKIPPED}`);
