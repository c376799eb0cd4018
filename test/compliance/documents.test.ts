import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvedCustomer, createCustomer } from '../helpers/factories.ts';
import { type Client, client, startTestServer, type TestServer } from '../helpers/server.ts';
import { form, GIF, JPEG, MB, PDF, PNG, pngOfSize, TEXT } from './files.ts';
import { operatorClient } from './support.ts';

let server: TestServer;
let production: Client;
let sandbox: Client;
let operator: Client;

beforeAll(async () => {
  server = await startTestServer();
  const tenant = await server.newTenant();
  production = client(server.production, tenant.productionKey);
  sandbox = client(server.sandbox, tenant.sandboxKey);
  operator = operatorClient(server);
});
afterAll(() => server.close());

const upload = (api: Client, customerId: string, content: Buffer, name = 'statement.pdf', fields = {}) =>
  api.post(`/customers/${customerId}/documents`, form({ file: { content, name } }, fields));

const documentCount = async (customerId: string) =>
  Number(
    (
      await server.ctx.db.query<{ n: bigint }>('SELECT count(*) AS n FROM documents WHERE customer_id = $1', [
        customerId,
      ])
    )[0]!.n,
  );

describe('POST /customers/{id}/documents', () => {
  it('stores a PDF and answers 201 {id, type, fileName, size, createdAt}', async () => {
    const customer = await createCustomer(production);
    const response = await upload(production, customer.id, PDF, 'extrato março.pdf');
    expect(response.statusCode).toBe(201);
    const document = response.json();
    expect(Object.keys(document).sort()).toEqual(['createdAt', 'fileName', 'id', 'size', 'type']);
    expect(document).toMatchObject({
      type: 'LIMIT_REQUEST_BANK_STATEMENT',
      fileName: 'extrato março.pdf',
      size: PDF.length,
    });
    expect(document.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(document.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('accepts JPEG and PNG, recognised by their content', async () => {
    const customer = await createCustomer(production);
    for (const [content, name] of [
      [JPEG, 'photo.jpeg'],
      [PNG, 'scan.png'],
    ] as const) {
      expect((await upload(production, customer.id, content, name)).statusCode).toBe(201);
    }
  });

  it('judges the content, not the name: a PNG named .pdf is a PNG, text named .jpg is refused with 415', async () => {
    const customer = await createCustomer(production);
    const disguised = (await upload(production, customer.id, PNG, 'statement.pdf')).json();
    const meta = (await operator.get(`/operator/documents/${disguised.id}`)).json();
    expect(meta.contentType).toBe('image/png');
    for (const [content, name] of [
      [TEXT, 'photo.jpg'],
      [GIF, 'scan.png'],
      [TEXT, 'statement.pdf'],
    ] as const) {
      const refused = await upload(production, customer.id, content, name);
      expect(refused.statusCode).toBe(415);
      expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(refused.json()).toMatchObject({
        code: 'unsupported_media_type',
        errors: [{ pointer: '/body/file', message: expect.stringMatching(/PDF, JPEG or PNG/) }],
      });
    }
    expect(await documentCount(customer.id)).toBe(1);
  });

  it('accepts exactly 3 MB and refuses one byte more with 413 payload_too_large, storing nothing', async () => {
    const customer = await createCustomer(production);
    const largest = await upload(production, customer.id, pngOfSize(3 * MB), 'big.png');
    expect(largest.statusCode).toBe(201);
    expect(largest.json().size).toBe(3 * MB);
    const tooLarge = await upload(production, customer.id, pngOfSize(3 * MB + 1), 'bigger.png');
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json().code).toBe('payload_too_large');
    expect(await documentCount(customer.id)).toBe(1);
  });

  it('keeps the bytes in the database: the operator download is byte for byte the upload', async () => {
    const customer = await createCustomer(production);
    const document = (await upload(production, customer.id, JPEG, 'selfie ção.jpg')).json();
    const download = await operator.get(`/operator/documents/${document.id}/content`);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('image/jpeg');
    expect(download.headers['x-content-type-options']).toBe('nosniff');
    expect(download.headers['content-disposition']).toBe(
      `attachment; filename="selfie __o.jpg"; filename*=UTF-8''${encodeURIComponent('selfie ção.jpg')}`,
    );
    expect(download.rawPayload.equals(JPEG)).toBe(true);
    const stored = await server.ctx.db.query<{ size: number; content: Uint8Array }>(
      'SELECT size, content FROM documents WHERE id = $1',
      [document.id],
    );
    expect(Buffer.from(stored[0]!.content).equals(JPEG)).toBe(true);
  });

  it('refuses a missing file, an empty file, unknown fields and an unknown type with 400', async () => {
    const customer = await createCustomer(production);
    const url = `/customers/${customer.id}/documents`;
    const noFile = await production.post(url, form({}, { type: 'LIMIT_REQUEST_BANK_STATEMENT' }));
    expect(noFile.statusCode).toBe(400);
    expect(noFile.json().errors).toEqual([{ pointer: '/body/file', message: 'is required' }]);
    const empty = await upload(production, customer.id, Buffer.alloc(0));
    expect(empty.json().errors).toEqual([{ pointer: '/body/file', message: 'must not be empty' }]);
    const unknown = await production.post(
      url,
      form({ file: { content: PDF }, extra: { content: PDF } }, { note: 'x' }),
    );
    expect(unknown.statusCode).toBe(400);
    expect(
      unknown
        .json()
        .errors.map((e: { pointer: string }) => e.pointer)
        .sort(),
    ).toEqual(['/body/extra', '/body/note']);
    const badType = await upload(production, customer.id, PDF, 'a.pdf', { type: 'PAYSLIP' });
    expect(badType.statusCode).toBe(400);
    expect(badType.json().errors[0].pointer).toBe('/body/type');
    expect(await documentCount(customer.id)).toBe(0);
  });

  it('refuses a body that is not multipart/form-data with 415', async () => {
    const customer = await createCustomer(production);
    const json = await production.post(`/customers/${customer.id}/documents`, { file: 'JVBERi0=' });
    expect(json.statusCode).toBe(415);
    expect(json.json().code).toBe('unsupported_media_type');
  });

  it('refuses a multipart body without a boundary, or cut off in the middle, with 400', async () => {
    const customer = await createCustomer(production);
    const cases: [string, string][] = [
      ['multipart/form-data', '--x\r\n'],
      [
        'multipart/form-data; boundary=x',
        '--x\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n%PDF-1.4 cut',
      ],
    ];
    for (const [contentType, payload] of cases) {
      const response = await production.post(`/customers/${customer.id}/documents`, payload, {
        'content-type': contentType,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().errors).toEqual([
        { pointer: '/body', message: 'is not valid multipart/form-data' },
      ]);
    }
    expect(await documentCount(customer.id)).toBe(0);
  });

  it("answers 404 for another tenant's or environment's customer and an unknown one", async () => {
    const customer = await createCustomer(production);
    const other = client(server.production, (await server.newTenant()).productionKey);
    expect((await upload(other, customer.id, PDF)).statusCode).toBe(404);
    expect((await upload(sandbox, customer.id, PDF)).statusCode).toBe(404);
    expect((await upload(production, '00000000-0000-4000-8000-000000000000', PDF)).statusCode).toBe(404);
    expect(await documentCount(customer.id)).toBe(0);
  });

  it('answers 401 without an API key', async () => {
    const customer = await createCustomer(production);
    const response = await server.production.inject({
      method: 'POST',
      url: `/customers/${customer.id}/documents`,
      payload: form({ file: { content: PDF } }),
    });
    expect(response.statusCode).toBe(401);
  });
});

describe('reading documents', () => {
  it("lists and reads a customer's documents, newest first, and downloads their content", async () => {
    const customer = await createCustomer(production);
    const first = (await upload(production, customer.id, PDF, 'one.pdf')).json();
    const second = (await upload(production, customer.id, PNG, 'two.png')).json();
    const list = (await production.get(`/customers/${customer.id}/documents`)).json();
    expect(list.data).toEqual([second, first]);
    expect(list.pagination).toMatchObject({ total: 2, hasNextPage: false });
    expect((await production.get(`/customers/${customer.id}/documents/${first.id}`)).json()).toEqual(first);
    const content = await production.get(`/customers/${customer.id}/documents/${second.id}/content`);
    expect(content.headers['content-type']).toBe('image/png');
    expect(content.rawPayload.equals(PNG)).toBe(true);
  });

  it("never shows another tenant's document: 404 like a missing one", async () => {
    const customer = await createCustomer(production);
    const document = (await upload(production, customer.id, PDF)).json();
    const other = client(server.production, (await server.newTenant()).productionKey);
    for (const suffix of ['', '/content']) {
      const url = `/customers/${customer.id}/documents/${document.id}${suffix}`;
      expect((await other.get(url)).statusCode).toBe(404);
      expect((await sandbox.get(url)).statusCode).toBe(404);
    }
    expect((await other.get(`/customers/${customer.id}/documents`)).statusCode).toBe(404);
    const otherCustomer = await createCustomer(production);
    expect((await production.get(`/customers/${otherCustomer.id}/documents/${document.id}`)).statusCode).toBe(
      404,
    );
  });

  it('lets operators read any document; an unknown one is 404', async () => {
    const customer = await createCustomer(production);
    const document = (await upload(production, customer.id, PDF, 'statement.pdf')).json();
    const meta = await operator.get(`/operator/documents/${document.id}`);
    expect(meta.statusCode).toBe(200);
    expect(meta.json()).toMatchObject({
      ...document,
      customerId: customer.id,
      environment: 'production',
      source: 'API',
      verificationId: null,
      contentType: 'application/pdf',
    });
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await operator.get(`/operator/documents/${unknown}`)).statusCode).toBe(404);
    expect((await operator.get(`/operator/documents/${unknown}/content`)).statusCode).toBe(404);
  });
});

describe('a document as the supporting document of a limit request', () => {
  it('is accepted for its own customer and refused for a customer of another project with 400', async () => {
    const customer = await approvedCustomer(sandbox);
    const own = (await upload(sandbox, customer.id, PDF)).json();
    const accepted = await sandbox.post(`/customers/${customer.id}/limit-requests`, {
      requested: { single: '10000.00' },
      supportingDocumentType: 'LIMIT_REQUEST_BANK_STATEMENT',
      supportingDocumentId: own.id,
    });
    expect(accepted.statusCode).toBe(201);
    expect(accepted.json().supportingDocumentId).toBe(own.id);

    const otherTenant = client(server.sandbox, (await server.newTenant()).sandboxKey);
    const stranger = await approvedCustomer(otherTenant);
    const foreign = (await upload(otherTenant, stranger.id, PDF)).json();
    const next = await approvedCustomer(sandbox);
    const refused = await sandbox.post(`/customers/${next.id}/limit-requests`, {
      requested: { single: '10000.00' },
      supportingDocumentType: 'LIMIT_REQUEST_BANK_STATEMENT',
      supportingDocumentId: foreign.id,
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors).toEqual([
      {
        pointer: '/body/supportingDocumentId',
        message: expect.stringMatching(/^must be the id of a document/),
      },
    ]);
  });

  it('is backed by the database: a request can only name a document of its own customer', async () => {
    const customer = await approvedCustomer(sandbox);
    const other = await approvedCustomer(sandbox);
    const document = (await upload(sandbox, other.id, PDF)).json();
    const request = (
      await sandbox.post(`/customers/${customer.id}/limit-requests`, { requested: { single: '9000.00' } })
    ).json();
    await expect(
      server.ctx.db.query(
        `UPDATE limit_requests SET supporting_document_type = 'LIMIT_REQUEST_BANK_STATEMENT',
                supporting_document_id = $2 WHERE id = $1`,
        [request.id, document.id],
      ),
    ).rejects.toMatchObject({ code: '23503' });
  });
});
