/** The Travel Rule through the SDK: a deposit at or above the threshold waits until its originator is supplied. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validCpf } from '../../../test/helpers/factories.ts';
import { PonteApiError } from '../src/index.ts';
import { type SdkServer, STARTUP_TIMEOUT_MS, startSdkServer, until } from './support.ts';

let server: SdkServer;
beforeAll(async () => {
  server = await startSdkServer({ env: { PONTE_TRAVEL_RULE_THRESHOLD: '100' } });
}, STARTUP_TIMEOUT_MS);
afterAll(() => server?.close());

describe('Travel Rule through the SDK', () => {
  it('transactions.supplyTravelRule credits a deposit AWAITING_TRAVEL_RULE; a bad body is a typed 400', async () => {
    const ponte = server.ponte();
    const customer = await ponte.customers.create({
      type: 'INDIVIDUAL',
      name: 'Renata Quintela',
      taxId: validCpf('5'),
      country: 'BRA',
      email: 'rq@example.com',
    });
    await until(
      () => ponte.customers.retrieve(customer.id),
      (read) => read.verification.status === 'APPROVED',
    );
    const [wallet] = (await ponte.wallets.list(customer.id)).data.filter((w) => w.blockchain === 'ETHEREUM');
    const simulated = await fetch(`${server.url}/sandbox/wallets/${wallet!.address}/deposit`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.sandboxKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ currency: 'USDC', amount: '150', blockchain: 'ETHEREUM' }),
    });
    const deposit = (await simulated.json()) as { id: string; status: string };
    expect(deposit.status).toBe('AWAITING_TRAVEL_RULE');
    const refused = await ponte.transactions
      .supplyTravelRule(deposit.id, { originator: { name: 'Tomás Ribeiro' }, walletType: 'HOSTED' })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(PonteApiError);
    expect((refused as PonteApiError).status).toBe(400);
    const credited = await ponte.transactions.supplyTravelRule(deposit.id, {
      originator: { name: 'Tomás Ribeiro' },
      walletType: 'SELF_HOSTED',
    });
    expect(credited.status).toBe('SUCCESS');
    expect(credited.travelRule?.walletType).toBe('SELF_HOSTED');
  });
});
