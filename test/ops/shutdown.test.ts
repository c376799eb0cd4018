import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { halfSentCustomer } from '../helpers/half-sent.ts';
import { eventually } from '../helpers/server.ts';
import { type LogLine, newTenantOver, type PonteProcess, spawnPonte, stopPonte } from './ponte-process.ts';

let ponte: PonteProcess | undefined;
afterEach(() => stopPonte(ponte));

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
