import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { individualBody } from '../helpers/factories.ts';
import { eventually } from '../helpers/server.ts';
import { type LogLine, newTenantOver, type PonteProcess, spawnPonte, stopPonte } from './ponte-process.ts';

let ponte: PonteProcess | undefined;
afterEach(() => stopPonte(ponte));

/**
 * Starts POST /customers and sends only half of its body, so the request is in flight on the server
 * (its "incoming request" line is logged) until `finish()` sends the rest. Its connection is kept alive
 * for a minute after the answer, as a load balancer's would be.
 */
function halfSentCustomer(url: string, key: string) {
  const body = Buffer.from(JSON.stringify(individualBody()));
  const split = Math.floor(body.length / 2);
  const req = request(`${url}/customers`, {
    agent: new Agent({ keepAlive: true, timeout: 60_000 }),
    method: 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      'content-length': String(body.length),
    },
  });
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk) => {
        text += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
  });
  req.write(body.subarray(0, split));
  return { answer, finish: () => req.end(body.subarray(split)), abort: () => req.destroy() };
}

const refusesConnections = (url: string) =>
  new Promise<boolean>((resolve) => {
    const { hostname, port } = new URL(url);
    const socket = connect(Number(port), hostname);
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });

describe('graceful shutdown', () => {
  it('on SIGTERM stops accepting, finishes the request in flight, closes its kept-alive connection, and exits 0', async () => {
    ponte = await spawnPonte();
    const { key } = await newTenantOver(ponte);
    const inFlight = halfSentCustomer(ponte.urls.production, key);
    await ponte.waitForLog((line) => line.msg === 'incoming request' && hasUrl(line, '/customers'));

    ponte.child.kill('SIGTERM');
    await ponte.waitForLog((line) => line.msg === 'shutting down');
    await eventually(
      () => refusesConnections(ponte!.urls.production),
      (refused) => refused,
    );

    inFlight.finish();
    const answer = await inFlight.answer;
    expect(answer.status).toBe(201);
    expect(JSON.parse(answer.body).id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await ponte.exited).toEqual({ code: 0, signal: null });
    expect(ponte.logs.some((line) => line.msg === 'stopped')).toBe(true);
  }, 180_000);

  it('exits 1 when a request is still running at the end of the grace period', async () => {
    ponte = await spawnPonte({ PONTE_SHUTDOWN_GRACE_MS: '300' });
    const { key } = await newTenantOver(ponte);
    const stuck = halfSentCustomer(ponte.urls.production, key);
    stuck.answer.catch(() => {});
    await ponte.waitForLog((line) => line.msg === 'incoming request' && hasUrl(line, '/customers'));
    ponte.child.kill('SIGTERM');
    expect(await ponte.exited).toEqual({ code: 1, signal: null });
    expect(ponte.logs.some((line) => line.msg === 'grace period over; exiting')).toBe(true);
    stuck.abort();
  }, 180_000);
});

function hasUrl(line: LogLine, url: string): boolean {
  return (line.req as { url?: string } | undefined)?.url === url;
}
