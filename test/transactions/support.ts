/**
 * Helpers for money tests. Conversion rates are platform-wide, so on PostgreSQL (one database shared by
 * every test file) a file whose assertions depend on the rates in force gets a database of its own.
 */
import pg from 'pg';
import { inject } from 'vitest';
import type { Clock } from '../../src/core/clock.ts';
import { approvedCustomer, individualBody } from '../helpers/factories.ts';
import { type Client, startTestServer, type TestServer } from '../helpers/server.ts';

export type IsolatedServer = TestServer & { dropDatabase(): Promise<void> };

export async function startIsolatedServer(
  options: { env?: NodeJS.ProcessEnv; clock?: Clock; workers?: boolean } = {},
): Promise<IsolatedServer> {
  const shared = inject('testDatabaseUrl');
  if (!shared) {
    const server = await startTestServer(options);
    return { ...server, dropDatabase: async () => {} };
  }
  const name = `ponte_money_${Date.now()}_${process.pid}_${Math.floor(Math.random() * 1e6)}`;
  const admin = new pg.Client({ connectionString: shared });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(shared);
  url.pathname = `/${name}`;
  const server = await startTestServer({ ...options, env: { ...options.env, DATABASE_URL: url.toString() } });
  return {
    ...server,
    async dropDatabase() {
      const cleanup = new pg.Client({ connectionString: shared });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}

export async function setRate(server: TestServer, pair: string, rate: string) {
  const response = await server.operator.inject({
    method: 'POST',
    url: '/operator/rates',
    payload: { pair, rate },
    headers: { authorization: `Bearer ${server.operatorToken}` },
  });
  if (response.statusCode !== 201) throw new Error(`set rate: ${response.statusCode} ${response.body}`);
  return response.json();
}

export async function onRamp(
  api: Client,
  customerId: string,
  amount: string,
  extra: Record<string, unknown> = {},
) {
  return api.post('/transactions/on-ramp', { customerId, currency: 'BRL', amount, ...extra });
}

/** Creates an on-ramp and returns its answer; asserts 201. */
export async function createOnRamp(api: Client, customerId: string, amount: string, extra = {}) {
  const response = await onRamp(api, customerId, amount, extra);
  if (response.statusCode !== 201) throw new Error(`on-ramp: ${response.statusCode} ${response.body}`);
  return response.json();
}

export async function approvedIndividual(api: Client) {
  return approvedCustomer(api, individualBody());
}
