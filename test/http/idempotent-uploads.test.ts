/**
 * An Idempotency-Key on a document upload covers the file itself: the same key with another file is
 * refused as a reused key (never answered with the first document), and the same file sent again
 * (under a new multipart boundary) replays the first answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { form, PDF, PNG } from '../compliance/files.ts';
import { createCustomer, individualBody } from '../helpers/factories.ts';
import { client, startTestServer, type Tenant, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let tenant: Tenant;
let customerId: string;

beforeAll(async () => {
  server = await startTestServer({ workers: false });
  tenant = await server.newTenant();
  customerId = (await createCustomer(client(server.sandbox, tenant.sandboxKey), individualBody())).id;
}, 180_000);
afterAll(() => server.close());

function upload(content: Buffer, name: string, key: string) {
  return server.sandbox.inject({
    method: 'POST',
    url: `/customers/${customerId}/documents`,
    headers: { authorization: `Bearer ${tenant.sandboxKey}`, 'idempotency-key': key },
    payload: form({ file: { content, name } }, { type: 'LIMIT_REQUEST_BANK_STATEMENT' }),
  });
}

const documentsStored = async () =>
  (
    await server.ctx.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM documents WHERE customer_id = $1',
      [customerId],
    )
  )[0]!.n;

describe('idempotent uploads', () => {
  it('fingerprint the uploaded file, not just the form', async () => {
    const first = await upload(PDF, 'statement.pdf', 'upload-1');
    expect(first.statusCode, first.body).toBe(201);
    const other = await upload(PNG, 'statement.png', 'upload-1');
    expect(other.statusCode).toBe(422);
    expect(other.json().code).toBe('idempotency_key_reused');
    const again = await upload(PDF, 'statement.pdf', 'upload-1');
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().id).toBe(first.json().id);
    expect(await documentsStored()).toBe(1);
  });
});
