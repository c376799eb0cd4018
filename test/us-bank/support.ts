/**
 * A Ponte whose sandbox banks at the Increase simulator, its sandbox listener on a real port so that the
 * simulator's webhooks reach `POST /webhooks/increase`, and the simulator's sandbox simulation routes.
 */
import type { AddressInfo } from 'node:net';
import { createIncreaseSimulations } from '../../src/rails/increase/simulations.ts';
import { startTestApi } from '../helpers/server.ts';
import { SIMULATOR_ACCOUNT_ID, SIMULATOR_API_KEY, startIncreaseSimulator } from '../increase/simulator.ts';

/**
 * `ownDatabase`: for a file that drives the workers' passes itself with a later clock (they claim every
 * due payout of the database, which must then be this file's own).
 */
export async function openIncreaseSandbox(secret: string, options: { ownDatabase?: boolean } = {}) {
  const sim = await startIncreaseSimulator({ webhookSecret: secret });
  const { server, sandbox } = await startTestApi({
    ...options,
    env: {
      PONTE_SANDBOX_USD_BANK: 'increase',
      PONTE_SANDBOX_INCREASE_URL: sim.url,
      PONTE_SANDBOX_INCREASE_API_KEY: SIMULATOR_API_KEY,
      PONTE_SANDBOX_INCREASE_ACCOUNT_ID: SIMULATOR_ACCOUNT_ID,
      PONTE_SANDBOX_INCREASE_WEBHOOK_SECRET: secret,
    },
  });
  await server.sandbox.listen({ port: 0, host: '127.0.0.1' });
  const webhookUrl = `http://127.0.0.1:${(server.sandbox.server.address() as AddressInfo).port}/webhooks/increase`;
  sim.setWebhookUrl(webhookUrl);
  const simulate = createIncreaseSimulations({
    url: new URL(sim.url),
    apiKey: SIMULATOR_API_KEY,
    accountId: SIMULATOR_ACCOUNT_ID,
    webhookSecret: secret,
    maxRetries: 0,
  });
  return { sim, server, sandbox, webhookUrl, simulate };
}
