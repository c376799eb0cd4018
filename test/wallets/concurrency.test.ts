/**
 * Balances hold under concurrency across processes: two Ponte processes on one PostgreSQL database
 * receive ten simultaneous transfers, each of a quarter of the sender's balance. At most four can be
 * accepted; the rest are refused with insufficient_funds, and the books reconcile exactly.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { individualBody } from '../helpers/factories.ts';
import { usingPostgres } from '../helpers/server.ts';
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

async function sandboxKey(ponte: PonteProcess): Promise<string> {
  const headers = { authorization: `Bearer ${ponte.operatorToken}`, 'content-type': 'application/json' };
  const project = (await (
    await fetch(`${ponte.urls.operator}/operator/projects`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: 'Wallet concurrency partner' }),
    })
  ).json()) as { id: string };
  const issued = (await (
    await fetch(`${ponte.urls.operator}/operator/projects/${project.id}/api-keys`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ environment: 'sandbox' }),
    })
  ).json()) as { key: string };
  return issued.key;
}

type Amount = { currency: string; amount: string };
/** The parts of the answers this file reads. */
type Answer = {
  id?: string;
  status?: string;
  code?: string;
  verification?: { status: string };
  data?: { blockchain: string; address: string; balances: Amount[] }[];
  balances?: Amount[];
  request?: { to: string };
};

describe.runIf(usingPostgres())('concurrent transfers on two processes', () => {
  it('accepts at most 4 of 10 concurrent transfers of a quarter of the balance each, exactly reconciled', async () => {
    // each process on its own dashboard port too
    const dashboard = async () => ({ ...ENV, PONTE_DASHBOARD_URL: `http://127.0.0.1:${await freePort()}` });
    const [a, b] = await Promise.all([spawnPonte(await dashboard()), spawnPonte(await dashboard())]);
    processes.push(a, b);
    const key = await sandboxKey(a);
    const call = async (ponte: PonteProcess, method: string, path: string, body?: unknown) => {
      const response = await fetch(`${ponte.urls.sandbox}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: response.status, body: (await response.json()) as Answer };
    };
    const approved = async () => {
      const created = await call(a, 'POST', '/customers', individualBody());
      for (let i = 0; i < 200; i++) {
        const read = await call(a, 'GET', `/customers/${created.body.id}`);
        if (read.body.verification?.status === 'APPROVED') return created.body.id as string;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error('customer not approved in time');
    };
    const [sender, recipient] = await Promise.all([approved(), approved()]);
    const wallets = (await call(a, 'GET', `/customers/${sender}/wallets`)).body.data ?? [];
    const ethereum = wallets.find((w) => w.blockchain === 'ETHEREUM')!;
    const funded = await call(a, 'POST', `/sandbox/wallets/${ethereum.address}/deposit`, {
      currency: 'USDC',
      amount: '100.000000',
    });
    expect(funded.body.status).toBe('SUCCESS');

    const external = '0x52908400098527886E0F7030069857D2E4169EE7';
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        call(i % 2 === 0 ? a : b, 'POST', '/transactions/transfer', {
          currency: 'USDC',
          from: sender,
          to: i % 4 < 2 ? recipient : external,
          amount: '25.000000',
        }),
      ),
    );
    const accepted = answers.filter((r) => r.status === 201);
    const refused = answers.filter((r) => r.status !== 201);
    expect(accepted.length).toBeLessThanOrEqual(4);
    expect(accepted.length).toBe(4);
    for (const r of refused) expect(r).toMatchObject({ status: 422, body: { code: 'insufficient_funds' } });

    const balanceOf = async (customer: string) =>
      (await call(b, 'GET', `/customers/${customer}/balances`)).body.balances?.find(
        (x) => x.currency === 'USDC',
      )?.amount;
    expect(await balanceOf(sender)).toBe('0.000000');
    const toRecipient = accepted.filter((r) => r.body.request?.to === recipient).length;
    expect(await balanceOf(recipient)).toBe(`${25 * toRecipient}.000000`);
    const senderWallets = (await call(b, 'GET', `/customers/${sender}/wallets`)).body.data ?? [];
    const total = senderWallets
      .flatMap((w) => w.balances)
      .filter((x) => x.currency === 'USDC')
      .reduce((sum, x) => sum + Number(x.amount), 0);
    expect(total).toBe(0);
  }, 240_000);
});
