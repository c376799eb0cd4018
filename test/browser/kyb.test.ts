/**
 * Business customers in a real browser: the operator console's review of a business shows its ownership
 * tree with each party's state and documents, and the partner dashboard's customer page shows the
 * parties, the requirements and the documents. Both pages are checked with axe-core.
 */
import type { FastifyInstance } from 'fastify';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDashboardApp } from '../../src/app.ts';
import { startTestApi, type TestApi } from '../helpers/server.ts';
import {
  addParty,
  businessUnderReview,
  companyParty,
  type Party,
  personParty,
  representative,
  review,
  submitPerson,
} from '../verifications/support.ts';
import { checkPage, hasChromium, launch, listen, newPage, pathOf, submit } from './web-support.ts';

const PASSWORD = 'a long and good password';

let api: TestApi;
let browser: Browser;
let page: Page;
let cspViolations: string[];
let dashboard: FastifyInstance;
let consoleOrigin: string;
let dashboardOrigin: string;
let business: { id: string; verification: { id: string } };
let parties: Record<string, Party>;

describe.skipIf(!hasChromium)(
  'business customers in the console and the dashboard',
  { timeout: 60_000 },
  () => {
    beforeAll(async () => {
      api = await startTestApi({ tenantName: 'Banco KYB' });
      const { server, production, operator } = api;
      business = await businessUnderReview(server.production, api.tenant.productionKey, production);
      const holding = await addParty(production, business.id, companyParty({ ownershipPercentage: 80 }));
      parties = {
        holding,
        owner: await addParty(
          production,
          business.id,
          personParty({
            name: 'Helena Dias',
            role: 'SHAREHOLDER',
            parentId: holding.id,
            ownershipPercentage: 50,
          }),
        ),
        rep: await addParty(production, business.id, representative({ name: 'Rui Costa' })),
      };
      const submitted = await submitPerson(
        server.production,
        api.tenant.productionKey,
        production,
        business.id,
        parties.rep!.verification!.id,
        parties.rep!.id,
      );
      expect(submitted.statusCode).toBe(200);
      expect((await review(operator, parties.rep!.verification!.id, { status: 'APPROVED' })).statusCode).toBe(
        200,
      );
      expect((await review(operator, business.verification.id, { status: 'APPROVED' })).statusCode).toBe(200);

      consoleOrigin = await listen(server.operator);
      dashboard = await buildDashboardApp(server.ctx);
      dashboardOrigin = await listen(dashboard);
      browser = await launch();
      ({ page, cspViolations } = await newPage(browser));
    }, 180_000);
    afterAll(async () => {
      await browser?.close();
      await dashboard?.close();
      await api?.server.close();
    });

    it("the console's review of a business shows what it waits for and its ownership tree, each party's state and documents", async () => {
      const operatorId = (await api.operator.post('/operator/operators', { name: 'Carla' })).json().id;
      const invited = await api.operator.post(`/operator/operators/${operatorId}/console-invite`, {
        email: 'kyb-reviewer@ponte.example',
      });
      await page.goto(`${consoleOrigin}${pathOf(invited.json().inviteUrl)}`);
      await page.fill('#password', PASSWORD);
      expect(await submit(page, 'button[type=submit]')).toBe(200);

      await page.goto(`${consoleOrigin}/console/reviews/verifications`);
      expect(await page.textContent('main')).toContain('waiting for 1 item');
      await page.goto(`${consoleOrigin}/console/reviews/verifications/${business.verification.id}`);
      expect(await page.textContent('#missing')).toContain(
        `UBO Helena Dias (${parties.owner!.id}) is NOT_STARTED`,
      );
      const rows = await page.$$eval('tr[data-party]', (trs) =>
        trs.map((tr) =>
          Array.from(tr.querySelectorAll('td')).map(
            (td) => (td as { textContent: string | null }).textContent?.trim() ?? '',
          ),
        ),
      );
      expect(rows.map((cells) => cells.slice(0, 6))).toEqual([
        ['Holding Exemplo SA', 'SHAREHOLDER', 'BUSINESS', '80.00%', '80.00%', 'company: documents only'],
        ['— Helena Dias UBO', 'SHAREHOLDER', 'INDIVIDUAL', '50.00%', '40.00%', 'NOT STARTED'],
        ['Rui Costa', 'REPRESENTATIVE', 'INDIVIDUAL', '—', '—', 'APPROVED'],
      ]);
      expect(rows[2]![6]).toContain('ID CARD (FRONT)');
      expect(rows[2]![6]).toContain('SELFIE');
      await checkPage(page, 'console-kyb-review');
      // a party's state links to its own review
      await page.click(`tr[data-party="${parties.rep!.id}"] a[href*="/console/reviews/verifications/"]`);
      expect(await page.textContent('#associated-party')).toContain('REPRESENTATIVE of');
      expect(cspViolations).toEqual([]);
    });

    it("the dashboard's customer page shows the parties, the requirements and the documents", async () => {
      const invite = await api.operator.post(`/operator/projects/${api.tenant.projectId}/users`, {
        email: 'kyb-partner@banco.example',
        role: 'admin',
      });
      await page.goto(`${dashboardOrigin}${pathOf(invite.json().inviteUrl)}`);
      await page.fill('#password', PASSWORD);
      expect(await submit(page, 'button[type=submit]')).toBe(200);
      await page.goto(`${dashboardOrigin}/production/customers/${business.id}`);
      expect(await page.textContent('main')).toContain('Terms of service accepted');
      const rowsOf = (section: string) =>
        page.$$eval(`section[aria-labelledby=${section}] tbody tr`, (trs) =>
          trs.map((tr) =>
            Array.from(tr.querySelectorAll('td')).map(
              (td) => (td as { textContent: string | null }).textContent?.trim() ?? '',
            ),
          ),
        );
      expect(await rowsOf('requirements')).toEqual([
        ['terms of service', 'Loja Exemplo Ltda', 'APPROVED'],
        ['company document', 'Loja Exemplo Ltda', 'APPROVED'],
        ['identity document', 'Helena Dias', 'NOT SENT'],
        ['selfie', 'Helena Dias', 'NOT SENT'],
        ['identity document', 'Rui Costa', 'APPROVED'],
        ['selfie', 'Rui Costa', 'APPROVED'],
        ['representative', 'Rui Costa', 'APPROVED'],
      ]);
      // the ownership tree: each party under its parent, a 40% owner through the holding an indirect UBO
      expect((await rowsOf('parties')).map((cells) => cells.slice(0, 5))).toEqual([
        ['Holding Exemplo SA', 'SHAREHOLDER', 'BUSINESS', '80.00%', '80.00%'],
        [
          '└ Helena Dias indirect UBO through Holding Exemplo SA',
          'SHAREHOLDER',
          'INDIVIDUAL',
          '50.00% of Holding Exemplo SA',
          '40.00%',
        ],
        ['Rui Costa', 'REPRESENTATIVE', 'INDIVIDUAL', '—', '—'],
      ]);
      expect((await rowsOf('documents')).map((cells) => cells.slice(0, 3))).toEqual([
        ['selfie', '—', 'Rui Costa'],
        ['id card', 'FRONT', 'Rui Costa'],
        ['articles of incorporation', '—', 'Loja Exemplo Ltda'],
      ]);
      await checkPage(page, 'dashboard-kyb-customer');
      expect(cspViolations).toEqual([]);
    });
  },
);
