/**
 * The request log's detail page of the dashboard: a recorded request shows its bodies as redacted when
 * written (secrets, tax ids and personal data never in clear), the key that made it (prefix and name,
 * never the key) and its idempotency key; another project's or environment's entry answers 404.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDashboardApp } from '../../src/app.ts';
import { MAX_STORED_BODY, redactBodyText, redactParsedBody } from '../../src/http/redact-body.ts';
import { createWebUserService } from '../../src/modules/web-users/service.ts';
import { individualBody, validCpf } from '../helpers/factories.ts';
import { type Client, client, eventually, startTestServer, type TestServer } from '../helpers/server.ts';

const PASSWORD = 'a long enough password';
const COOKIE = 'ponte_dashboard_session';

let server: TestServer;
let dashboard: FastifyInstance;
let users: ReturnType<typeof createWebUserService>;
let tenant: { projectId: string; sandboxKey: string; productionKey: string };
let other: { projectId: string; sandboxKey: string; productionKey: string };
let sandbox: Client;

/** A signed-in dashboard session of a new user of `projectId` (an admin unless told): its cookie. */
async function sessionOf(projectId: string, role: 'admin' | 'developer' = 'admin'): Promise<string> {
  const email = `user-${randomUUID()}@partner.example`;
  const invited = await users.invite(
    { id: null, name: 'test' },
    { surface: 'dashboard', projectId, role },
    email,
  );
  await users.acceptInvite('dashboard', invited.inviteUrl.split('/').pop()!, PASSWORD);
  const signedIn = await dashboard.inject({
    method: 'POST',
    url: '/sign-in',
    payload: new URLSearchParams({ email, password: PASSWORD, next: '/' }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  const cookie = signedIn.cookies.find((c) => c.name === COOKIE);
  if (!cookie) throw new Error(`no session after sign-in (${signedIn.statusCode})`);
  return cookie.value;
}

const page = (session: string, url: string) =>
  dashboard.inject({ method: 'GET', url, cookies: { [COOKIE]: session } });

/** The id of the request log entry of a request, once the recorder has written it. */
async function entryOf(requestId: string): Promise<string> {
  const [row] = await eventually(
    () =>
      server.ctx.db.query<{ id: string }>('SELECT id FROM request_log WHERE request_id = $1', [requestId]),
    (rows) => rows.length === 1,
  );
  return row!.id;
}

async function keyPrefixOf(projectId: string): Promise<string> {
  const [row] = await server.ctx.db.query<{ prefix: string }>(
    "SELECT prefix FROM api_keys WHERE project_id = $1 AND environment = 'sandbox'",
    [projectId],
  );
  return row!.prefix;
}

beforeAll(async () => {
  // a database of its own: another file's retention test prunes the whole request log of a shared one
  server = await startTestServer({
    workers: false,
    ownDatabase: true,
    env: { PONTE_REQUEST_LOG_FLUSH_MS: '20' },
  });
  dashboard = await buildDashboardApp(server.ctx);
  users = createWebUserService({ ...server.ctx, encryptionKey: server.ctx.instanceKeys.encryption });
  tenant = await server.newTenant('Detail partner');
  other = await server.newTenant('Other partner');
  sandbox = client(server.sandbox, tenant.sandboxKey);
});
afterAll(async () => {
  await dashboard?.close();
  await server?.close();
});

describe('GET /{env}/requests/{id}', () => {
  it('shows a customer creation with its taxId, name, e-mail and birth date redacted, the key prefix and the idempotency key', async () => {
    const taxId = validCpf('7');
    const idempotencyKey = `create-customer-${randomUUID()}`;
    const created = await sandbox.post(
      '/customers',
      individualBody({ name: 'Maria Confidencial', email: 'maria.confidencial@x.example', taxId }),
      { 'idempotency-key': idempotencyKey },
    );
    expect(created.statusCode).toBe(201);
    const id = await entryOf(created.headers['x-request-id'] as string);
    const session = await sessionOf(tenant.projectId);

    const list = await page(session, '/sandbox/requests');
    expect(list.statusCode).toBe(200);
    expect(list.body).toContain(`href="/sandbox/requests/${id}"`);

    const detail = await page(session, `/sandbox/requests/${id}`);
    expect(detail.statusCode).toBe(200);
    const html = detail.body;
    expect(html).toContain('POST /customers');
    expect(html).toContain(idempotencyKey);
    expect(html).toContain(`${await keyPrefixOf(tenant.projectId)}…`);
    expect(html).toContain(created.headers['x-request-id'] as string);
    expect(html).toContain('<h2 id="request-body">Request body</h2>');
    // the customer's id and country are there, indented; what identifies the person is not
    expect(html).toContain(`&quot;id&quot;: &quot;${created.json().id}&quot;`);
    expect(html).toContain('&quot;country&quot;: &quot;BRA&quot;');
    expect(html).toContain('&quot;taxId&quot;: &quot;[redacted]&quot;');
    expect(html).toContain('&quot;name&quot;: &quot;[redacted]&quot;');
    for (const secret of [
      taxId,
      taxId.replace(/\D/g, ''),
      'Maria',
      'Confidencial',
      'maria.confidencial',
      '1990-04-12',
    ])
      expect(html).not.toContain(secret);
    expect(html).not.toContain(tenant.sandboxKey);

    // what is stored is redacted too, not only what is shown
    const [stored] = await server.ctx.db.query<{ request_body: string; response_body: string }>(
      'SELECT request_body, response_body FROM request_log WHERE id = $1',
      [id],
    );
    expect(`${stored!.request_body}${stored!.response_body}`).not.toMatch(/Maria|confidencial|1990-04-12/);
    expect(`${stored!.request_body}${stored!.response_body}`).not.toContain(taxId.replace(/\D/g, ''));
  });

  it("shows a customer's requirement names (TERMS_OF_SERVICE, SELFIE…) while its own name stays redacted", async () => {
    const created = await sandbox.post(
      '/customers',
      individualBody({ name: 'Requisito Pessoal', taxId: validCpf('6') }),
    );
    expect(created.statusCode).toBe(201);
    const names = (created.json().requirements as { name: string }[]).map((requirement) => requirement.name);
    expect(names).toContain('TERMS_OF_SERVICE');
    const id = await entryOf(created.headers['x-request-id'] as string);
    const detail = await page(await sessionOf(tenant.projectId), `/sandbox/requests/${id}`);
    expect(detail.statusCode).toBe(200);
    for (const name of names) expect(detail.body).toContain(`&quot;name&quot;: &quot;${name}&quot;`);
    expect(detail.body).toContain('&quot;name&quot;: &quot;[redacted]&quot;');
    expect(detail.body).not.toContain('Requisito');
    expect(detail.body).not.toContain('Pessoal');
  });

  it("shows a developer a terms link's creation with no usable token in it", async () => {
    const customer = await sandbox.post('/customers', individualBody({ taxId: validCpf('5') }));
    expect(customer.statusCode).toBe(201);
    const created = await sandbox.post(`/customers/${customer.json().id}/tos`, {});
    expect(created.statusCode).toBe(201);
    const url = new URL(created.json().url as string);
    const token = url.pathname.split('/').pop()!;
    expect(url.pathname).toBe(`/tos/${token}`);
    const id = await entryOf(created.headers['x-request-id'] as string);

    const detail = await page(await sessionOf(tenant.projectId, 'developer'), `/sandbox/requests/${id}`);
    expect(detail.statusCode).toBe(200);
    expect(detail.body).toContain('/tos/[redacted]');
    expect(detail.body).not.toContain(token);
    const [stored] = await server.ctx.db.query<{ response_body: string }>(
      'SELECT response_body FROM request_log WHERE id = $1',
      [id],
    );
    expect(stored!.response_body).not.toContain(token);
    // what the page shows after /tos/ opens nothing
    const shown = /\/tos\/([^&"<\s]+)/.exec(detail.body)![1]!;
    const opened = await server.sandbox.inject({ method: 'GET', url: `/tos/${shown}` });
    expect(opened.statusCode).toBe(404);
    expect((await server.sandbox.inject({ method: 'GET', url: url.pathname })).statusCode).toBe(200);
  });

  it('shows a webhook endpoint creation without its signing secret', async () => {
    const created = await sandbox.post('/webhook-endpoints', { url: 'https://93.184.215.14/ponte-hooks' });
    expect(created.statusCode).toBe(201);
    const secret = created.json().secret as string;
    expect(secret).toMatch(/^whsec_/);
    const id = await entryOf(created.headers['x-request-id'] as string);
    const detail = await page(await sessionOf(tenant.projectId), `/sandbox/requests/${id}`);
    expect(detail.statusCode).toBe(200);
    expect(detail.body).toContain('https://93.184.215.14/ponte-hooks');
    expect(detail.body).toContain('&quot;secret&quot;: &quot;[redacted]&quot;');
    expect(detail.body).not.toContain(secret);
    expect(detail.body).not.toContain(secret.slice('whsec_'.length));
  });

  it('stores every character of the bodies written together in one batch, and no body where there was none', async () => {
    const city = 'São Paulo 🌎 — “Zona Leste”';
    const created = await sandbox.post(
      '/customers',
      individualBody({ taxId: validCpf('9'), metadata: { city, quote: 'a "b" \\ c' } }),
    );
    expect(created.statusCode).toBe(201);
    const missing = await sandbox.get(`/customers/${randomUUID()}`);
    expect(missing.statusCode).toBe(404);
    const ids = [
      await entryOf(created.headers['x-request-id'] as string),
      await entryOf(missing.headers['x-request-id'] as string),
    ];
    const rows = await server.ctx.db.query<{
      id: string;
      request_body: string | null;
      response_body: string;
    }>('SELECT id, request_body, response_body FROM request_log WHERE id = ANY($1::uuid[])', [ids]);
    const byId = new Map(rows.map((row) => [row.id, row]));
    const creation = byId.get(ids[0]!)!;
    expect(JSON.parse(creation.request_body!).metadata).toEqual({ city, quote: 'a "b" \\ c' });
    expect(JSON.parse(creation.response_body).metadata).toEqual({ city, quote: 'a "b" \\ c' });
    const read = byId.get(ids[1]!)!;
    expect(read.request_body).toBeNull();
    expect(JSON.parse(read.response_body)).toMatchObject({ status: 404 });
  });

  it("answers 404 for another project's entry and for the same entry in the other environment", async () => {
    const created = await sandbox.post('/customers', individualBody({ taxId: validCpf('8') }));
    const id = await entryOf(created.headers['x-request-id'] as string);
    const stranger = await sessionOf(other.projectId);
    const answer = await page(stranger, `/sandbox/requests/${id}`);
    expect(answer.statusCode).toBe(404);
    expect(answer.body).not.toContain('/customers');
    const owner = await sessionOf(tenant.projectId);
    expect((await page(owner, `/production/requests/${id}`)).statusCode).toBe(404);
    expect((await page(owner, `/sandbox/requests/${id}`)).statusCode).toBe(200);
  });
});

describe('request log bodies', () => {
  it('are cut to 16 KB with a marker saying how long they were', () => {
    const long = JSON.stringify({
      data: Array.from({ length: 2_000 }, (_, i) => ({ id: i, status: 'SUCCESS' })),
    });
    const stored = redactBodyText(long)!;
    expect(stored.length).toBeLessThan(MAX_STORED_BODY + 100);
    expect(stored).toMatch(new RegExp(`…\\[truncated: ${long.length} characters in all\\]$`));
  });

  it('keep no API key, even in a field of another name', () => {
    const stored = redactBodyText(
      JSON.stringify({ note: `use ${tenant.sandboxKey}`, pixKey: 'a@b.example' }),
    )!;
    expect(stored).not.toContain(tenant.sandboxKey);
    expect(stored).toContain('[redacted]');
    expect(stored).not.toContain('a@b.example');
  });

  it('keep no binary data or stream of a body, only its size', () => {
    const stored = redactParsedBody({
      kind: 'IDENTITY',
      file: Buffer.from('%PDF-1.7 Maria'),
      stream: new Map(),
    })!;
    expect(JSON.parse(stored)).toEqual({
      kind: 'IDENTITY',
      file: '[binary, 14 bytes]',
      stream: '[not kept]',
    });
  });

  it('keep nothing of a body that is not JSON', () => {
    expect(redactBodyText('name;email\nMaria;m@x.example')).toBe(
      '[non-JSON body of 28 characters, not kept]',
    );
  });
});
