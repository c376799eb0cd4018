/**
 * A terms-of-service link lets whoever holds it accept the platform's terms for the customer: its token
 * never reaches a process log line, whether the link is minted, opened, used, or refused.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPublicApp } from '../../src/app.ts';
import { scrubSecrets } from '../../src/http/logger.ts';
import { individualBody, validCpf } from '../helpers/factories.ts';
import { client, startTestServer, type TestServer } from '../helpers/server.ts';

const lines: string[] = [];
const capture = { write: (line: string) => void lines.push(line) };

let server: TestServer;
let sandbox: FastifyInstance;

beforeAll(async () => {
  server = await startTestServer({ workers: false });
  sandbox = await buildPublicApp(server.ctx, 'sandbox', { logLevel: 'trace', logStream: capture });
});
afterAll(async () => {
  await sandbox?.close();
  await server?.close();
});

describe('terms links in process logs', () => {
  it('redacts the token of /tos/<token> minted, opened, accepted, opened again or unknown', async () => {
    const tenant = await server.newTenant('Terms logs');
    const api = client(sandbox, tenant.sandboxKey);
    const customer = await api.post('/customers', individualBody({ taxId: validCpf('4') }));
    expect(customer.statusCode).toBe(201);

    lines.length = 0;
    const minted = await api.post(`/customers/${customer.json().id}/tos`, {});
    expect(minted.statusCode).toBe(201);
    const path = new URL(minted.json().url as string).pathname;
    const token = path.split('/').pop()!;
    const unknown = 'Z'.repeat(43);
    expect((await sandbox.inject({ method: 'GET', url: path })).statusCode).toBe(200);
    expect((await sandbox.inject({ method: 'POST', url: path })).statusCode).toBe(200);
    expect((await sandbox.inject({ method: 'GET', url: path })).statusCode).toBe(410);
    expect((await sandbox.inject({ method: 'GET', url: `/tos/${unknown}?from=mail` })).statusCode).toBe(404);

    const text = lines.join('');
    expect(text).toContain('/tos/[redacted]');
    for (const secret of [token, unknown]) expect(text).not.toContain(secret);
  });

  it('scrubs a terms link wherever it appears in a line, and leaves the route that mints one alone', () => {
    const token = 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8s9T0u1V';
    const line = JSON.stringify({
      msg: `sent https://sandbox.example/tos/${token}?lang=pt to the customer`,
      url: `/tos/${token}`,
      route: '/customers/5b0c2a44-1f0e-4a8e-9a55-3c2f4f3b9e11/tos',
    });
    const scrubbed = scrubSecrets(line);
    expect(scrubbed).not.toContain(token);
    expect(JSON.parse(scrubbed)).toEqual({
      msg: 'sent https://sandbox.example/tos/[redacted]?lang=pt to the customer',
      url: '/tos/[redacted]',
      route: '/customers/5b0c2a44-1f0e-4a8e-9a55-3c2f4f3b9e11/tos',
    });
  });
});
