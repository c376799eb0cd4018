/**
 * Where webhooks may go, in both environments, and what a partner is told when an attempt fails. A
 * sandbox key must not make the server call its own operator API or a database port and read the
 * error back: the sandbox applies the address check too unless PONTE_SANDBOX_WEBHOOK_ALLOW_PRIVATE_URLS
 * is set, and attempts report only a coarse class of failure.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, individualBody } from '../helpers/factories.ts';
import { client, startTestServer, type TestServer } from '../helpers/server.ts';
import {
  createEndpoint,
  deliveries,
  dispatcherOf,
  STARTUP_TIMEOUT_MS,
  startWebhookServer,
} from './support.ts';

let strict: TestServer;
let local: TestServer;
const servers: http.Server[] = [];

beforeAll(async () => {
  strict = await startTestServer({ workers: false });
  local = await startWebhookServer({ workers: false, env: { PONTE_WEBHOOK_TIMEOUT_MS: '3000' } });
}, STARTUP_TIMEOUT_MS);
afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    server.close();
  }
  await Promise.all([strict.close(), local.close()]);
});

async function listen(handler: http.RequestListener): Promise<number> {
  const server = http.createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('sandbox endpoint addresses', () => {
  it('refuses private, loopback and link-local URLs in the sandbox without PONTE_SANDBOX_WEBHOOK_ALLOW_PRIVATE_URLS', async () => {
    const sandbox = client(strict.sandbox, (await strict.newTenant()).sandboxKey);
    for (const url of [
      'http://127.0.0.1:8090/operator/projects',
      'http://localhost:5432/',
      'http://169.254.169.254/latest/meta-data',
      'http://[::1]:6379/',
      'http://[64:ff9b::a9fe:a9fe]/',
      'http://10.0.0.7/hooks',
    ]) {
      const response = await sandbox.post('/webhook-endpoints', { url });
      expect([url, response.statusCode]).toEqual([url, 400]);
      expect(response.json().errors[0].pointer).toBe('/body/url');
    }
    expect((await sandbox.get('/webhook-endpoints')).json().pagination.total).toBe(0);
  });

  it('refuses IPv6 literals embedding IPv4 in production', async () => {
    const production = client(strict.production, (await strict.newTenant()).productionKey);
    for (const url of [
      'http://[64:ff9b::a9fe:a9fe]/',
      'http://[::7f00:1]/',
      'http://[2002:7f00:1::1]/',
      'http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/',
    ]) {
      const response = await production.post('/webhook-endpoints', { url });
      expect([url, response.statusCode]).toEqual([url, 400]);
    }
  });

  it('refuses every IPv6 embedding of a private IPv4 in production: translated, mapped, NAT64, 6to4, compatible', async () => {
    const production = client(strict.production, (await strict.newTenant()).productionKey);
    for (const url of [
      'http://[::ffff:0:7f00:1]/', // IPv4-translated 127.0.0.1
      'http://[::ffff:0:127.0.0.1]/',
      'http://[::ffff:0:a9fe:a9fe]/', // IPv4-translated 169.254.169.254
      'http://[::ffff:0:a00:1]:8090/', // IPv4-translated 10.0.0.1
      'http://[::ffff:7f00:1]/', // IPv4-mapped 127.0.0.1
      'http://[::ffff:192.168.1.1]/',
      'http://[64:ff9b::7f00:1]/', // NAT64
      'http://[64:ff9b:1::a00:1]/', // local-use NAT64
      'http://[2002:a00:1::1]/', // 6to4 of 10.0.0.1
      'http://[::a9fe:a9fe]/', // IPv4-compatible
    ]) {
      const response = await production.post('/webhook-endpoints', { url });
      expect([url, response.statusCode]).toEqual([url, 400]);
      expect(response.json().errors[0].pointer).toBe('/body/url');
    }
    expect((await production.get('/webhook-endpoints')).json().pagination.total).toBe(0);
  });

  it('accepts local receivers in the sandbox where the setting allows them', async () => {
    const sandbox = client(local.sandbox, (await local.newTenant()).sandboxKey);
    const endpoint = await createEndpoint(sandbox, { url: 'http://127.0.0.1:9/hooks' });
    expect(endpoint.url).toBe('http://127.0.0.1:9/hooks');
  });
});

describe('what a failed attempt reports', () => {
  it('names a coarse class of failure, never a socket message or an address', async () => {
    const tenant = await local.newTenant();
    const sandbox = client(local.sandbox, tenant.sandboxKey);
    const refusedPort = await closedPort();
    const hangingPort = await listen(() => {});
    const failingPort = await listen((_request, response) => response.writeHead(503).end());
    const plainPort = await listen((_request, response) => response.writeHead(200).end());
    const cases = [
      [`http://127.0.0.1:${refusedPort}/hooks`, 'connection refused'],
      [`http://127.0.0.1:${hangingPort}/hooks`, 'timeout'],
      [`http://127.0.0.1:${failingPort}/hooks`, 'HTTP 503'],
      [`https://127.0.0.1:${plainPort}/hooks`, 'TLS error'],
    ] as const;
    const endpoints = [];
    for (const [url] of cases) endpoints.push(await createEndpoint(sandbox, { url }));
    await createCustomer(sandbox, individualBody());
    const dispatcher = dispatcherOf(local);
    await dispatcher.tick();
    await dispatcher.tick();
    await dispatcher.drain();
    for (const [i, [url, expected]] of cases.entries()) {
      const [delivery] = await deliveries(sandbox, endpoints[i]!.id);
      const attempt = delivery?.attempts[0];
      const reported = attempt?.error ?? `HTTP ${attempt?.statusCode}`;
      expect([url, reported]).toEqual([url, expected]);
    }
  }, 30_000);
});
