/**
 * The Travel Rule's rolling 24 h sum holds under concurrency across processes: two Ponte processes on one
 * PostgreSQL database receive six simultaneous transfers of 400 USDC from one customer to one external
 * address, none with Travel Rule data. Only two fit under the 1,000 USD threshold together; the other four
 * are refused with a pointer to `travelRule`, and nothing of theirs is booked.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { individualBody } from '../helpers/factories.ts';
import { usingPostgres } from '../helpers/server.ts';
import { call, type Json, keysOver, poll } from '../off-ramp/processes.ts';
import { freePort, type PonteProcess, spawnPonte, stopPonte } from '../ops/ponte-process.ts';

const ENV = {
  PONTE_RATE_LIMIT_PER_SECOND: '1000000',
  PONTE_RATE_LIMIT_BURST: '1000000',
  PONTE_SANDBOX_CHAIN_CONFIRMATION_MS: '0',
};

let processes: PonteProcess[] = [];
afterAll(async () => {
  await Promise.all(processes.map(stopPonte));
  processes = [];
});

describe.runIf(usingPostgres())('the Travel Rule sum on two processes', () => {
  it('lets at most the transfers that stay under the threshold together through, on two processes at once', async () => {
    const dashboard = async () => ({ ...ENV, PONTE_DASHBOARD_URL: `http://127.0.0.1:${await freePort()}` });
    const [a, b] = await Promise.all([spawnPonte(await dashboard()), spawnPonte(await dashboard())]);
    processes.push(a, b);
    const { sandbox: key } = await keysOver(a);
    const created = await call(a.urls.sandbox, 'POST', '/customers', key, individualBody());
    const customer = created.body.id as string;
    await poll(
      () => call(a.urls.sandbox, 'GET', `/customers/${customer}`, key),
      (read: Json) => read.body.verification?.status === 'APPROVED',
    );
    const wallets = (await call(a.urls.sandbox, 'GET', `/customers/${customer}/wallets`, key)).body
      .data as Json[];
    const ethereum = wallets.find((w) => w.blockchain === 'ETHEREUM');
    for (let i = 0; i < 3; i++) {
      const funded = await call(a.urls.sandbox, 'POST', `/sandbox/wallets/${ethereum.address}/deposit`, key, {
        currency: 'USDC',
        amount: '999',
      });
      expect(funded.body.status).toBe('SUCCESS');
    }
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        call((i % 2 === 0 ? a : b).urls.sandbox, 'POST', '/transactions/transfer', key, {
          currency: 'USDC',
          from: customer,
          to: '0x52908400098527886E0F7030069857D2E4169EE7',
          amount: '400',
        }),
      ),
    );
    const accepted = answers.filter((r) => r.status === 201);
    const refused = answers.filter((r) => r.status !== 201);
    expect(accepted.length).toBe(2);
    for (const r of refused) {
      expect(r.status).toBe(400);
      expect(r.body.errors[0].pointer).toBe('/body/travelRule');
    }
    const balances = await call(b.urls.sandbox, 'GET', `/customers/${customer}/balances`, key);
    expect(balances.body.balances.find((x: Json) => x.currency === 'USDC').amount).toBe('2197.000000');
  }, 240_000);
});
