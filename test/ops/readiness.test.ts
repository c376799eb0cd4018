import { createServer, type Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildOperatorApp, buildPublicApp } from '../../src/app.ts';
import type { AppContext } from '../../src/context.ts';
import { connectPostgres } from '../../src/db/postgres.ts';
import { openContext } from '../../src/runtime.ts';
import {
  client,
  eventually,
  startTestServer,
  type TestServer,
  testConfig,
  usingPostgres,
} from '../helpers/server.ts';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.ts';

describe('health and readiness', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ workers: false });
  });
  afterAll(() => server.close());

  it('answers /healthz and /readyz on every listener while the database answers', async () => {
    for (const app of [server.production, server.sandbox, server.operator]) {
      const health = await app.inject({ method: 'GET', url: '/healthz' });
      expect(health.statusCode).toBe(200);
      expect(health.json()).toEqual({ status: 'ok' });
      const ready = await app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(200);
      if (app === server.operator) {
        // the operator listener says which pairs have a rate in force (the shared database may hold some)
        const { rates, ...rest } = ready.json();
        expect(rest).toEqual({ status: 'ready' });
        expect(Object.keys(rates).sort()).toEqual([
          'BRL/USDC',
          'BRL/USDT',
          'USD/USDC',
          'USD/USDT',
          'USDC/BRL',
          'USDC/USD',
          'USDT/BRL',
          'USDT/USD',
        ]);
        for (const state of Object.values(rates)) expect(['available', 'missing']).toContain(state);
      } else expect(ready.json()).toEqual({ status: 'ready' });
    }
  });
});

describe('readiness of the rates', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ workers: false, ownDatabase: true });
  });
  afterAll(() => server.close());

  it('names on the operator listener each pair without a rate in force, and stays ready', async () => {
    const readyz = async () => (await server.operator.inject({ method: 'GET', url: '/readyz' })).json();
    expect((await readyz()).rates).toEqual({
      'BRL/USDC': 'missing',
      'BRL/USDT': 'missing',
      'USDC/BRL': 'missing',
      'USDT/BRL': 'missing',
      'USD/USDC': 'missing',
      'USD/USDT': 'missing',
      'USDC/USD': 'missing',
      'USDT/USD': 'missing',
    });
    const set = await server.operator.inject({
      method: 'POST',
      url: '/operator/rates',
      payload: { pair: 'BRL/USDC', rate: '0.18' },
      headers: { authorization: `Bearer ${server.operatorToken}` },
    });
    expect(set.statusCode).toBe(201);
    const ready = await readyz();
    expect(ready.status).toBe('ready');
    expect(ready.rates).toMatchObject({ 'BRL/USDC': 'available', 'BRL/USDT': 'missing' });
  });
});

describe('readiness of the chain nodes', () => {
  // a node answering eth_blockNumber for ETHEREUM; nothing listens on POLYGON's port
  let node: Server;
  let server: TestServer;
  const DOWN_PORT = 41_998;
  const SECRET = 'k3yOfTheRpcProvider';
  beforeAll(async () => {
    node = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => {
        body += chunk;
      });
      request.on('end', () => {
        const call = JSON.parse(body);
        const answer = (one: { id: number }) => ({ jsonrpc: '2.0', id: one.id, result: '0x10' });
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify(Array.isArray(call) ? call.map(answer) : answer(call)));
      });
    });
    await new Promise<void>((resolve) => node.listen(41_997, '127.0.0.1', resolve));
    server = await startTestServer({
      workers: false,
      env: {
        PONTE_CHAIN_ETHEREUM_RPC_URL: `http://127.0.0.1:41997/v3/${SECRET}`,
        PONTE_CHAIN_POLYGON_RPC_URL: `http://user:${SECRET}@127.0.0.1:${DOWN_PORT}/v3/${SECRET}`,
      },
    });
  });
  afterAll(async () => {
    await server?.close();
    await new Promise((resolve) => node.close(resolve));
  });

  it('answers 503 naming the chain whose node does not answer, without its URL; the sandbox stays ready', async () => {
    expect((await server.sandbox.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    for (const app of [server.production, server.operator]) {
      const ready = await app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(ready.json()).toMatchObject({
        code: 'service_unavailable',
        detail: 'Chain nodes not answering: POLYGON',
        notReady: ['chain:POLYGON'],
      });
      expect(ready.body).not.toContain(SECRET);
      expect(ready.body).not.toContain(String(DOWN_PORT));
      expect(ready.body).not.toContain('127.0.0.1');
    }
  });
});

describe.runIf(usingPostgres())('a database outage', () => {
  let proxy: TcpProxy;
  let ctx: AppContext;
  let production: FastifyInstance;
  let operator: FastifyInstance;
  let operatorToken: string;

  beforeAll(async () => {
    const target = new URL(inject('testDatabaseUrl')!);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const proxied = new URL(target);
    proxied.host = `127.0.0.1:${proxy.port}`;
    const setup = testConfig({ DATABASE_URL: proxied.toString(), PONTE_API_KEY_CACHE_TTL_MS: '0' });
    operatorToken = setup.operatorToken;
    ctx = await openContext(setup.config);
    production = await buildPublicApp(ctx, 'production');
    operator = await buildOperatorApp(ctx);
  });
  afterAll(async () => {
    await Promise.all([production?.close(), operator?.close()]);
    await ctx?.db.close();
    await proxy?.close();
  });

  const readyz = () => production.inject({ method: 'GET', url: '/readyz' });

  it('makes /readyz answer 503 service_unavailable, and it recovers by itself when the database is back', async () => {
    const auth = { authorization: `Bearer ${operatorToken}` };
    const project = (
      await operator.inject({
        method: 'POST',
        url: '/operator/projects',
        payload: { name: 'x' },
        headers: auth,
      })
    ).json();
    const issued = (
      await operator.inject({
        method: 'POST',
        url: `/operator/projects/${project.id}/api-keys`,
        payload: { environment: 'production' },
        headers: auth,
      })
    ).json();
    const api = client(production, issued.key);
    expect((await readyz()).statusCode).toBe(200);
    expect((await api.get('/customers')).statusCode).toBe(200);

    proxy.cut();
    const down = await eventually(readyz, (answer) => answer.statusCode === 503);
    expect(down.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(down.json()).toMatchObject({ status: 503, code: 'service_unavailable', notReady: ['database'] });
    const during = await api.get('/customers');
    expect(during.statusCode).toBe(503);
    expect(during.json().code).toBe('service_unavailable');
    expect(during.headers['retry-after']).toBe('1');
    expect(during.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(during.body).not.toMatch(/ECONN|terminated|postgres/i);
    expect((await operator.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(503);

    proxy.restore();
    await eventually(readyz, (answer) => answer.statusCode === 200);
    expect((await api.get('/customers')).statusCode).toBe(200);
  });

  it('fails a transaction whose connection is lost between statements, without crashing the process', async () => {
    const url = inject('testDatabaseUrl')!;
    const db = connectPostgres(url, { max: 2 });
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const work = db.transaction(async (tx) => {
        const [row] = await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
        await admin.query('SELECT pg_terminate_backend($1)', [row!.pid]);
        await eventually(
          () => admin.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [row!.pid]),
          (result) => result.rowCount === 0,
        );
        // The connection went away while no statement ran on it; the next statement fails.
        await tx.query('SELECT 1');
      });
      await expect(work).rejects.toThrow();
      expect(await db.query('SELECT 1 AS ok')).toEqual([{ ok: 1 }]);
    } finally {
      await admin.end();
      await db.close();
    }
  });
});
