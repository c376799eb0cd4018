/**
 * Transfers in opposite directions (A→B and B→A at the same time) never deadlock: both customers are
 * locked in one order, so every transfer is answered (201, or a clean 422 insufficient_funds), none 5xx,
 * and the balances are exact. On one process (PGlite or PostgreSQL) and on two processes over one
 * PostgreSQL database.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { approvedCustomer, individualBody } from '../helpers/factories.ts';
import { type Client, client, startTestServer, type TestServer, usingPostgres } from '../helpers/server.ts';
import { freePort, type PonteProcess, spawnPonte, stopPonte } from '../ops/ponte-process.ts';
import { fund, totalOf, transfer } from './support.ts';

const ROUNDS = 20;

let server: TestServer | undefined;
let processes: PonteProcess[] = [];
afterAll(async () => {
  await server?.close();
  await Promise.all(processes.map(stopPonte));
  processes = [];
});

type Answer = { status: number; body: Record<string, unknown> };

/** Every answer a 201 or a 422 insufficient_funds; the sums moved each way, from the 201s. */
function settle(answers: Answer[], a: string, b: string) {
  const failures = answers.filter((r) => r.status !== 201);
  for (const failure of failures) {
    expect(failure).toMatchObject({ status: 422, body: { code: 'insufficient_funds' } });
  }
  let aToB = 0;
  let bToA = 0;
  for (const answer of answers.filter((r) => r.status === 201)) {
    const request = answer.body.request as { from: string; to: string };
    expect(answer.body.status).toBe('SUCCESS');
    if (request.from === a && request.to === b) aToB++;
    else if (request.from === b && request.to === a) bToA++;
    else throw new Error(`unexpected transfer ${JSON.stringify(request)}`);
  }
  return { aToB, bToA };
}

describe('opposite-direction transfers on one process', () => {
  it('answers 20 concurrent transfers A→B and B→A without a 5xx, balances exact', async () => {
    server = await startTestServer();
    const sandbox: Client = client(server.sandbox, (await server.newTenant()).sandboxKey);
    const [a, b] = await Promise.all([approvedCustomer(sandbox), approvedCustomer(sandbox)]);
    await fund(sandbox, a.id, '100.000000');
    await fund(sandbox, b.id, '100.000000');

    const answers = await Promise.all(
      Array.from({ length: ROUNDS }, (_, i) => {
        const [from, to] = i % 2 === 0 ? [a.id, b.id] : [b.id, a.id];
        return transfer(sandbox, { currency: 'USDC', from, to, amount: '1.000000' }).then(
          (r): Answer => ({ status: r.statusCode, body: r.json() }),
        );
      }),
    );
    const { aToB, bToA } = settle(answers, a.id, b.id);
    // each side holds 100 and sends 10 of 1: every transfer fits
    expect(aToB + bToA).toBe(ROUNDS);
    expect(await totalOf(sandbox, a.id, 'USDC')).toBe(`${100 - aToB + bToA}.000000`);
    expect(await totalOf(sandbox, b.id, 'USDC')).toBe(`${100 - bToA + aToB}.000000`);
  }, 120_000);
});

describe.runIf(usingPostgres())('opposite-direction transfers on two processes', () => {
  it('answers 40 concurrent transfers A→B and B→A over two processes without a 5xx, balances exact', async () => {
    const env = async () => ({
      PONTE_RATE_LIMIT_PER_SECOND: '1000000',
      PONTE_RATE_LIMIT_BURST: '1000000',
      PONTE_SANDBOX_CHAIN_CONFIRMATION_MS: '0',
      PONTE_DASHBOARD_URL: `http://127.0.0.1:${await freePort()}`,
    });
    const [one, two] = await Promise.all([spawnPonte(await env()), spawnPonte(await env())]);
    processes.push(one, two);
    const headers = { authorization: `Bearer ${one.operatorToken}`, 'content-type': 'application/json' };
    const post = async (url: string, body: unknown) =>
      (await (await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) })).json()) as {
        id: string;
        key: string;
      };
    const project = await post(`${one.urls.operator}/operator/projects`, { name: 'Opposite transfers' });
    const { key } = await post(`${one.urls.operator}/operator/projects/${project.id}/api-keys`, {
      environment: 'sandbox',
    });
    const call = async (
      ponte: PonteProcess,
      method: string,
      path: string,
      body?: unknown,
    ): Promise<Answer> => {
      const response = await fetch(`${ponte.urls.sandbox}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    const approved = async () => {
      const created = await call(one, 'POST', '/customers', individualBody());
      for (let i = 0; i < 200; i++) {
        const read = await call(one, 'GET', `/customers/${created.body.id}`);
        if ((read.body.verification as { status: string }).status === 'APPROVED')
          return created.body.id as string;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error('customer not approved in time');
    };
    const [a, b] = await Promise.all([approved(), approved()]);
    for (const id of [a, b]) {
      const wallets = (await call(one, 'GET', `/customers/${id}/wallets`)).body.data as {
        blockchain: string;
        address: string;
      }[];
      const ethereum = wallets.find((w) => w.blockchain === 'ETHEREUM')!;
      const funded = await call(one, 'POST', `/sandbox/wallets/${ethereum.address}/deposit`, {
        currency: 'USDC',
        amount: '10.000000',
      });
      expect(funded.body.status).toBe('SUCCESS');
    }

    // 40 transfers of 1 each way: either side may run dry for a moment, which is a clean 422
    const answers = await Promise.all(
      Array.from({ length: 2 * ROUNDS }, (_, i) => {
        const [from, to] = i % 2 === 0 ? [a, b] : [b, a];
        return call(i % 4 < 2 ? one : two, 'POST', '/transactions/transfer', {
          currency: 'USDC',
          from,
          to,
          amount: '1.000000',
        });
      }),
    );
    const { aToB, bToA } = settle(answers, a, b);
    expect(aToB + bToA).toBeGreaterThan(0);
    const balance = async (id: string) =>
      (
        (await call(two, 'GET', `/customers/${id}/balances`)).body.balances as {
          currency: string;
          amount: string;
        }[]
      ).find((x) => x.currency === 'USDC')!.amount;
    expect(await balance(a)).toBe(`${10 - aToB + bToA}.000000`);
    expect(await balance(b)).toBe(`${10 - bToA + aToB}.000000`);
  }, 240_000);
});
