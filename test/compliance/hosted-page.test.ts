import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signLinkToken } from '../../src/lib/signed-link.ts';
import { createProjectService } from '../../src/modules/projects/service.ts';
import { createCustomer, individualBody, validCpf } from '../helpers/factories.ts';
import { type Client, client, startTestServer, type TestServer } from '../helpers/server.ts';
import { GIF, JPEG, MB, PDF, PNG, pngOfSize, TEXT } from './files.ts';
import { eventsOf, linkPath, operatorClient, submitDocuments } from './support.ts';

let server: TestServer;
let production: Client;
let operator: Client;

beforeAll(async () => {
  server = await startTestServer();
  const tenant = await server.newTenant('Banco Exemplo');
  // the name its customers see on the hosted pages (dashboard, Settings): unset, the pages use neutral wording
  await createProjectService(server.ctx).setDisplayName(
    { id: null, name: 'test' },
    tenant.projectId,
    'Banco Exemplo',
  );
  production = client(server.production, tenant.productionKey);
  operator = operatorClient(server);
});
afterAll(() => server.close());

const page = (link: string, app = server.production) => app.inject({ method: 'GET', url: linkPath(link) });
const statusOf = (html: string) => /<main data-status="([A-Z_]+)"/.exec(html)?.[1];

async function verificationOf(customer: { id: string; verification: { id: string } }) {
  return (await production.get(`/customers/${customer.id}/verifications/${customer.verification.id}`)).json();
}

async function review(customer: { verification: { id: string } }, body: object) {
  const response = await operator.post(`/operator/verifications/${customer.verification.id}/review`, body);
  expect(response.statusCode).toBe(200);
}

const hostedDocuments = async (verificationId: string) =>
  server.ctx.db.query<{ type: string; content_type: string; source: string }>(
    'SELECT type, content_type, source FROM documents WHERE verification_id = $1 ORDER BY type',
    [verificationId],
  );

describe('GET /verify/{token}', () => {
  it('shows the upload form for a NOT_STARTED verification, as a self-contained page with a CSP', async () => {
    const customer = await createCustomer(production);
    const response = await page(customer.verification.link);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toMatch(/style-src 'sha256-[A-Za-z0-9+/]+=*'/);
    expect(csp).toContain("form-action 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.headers['cache-control']).toBe('no-store');
    const html = response.body;
    expect(statusOf(html)).toBe('NOT_STARTED');
    expect(html).toContain('enctype="multipart/form-data"');
    expect(html).toContain('name="document"');
    expect(html).toContain('name="selfie"');
    expect(html).toContain('Banco Exemplo');
    // nothing loaded from elsewhere, no scripts
    expect(html).not.toMatch(/<script|<link|src=|https?:\/\//i);
  });

  it('answers a 404 page for a forged, tampered, expired or malformed link', async () => {
    const customer = await createCustomer(production);
    const token = linkPath(customer.verification.link).split('/').pop()!;
    const [payload, mac] = token.split('.');
    const flipped = `${mac!.slice(0, -2)}${mac!.endsWith('AA') ? 'AB' : 'AA'}`;
    const expired = signLinkToken(
      server.ctx.instanceKeys.linkSigning,
      customer.verification.id,
      new Date(Date.now() - 1000),
    );
    const forged = signLinkToken(
      Buffer.alloc(32, 7),
      customer.verification.id,
      new Date(Date.now() + 3_600_000),
    );
    for (const bad of [`${payload}.${flipped}`, expired, forged, 'not-a-token', `${payload}`]) {
      const response = await server.production.inject({ method: 'GET', url: `/verify/${bad}` });
      expect(response.statusCode).toBe(404);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(statusOf(response.body)).toBe('INVALID_LINK');
    }
  });

  it('answers 404 on the listener of the other environment', async () => {
    const customer = await createCustomer(production);
    const response = await page(customer.verification.link, server.sandbox);
    expect(response.statusCode).toBe(404);
    expect(statusOf(response.body)).toBe('INVALID_LINK');
  });

  it('says so in the sandbox', async () => {
    const sandbox = client(server.sandbox, (await server.newTenant()).sandboxKey);
    const customer = await createCustomer(sandbox, individualBody({ taxId: validCpf('1') }));
    const response = await page(customer.verification.link, server.sandbox);
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('Sandbox: no real verification takes place.');
    expect((await page(customer.verification.link)).statusCode).toBe(404);
  });

  it('escapes everything it shows', async () => {
    const customer = await createCustomer(
      production,
      individualBody({ name: '<img/src=x onerror=alert(1)> Silva' }),
    );
    await submitDocuments(server.production, customer.verification.link);
    await review(customer, {
      status: 'TEMPORARY_REJECTION',
      statusReason: {
        rejectLabels: ['<b>bold</b>'],
        documents: [
          { type: 'PASSPORT', status: 'TEMPORARY_REJECTION', comment: '"><script>alert(2)</script>' },
        ],
      },
    });
    const html = (await page(customer.verification.link)).body;
    expect(html).not.toContain('<img/src=x');
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<b>bold</b>');
    expect(html).toContain('&lt;img/src=x');
    expect(html).toContain('&quot;&gt;&lt;script&gt;alert(2)&lt;/script&gt;');
  });
});

describe('POST /verify/{token}', () => {
  it('takes an identity document and a selfie and moves NOT_STARTED to UNDER_VERIFICATION', async () => {
    const customer = await createCustomer(production);
    const response = await submitDocuments(server.production, customer.verification.link, {
      document: PNG,
      selfie: JPEG,
      documentType: 'ID_CARD',
    });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe(linkPath(customer.verification.link));
    const verification = await verificationOf(customer);
    expect(verification.status).toBe('UNDER_VERIFICATION');
    expect(statusOf((await page(customer.verification.link)).body)).toBe('UNDER_VERIFICATION');
    expect((await eventsOf(server, customer.verification.id)).at(-1)).toMatchObject({
      type: 'customer.verification.updated',
      data: verification,
    });
    expect(await hostedDocuments(customer.verification.id)).toEqual([
      { type: 'ID_CARD', content_type: 'image/png', source: 'HOSTED_PAGE' },
      { type: 'SELFIE', content_type: 'image/jpeg', source: 'HOSTED_PAGE' },
    ]);
    // the end customer's identity documents are for compliance, not in the partner's document list
    expect((await production.get(`/customers/${customer.id}/documents`)).json().data).toEqual([]);
    const detail = (await operator.get(`/operator/verifications/${customer.verification.id}`)).json();
    expect(detail.documents.map((d: { type: string }) => d.type).sort()).toEqual(['ID_CARD', 'SELFIE']);
  });

  it('refuses files that are not accepted with the form again, naming each one, and changes nothing', async () => {
    const customer = await createCustomer(production);
    const cases = [
      { files: { document: TEXT }, status: 415, fields: ['Identity document'] },
      { files: { document: GIF, selfie: PDF }, status: 415, fields: ['Identity document', 'Selfie'] },
      { files: { selfie: null }, status: 400, fields: ['Selfie'] },
      { files: { documentType: 'BIRTH_CERTIFICATE' }, status: 400, fields: ['Document type'] },
      { files: { selfie: pngOfSize(3 * MB + 1) }, status: 413, fields: [] },
    ];
    for (const { files, status, fields } of cases) {
      const response = await submitDocuments(server.production, customer.verification.link, files);
      expect(response.statusCode).toBe(status);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(statusOf(response.body)).toBe('NOT_STARTED');
      expect(response.body).toContain('id="form-errors"');
      for (const field of fields) expect(response.body).toContain(`<li>${field}:`);
    }
    expect((await verificationOf(customer)).status).toBe('NOT_STARTED');
    expect(await hostedDocuments(customer.verification.id)).toEqual([]);
  });

  it('after TEMPORARY_REJECTION shows what was wrong and takes a resubmission', async () => {
    const customer = await createCustomer(production);
    await submitDocuments(server.production, customer.verification.link);
    await review(customer, {
      status: 'TEMPORARY_REJECTION',
      statusReason: {
        rejectLabels: ['screenshot'],
        rejectSubLabels: ['badPhoto'],
        documents: [
          {
            type: 'PASSPORT',
            status: 'TEMPORARY_REJECTION',
            comment: 'The passport page is cut off at the bottom.',
            rejectLabels: ['badPhoto'],
          },
        ],
      },
    });
    const rejected = (await page(customer.verification.link)).body;
    expect(statusOf(rejected)).toBe('TEMPORARY_REJECTION');
    expect(rejected).toContain('A screenshot was uploaded');
    expect(rejected).toContain('A photo is blurred, too dark or cut off at the edges.');
    expect(rejected).toContain('The passport page is cut off at the bottom.');
    expect(rejected).toContain('name="selfie"');

    const again = await submitDocuments(server.production, customer.verification.link);
    expect(again.statusCode).toBe(303);
    const verification = await verificationOf(customer);
    expect(verification.status).toBe('UNDER_VERIFICATION');
    expect(verification.statusReason).toEqual({ rejectLabels: [], rejectSubLabels: [], documents: [] });
    expect(await hostedDocuments(customer.verification.id)).toHaveLength(4);
  });

  for (const final of ['APPROVED', 'FINAL_REJECTION'] as const) {
    it(`after ${final} says so and accepts nothing (409)`, async () => {
      const customer = await createCustomer(production);
      await submitDocuments(server.production, customer.verification.link);
      await review(customer, {
        status: final,
        ...(final === 'FINAL_REJECTION' ? { statusReason: { rejectLabels: ['fraudulent_patterns'] } } : {}),
      });
      const shown = (await page(customer.verification.link)).body;
      expect(statusOf(shown)).toBe(final);
      expect(shown).not.toContain('<form');
      expect(shown).not.toContain('fraudulent');
      const refused = await submitDocuments(server.production, customer.verification.link);
      expect(refused.statusCode).toBe(409);
      expect(statusOf(refused.body)).toBe(final);
      expect((await verificationOf(customer)).status).toBe(final);
      expect(await hostedDocuments(customer.verification.id)).toHaveLength(2);
    });
  }

  it('refuses a second submission while UNDER_VERIFICATION with 409', async () => {
    const customer = await createCustomer(production);
    await submitDocuments(server.production, customer.verification.link);
    const second = await submitDocuments(server.production, customer.verification.link);
    expect(second.statusCode).toBe(409);
    expect(statusOf(second.body)).toBe('UNDER_VERIFICATION');
    expect(await hostedDocuments(customer.verification.id)).toHaveLength(2);
  });

  it('answers a broken multipart form with the form again (400)', async () => {
    const customer = await createCustomer(production);
    const response = await server.production.inject({
      method: 'POST',
      url: linkPath(customer.verification.link),
      payload: '--x\r\nContent-Disposition: form-data; name="document"; filename="a.pdf"\r\n\r\n%PDF',
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
    });
    expect(response.statusCode).toBe(400);
    expect(statusOf(response.body)).toBe('NOT_STARTED');
    expect(response.body).toContain('id="form-errors"');
  });

  it('answers a 404 page to a submission with an invalid link', async () => {
    const response = await server.production.inject({
      method: 'POST',
      url: '/verify/forged.token',
      payload: {},
    });
    expect(response.statusCode).toBe(404);
    expect(statusOf(response.body)).toBe('INVALID_LINK');
  });
});
