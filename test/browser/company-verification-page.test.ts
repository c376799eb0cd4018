/**
 * The hosted verification page of a BUSINESS customer in Chromium, on the production listener: it asks
 * for the company's documents (articles of incorporation or shareholder
 * registry, with a proof of address and a financial statement), never a person's identity document and
 * selfie, and sends each beneficial owner and representative to their own link.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JPEG, PDF, PNG } from '../compliance/files.ts';
import { linkPath } from '../compliance/support.ts';
import { businessBody, createCustomer, validCpf } from '../helpers/factories.ts';
import { type Client, client, startTestServer, type TestServer } from '../helpers/server.ts';
import { addParty, customerOf, personParty, representative } from '../verifications/support.ts';
import { checkPage, hasChromium, launch, listen, newPage } from './web-support.ts';

let server: TestServer;
let production: Client;
let origin: string;
let browser: Browser;

async function openLink(link: string): Promise<Page> {
  const { page } = await newPage(browser);
  const response = await page.goto(`${origin}${linkPath(link)}`);
  expect(response?.status()).toBe(200);
  return page;
}

async function click(page: Page) {
  const [response] = await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);
  return response?.status();
}

const documentsOf = async (verificationId: string) =>
  (
    await server.ctx.db.query<{ type: string }>(
      'SELECT type FROM documents WHERE verification_id = $1 ORDER BY type',
      [verificationId],
    )
  ).map((row) => row.type);

describe.runIf(hasChromium)(
  'the hosted verification page of a business, in Chromium',
  { timeout: 60_000 },
  () => {
    beforeAll(async () => {
      server = await startTestServer();
      const tenant = await server.newTenant('Banco Exemplo');
      production = client(server.production, tenant.productionKey);
      origin = await listen(server.production);
      browser = await launch();
    }, 120_000);
    afterAll(async () => {
      await browser?.close();
      await server?.close();
    });

    it("asks a business for the company's documents, not an identity document and a selfie; uploading them puts it under review", async () => {
      const company = await createCustomer(production, businessBody({ name: 'Exemplo Comércio Ltda' }));
      const page = await openLink(company.verification.link);
      expect(await page.textContent('h1')).toBe('Verify your company');
      expect(await page.$('#selfie')).toBeNull();
      expect(await page.$('#document')).toBeNull();
      const offered = await page.$$eval('#companyDocumentType option', (options) =>
        options.map((option) => option.getAttribute('value')),
      );
      expect(offered).toEqual(['ARTICLES_OF_INCORPORATION', 'SHAREHOLDER_REGISTRY']);
      expect(await page.textContent('#parties')).toContain('No beneficial owner or legal representative');
      await checkPage(page, 'hosted-page-company-not-started');

      await page.selectOption('#companyDocumentType', 'ARTICLES_OF_INCORPORATION');
      await page.setInputFiles('#companyDocument', {
        name: 'contrato-social.pdf',
        mimeType: 'application/pdf',
        buffer: PDF,
      });
      await page.setInputFiles('#proofOfAddress', {
        name: 'conta-de-luz.png',
        mimeType: 'image/png',
        buffer: PNG,
      });
      expect(await click(page)).toBe(200);
      expect(await page.getAttribute('main', 'data-status')).toBe('UNDER_VERIFICATION');
      expect(await page.textContent('h1')).toBe('Thank you, we are reviewing your company');
      await checkPage(page, 'hosted-page-company-under-verification');
      expect(await documentsOf(company.verification.id)).toEqual([
        'ARTICLES_OF_INCORPORATION',
        'PROOF_OF_ADDRESS',
      ]);
      const after = await customerOf(production, company.id);
      expect(after.requirements).toContainEqual({ name: 'COMPANY_DOCUMENT', status: 'SENT' });
      expect(after.tosAcceptedAt).not.toBeNull();
    });

    it('a business page sent without its company document comes back naming it; nothing is stored', async () => {
      const company = await createCustomer(production, businessBody());
      const page = await openLink(company.verification.link);
      await page.evaluate("document.querySelector('#companyDocument').removeAttribute('required')");
      expect(await click(page)).toBe(400);
      expect(await page.textContent('#form-errors')).toContain('Company document: is required');
      expect(await documentsOf(company.verification.id)).toEqual([]);
    });

    it('sends each beneficial owner and representative to their own link, where the person uploads a document and a selfie', async () => {
      const company = await createCustomer(production, businessBody());
      const ubo = await addParty(production, company.id, personParty({ name: 'Maria Silva' }));
      const rep = await addParty(
        production,
        company.id,
        representative({ name: 'Rui Costa', taxId: validCpf('6') }),
      );
      const page = await openLink(company.verification.link);
      const listed = await page.$$eval('#parties li', (items) =>
        items.map((item) => ({
          text: item.textContent?.replace(/\s+/g, ' ').trim(),
          link: item.querySelector('a')?.getAttribute('href'),
        })),
      );
      expect(listed).toEqual([
        {
          text: expect.stringContaining('Maria Silva (beneficial owner): Not started'),
          link: ubo.verification!.link,
        },
        {
          text: expect.stringContaining('Rui Costa (legal representative): Not started'),
          link: rep.verification!.link,
        },
      ]);
      await checkPage(page, 'hosted-page-company-parties');

      // the owner's own link: a person's page, with the identity document and the selfie
      const own = await openLink(listed[0]!.link!);
      expect(await own.textContent('h1')).toBe('Verify your identity');
      await own.selectOption('#documentType', 'PASSPORT');
      await own.setInputFiles('#document', {
        name: 'passport.pdf',
        mimeType: 'application/pdf',
        buffer: PDF,
      });
      await own.setInputFiles('#selfie', { name: 'selfie.jpg', mimeType: 'image/jpeg', buffer: JPEG });
      expect(await click(own)).toBe(200);
      expect(await own.getAttribute('main', 'data-status')).toBe('UNDER_VERIFICATION');
      expect(await documentsOf(ubo.verification!.id)).toEqual(['PASSPORT', 'SELFIE']);

      // back on the company's page: the owner is under review, and no longer offered a link
      await page.reload();
      expect(await page.getAttribute('#parties li:first-child', 'data-party-status')).toBe(
        'UNDER_VERIFICATION',
      );
      expect(await page.$('#parties li:first-child a')).toBeNull();
    });
  },
);
