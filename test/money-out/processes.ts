/**
 * Two real Ponte processes over one PostgreSQL database of their own, a fake PIX provider payout API the
 * test controls, and small HTTP helpers for driving them.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import pg from 'pg';
import { inject } from 'vitest';
import { signPixNotification, verifyPixNotification } from '../../src/modules/rails/pix/signature.ts';
import { type PonteProcess, spawnPonte } from '../ops/ponte-process.ts';

// biome-ignore lint/suspicious/noExplicitAny: JSON answers are read field by field in assertions
export type Json = any;

export const SECRET = 'provider-secret-for-process-tests';

export async function isolatedDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const shared = inject('testDatabaseUrl')!;
  const name = `ponte_moneyout_${Date.now()}_${process.pid}_${Math.floor(Math.random() * 1e6)}`;
  const admin = new pg.Client({ connectionString: shared });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(shared);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const cleanup = new pg.Client({ connectionString: shared });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}

export type ProviderMode = 'accept' | 'hang' | 'reject';

/**
 * The provider's payout API: records every signed payout request and answers as `mode` says, and
 * answers status queries (`GET /payouts/{endToEndId}`): a payment it took is PENDING until the test
 * sets its result; one it never took, or was made to forget, is 404.
 */
export async function fakeProvider() {
  const received: { endToEndId: string; signed: boolean; body: Record<string, unknown> }[] = [];
  const statusQueries: { endToEndId: string; signed: boolean }[] = [];
  const taken = new Set<string>();
  const results = new Map<string, Record<string, unknown>>();
  const hanging: ServerResponse[] = [];
  let mode: ProviderMode = 'accept';
  const waiters: (() => void)[] = [];
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      if (request.method === 'GET') {
        const endToEndId = decodeURIComponent((request.url ?? '').split('/').pop() ?? '');
        const signature = request.headers['x-pix-signature'] as string | undefined;
        statusQueries.push({
          endToEndId,
          signed: verifyPixNotification(SECRET, Buffer.from(endToEndId), signature),
        });
        for (const wake of waiters.splice(0)) wake();
        if (!taken.has(endToEndId)) return void response.writeHead(404).end('{}');
        response.writeHead(200, { 'content-type': 'application/json' });
        return void response.end(JSON.stringify(results.get(endToEndId) ?? { status: 'PENDING' }));
      }
      const raw = Buffer.concat(chunks);
      const body = JSON.parse(raw.toString('utf8'));
      const signed = verifyPixNotification(
        SECRET,
        raw,
        request.headers['x-pix-signature'] as string | undefined,
      );
      received.push({ endToEndId: body.endToEndId, signed, body });
      if (mode === 'accept') taken.add(body.endToEndId);
      for (const wake of waiters.splice(0)) wake();
      if (mode === 'hang') hanging.push(response);
      else response.writeHead(mode === 'accept' ? 202 : 422).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/`,
    received,
    statusQueries,
    setMode(next: ProviderMode) {
      mode = next;
    },
    /** What a status query about `endToEndId` answers from now on. */
    setResult(endToEndId: string, result: Record<string, unknown>) {
      results.set(endToEndId, result);
    },
    /** The provider loses the payment: status queries answer 404. */
    forget(endToEndId: string) {
      taken.delete(endToEndId);
    },
    /** Resolves once `count` requests have arrived. */
    async requests(count: number) {
      while (received.length < count) await new Promise<void>((resolve) => waiters.push(resolve));
    },
    async close() {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

export async function call(
  base: string,
  method: string,
  path: string,
  key: string,
  body?: unknown,
): Promise<{ status: number; body: Json }> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

export async function operator(ponte: PonteProcess, path: string, body: unknown) {
  return call(ponte.urls.operator, 'POST', path, ponte.operatorToken, body);
}

export async function keysOver(ponte: PonteProcess) {
  const project = (await operator(ponte, '/operator/projects', { name: 'Money-out processes' })).body;
  const sandbox = (
    await operator(ponte, `/operator/projects/${project.id}/api-keys`, { environment: 'sandbox' })
  ).body;
  const production = (
    await operator(ponte, `/operator/projects/${project.id}/api-keys`, { environment: 'production' })
  ).body;
  return {
    projectId: project.id as string,
    sandbox: sandbox.key as string,
    production: production.key as string,
  };
}

export function notifyPayouts(ponte: PonteProcess, items: unknown[]) {
  const raw = JSON.stringify({ payouts: items });
  return fetch(`${ponte.urls.production}/rails/pix/notifications`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-pix-signature': signPixNotification(SECRET, raw) },
    body: raw,
  }).then(async (r) => ({ status: r.status, body: (await r.json()) as Json }));
}

export function notifyDeposit(ponte: PonteProcess, item: unknown) {
  const raw = JSON.stringify({ pix: [item] });
  return fetch(`${ponte.urls.production}/rails/pix/notifications`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-pix-signature': signPixNotification(SECRET, raw) },
    body: raw,
  }).then(async (r) => ({ status: r.status, body: (await r.json()) as Json }));
}

export async function poll<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`not reached within ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export { spawnPonte };
