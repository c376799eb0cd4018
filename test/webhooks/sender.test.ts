/**
 * The webhook sender's connections: kept alive per origin and checked address, and a pool let go (beyond
 * the pools kept) never cuts an attempt it is still carrying.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postWebhook } from '../../src/modules/webhooks/sender.ts';

let server: http.Server;
let port: number;
let connections = 0;
let releaseSlow: () => void = () => {};

beforeAll(async () => {
  server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      if (request.url === '/slow') releaseSlow = () => response.writeHead(200).end('ok');
      else response.writeHead(204).end();
    });
  });
  server.on('connection', () => {
    connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(
  () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
);

const loopback = { address: '127.0.0.1', family: 4 as const };
const post = (host: string, path = '/') =>
  postWebhook({
    url: new URL(`http://${host}:${port}${path}`),
    address: loopback,
    headers: {},
    body: '{}',
    timeoutMs: 10_000,
  });

describe('the webhook sender', () => {
  it('reuses one connection for successive attempts to one origin, and opens one per origin', async () => {
    const before = connections;
    for (let i = 0; i < 3; i++) expect((await post('a.example')).statusCode).toBe(204);
    expect(connections - before).toBe(1);
    expect((await post('b.example')).statusCode).toBe(204);
    expect(connections - before).toBe(2);
  });

  it('lets the least recently used of more than 1,000 pools go without cutting the attempt it carries', async () => {
    const slow = post('slow.example', '/slow');
    // 1,000 other origins (all answered by this server through the checked address) push it out
    for (let i = 0; i < 1_000; i += 50)
      await Promise.all(Array.from({ length: 50 }, (_, j) => post(`h${i + j}.example`)));
    releaseSlow();
    expect(await slow).toMatchObject({ statusCode: 200, error: null });
  }, 30_000);
});
