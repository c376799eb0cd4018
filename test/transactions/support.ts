/**
 * Helpers for money tests. Conversion rates are platform-wide, so on PostgreSQL (one database shared by
 * every test file) a file whose assertions depend on the rates in force gets a database of its own.
 */
import type { Clock } from '../../src/core/clock.ts';
import { ownDatabase } from '../helpers/database.ts';
import { approvedCustomer, individualBody } from '../helpers/factories.ts';
import { type Client, startTestServer, type TestServer } from '../helpers/server.ts';

export type IsolatedServer = TestServer & { dropDatabase(): Promise<void> };

export async function startIsolatedServer(
  options: { env?: NodeJS.ProcessEnv; clock?: Clock; workers?: boolean } = {},
): Promise<IsolatedServer> {
  const database = await ownDatabase('ponte_money');
  const server = await startTestServer({
    ...options,
    env: { ...options.env, ...(database ? { DATABASE_URL: database.url } : {}) },
  });
  return { ...server, dropDatabase: async () => database?.drop() };
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
