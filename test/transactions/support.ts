/**
 * Helpers for money tests. Conversion rates are platform-wide, so a file whose assertions depend on the
 * rates in force gets a database of its own.
 */
import { approvedCustomer, individualBody } from '../helpers/factories.ts';
import { type Client, startTestServer, type TestServer, type TestServerOptions } from '../helpers/server.ts';

export type IsolatedServer = TestServer;

export function startIsolatedServer(
  options: Omit<TestServerOptions, 'ownDatabase'> = {},
): Promise<IsolatedServer> {
  return startTestServer({ ...options, ownDatabase: true });
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
