import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ON_RAMP_STATES } from '../../src/modules/on-ramp/state.ts';
import { TRANSACTION_STATUSES } from '../../src/modules/transactions/state.ts';
import { type Client, client } from '../helpers/server.ts';
import {
  approvedIndividual,
  createOnRamp,
  type IsolatedServer,
  setRate,
  startIsolatedServer,
} from '../transactions/support.ts';

const ON_RAMP_TRANSITIONS = ON_RAMP_STATES.transitions;

let server: IsolatedServer;
let sandbox: Client;
let stranger: Client;

beforeAll(async () => {
  // 0.50% plus 1.00 BRL per on-ramp
  server = await startIsolatedServer({ env: { PONTE_ONRAMP_FEE_BPS: '50', PONTE_ONRAMP_FEE_FLAT: '1.00' } });
  sandbox = client(server.sandbox, (await server.newTenant()).sandboxKey);
  stranger = client(server.sandbox, (await server.newTenant('Stranger')).sandboxKey);
});
afterAll(async () => {
  await server.close();
});

const deposit = (api: Client, id: string, body: Record<string, unknown> = {}) =>
  api.post(`/sandbox/transactions/${id}/deposit`, body);

const events = (id: string) =>
  server.ctx.db.query<{ type: string; data: { status: string; timeline: unknown[] } }>(
    'SELECT type, data FROM events WHERE resource_id = $1 ORDER BY seq',
    [id],
  );

describe('the state machine', () => {
  it('has a row for every status; SUCCESS, FAILED and EXPIRED are final', () => {
    expect(Object.keys(ON_RAMP_TRANSITIONS).sort()).toEqual([...TRANSACTION_STATUSES].sort());
    for (const status of ['SUCCESS', 'FAILED', 'EXPIRED'] as const) {
      expect(ON_RAMP_TRANSITIONS[status]).toEqual([]);
    }
  });

  it('only a waiting charge expires; any step after the deposit may fail', () => {
    for (const from of TRANSACTION_STATUSES) {
      for (const to of ON_RAMP_TRANSITIONS[from]) {
        if (to === 'EXPIRED') expect(from).toBe('AWAITING_FUNDS');
        if (to === 'FAILED')
          expect(['TRANSFERRING_FIAT', 'TRADING', 'TRANSFERRING_STABLECOIN']).toContain(from);
      }
    }
  });

  it('every transition a deposit drives is in the table, in order', async () => {
    await setRate(server, 'BRL/USDC', '0.1834');
    const customer = await approvedIndividual(sandbox);
    const created = await createOnRamp(sandbox, customer.id, '1000.00');
    const done = (await deposit(sandbox, created.id)).json();
    const path = done.timeline.map((step: { status: string }) => step.status);
    for (let i = 1; i < path.length; i++) {
      expect(ON_RAMP_TRANSITIONS[path[i - 1] as keyof typeof ON_RAMP_TRANSITIONS]).toContain(path[i]);
    }
  });
});

describe('POST /sandbox/transactions/{id}/deposit', () => {
  it('drives the requested amount through every step to SUCCESS, with an exact receipt', async () => {
    await setRate(server, 'BRL/USDC', '0.1834');
    const customer = await approvedIndividual(sandbox);
    const created = await createOnRamp(sandbox, customer.id, '1000.00');
    const response = await deposit(sandbox, created.id);
    expect(response.statusCode).toBe(200);
    const done = response.json();
    expect(done.status).toBe('SUCCESS');
    expect(done.timeline.map((s: { status: string }) => s.status)).toEqual([
      'AWAITING_FUNDS',
      'TRANSFERRING_FIAT',
      'TRADING',
      'TRANSFERRING_STABLECOIN',
      'SUCCESS',
    ]);
    // fee = 1000.00 × 0.50% + 1.00 = 6.00; net = 994.00; 994.00 × 0.1834 = 182.2996
    expect(done.receipt).toEqual({
      sourceCurrency: 'BRL',
      sourceAmount: '1000.00',
      fee: '6.00',
      fees: { platform: { amount: '6.00', currency: 'BRL' }, partner: { amount: '0.00', currency: 'BRL' } },
      netAmount: '994.00',
      rate: '0.1834',
      targetCurrency: 'USDC',
      targetAmount: '182.299600',
      // priced from the operator's rate: the rate is its own reference
      reference: { source: 'OPERATOR', rate: '0.1834', at: null },
      blockchain: {
        network: 'ETHEREUM',
        transactionHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
        blockExplorerUrl: `https://sepolia.etherscan.io/tx/${done.receipt.blockchain.transactionHash}`,
      },
    });
    expect(done.failureReason).toBeNull();
    expect((await sandbox.get(`/transactions/${created.id}`)).json()).toEqual(done);
  });

  it('records transaction.created, then one transaction.updated per step, each carrying the transaction as it was', async () => {
    await setRate(server, 'BRL/USDC', '0.1834');
    const customer = await approvedIndividual(sandbox);
    const created = await createOnRamp(sandbox, customer.id, '100.00');
    await deposit(sandbox, created.id);
    const recorded = await events(created.id);
    expect(recorded.map((e) => e.type)).toEqual([
      'transaction.created',
      ...Array(4).fill('transaction.updated'),
    ]);
    expect(recorded.map((e) => e.data.status)).toEqual([
      'AWAITING_FUNDS',
      'TRANSFERRING_FIAT',
      'TRADING',
      'TRANSFERRING_STABLECOIN',
      'SUCCESS',
    ]);
    expect(recorded.map((e) => e.data.timeline.length)).toEqual([1, 2, 3, 4, 5]);
  });

  it('rounds the stablecoin amount down to 6 decimals', async () => {
    await setRate(server, 'BRL/USDT', '0.1234567891');
    const customer = await approvedIndividual(sandbox);
    const created = await createOnRamp(sandbox, customer.id, '10.00', { targetCurrency: 'USDT' });
    const done = (await deposit(sandbox, created.id)).json();
    // fee = 0.05 + 1.00 = 1.05; net = 8.95; 8.95 × 0.1234567891 = 1.104938262445 → 1.104938
    expect(done.receipt).toMatchObject({
      fee: '1.05',
      netAmount: '8.95',
      rate: '0.1234567891',
      targetCurrency: 'USDT',
      targetAmount: '1.104938',
    });
  });

  it('FAILS when the amount differs from the requested one, with the reason', async () => {
    const customer = await approvedIndividual(sandbox);
    const created = await createOnRamp(sandbox, customer.id, '100.00');
    const done = (await deposit(sandbox, created.id, { amount: '99.99' })).json();
    expect(done.status).toBe('FAILED');
    expect(done.timeline.map((s: { status: string }) => s.status)).toEqual([
      'AWAITING_FUNDS',
      'TRANSFERRING_FIAT',
      'FAILED',
    ]);
    expect(done.failureReason).toBe(
      'The deposit of 99.99 BRL differs from the requested 100.00 BRL; it is held for refund',
    );
    expect(done.receipt).toBeNull();
  });

  it('refuses a second deposit with 409 invalid_state_transition', async () => {
    await setRate(server, 'BRL/USDC', '0.1834');
    const customer = await approvedIndividual(sandbox);
    const created = await createOnRamp(sandbox, customer.id, '20.00');
    await deposit(sandbox, created.id);
    const again = await deposit(sandbox, created.id);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('invalid_state_transition');
  });

  it("answers 404 for another project's transaction and does not touch it", async () => {
    const customer = await approvedIndividual(sandbox);
    const created = await createOnRamp(sandbox, customer.id, '20.00');
    expect((await deposit(stranger, created.id)).statusCode).toBe(404);
    expect((await sandbox.get(`/transactions/${created.id}`)).json().status).toBe('AWAITING_FUNDS');
  });

  it('refuses an invalid amount with a pointer', async () => {
    const customer = await approvedIndividual(sandbox);
    const created = await createOnRamp(sandbox, customer.id, '20.00');
    for (const amount of ['abc', '0', '1.234']) {
      const response = await deposit(sandbox, created.id, { amount });
      expect(response.statusCode).toBe(400);
      expect(response.json().errors[0].pointer).toBe('/body/amount');
    }
  });

  it('is not served on the production listener', async () => {
    const production = client(server.production, (await server.newTenant()).productionKey);
    const response = await production.post(
      '/sandbox/transactions/00000000-0000-4000-8000-000000000000/deposit',
      {},
    );
    expect(response.statusCode).toBe(404);
  });
});

describe('fees', () => {
  it('refuses an amount the fee would swallow', async () => {
    const customer = await approvedIndividual(sandbox);
    const response = await sandbox.post('/transactions/on-ramp', {
      customerId: customer.id,
      currency: 'BRL',
      amount: '1.00',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual([
      { pointer: '/body/amount', message: 'must be more than the fee of 1.01' },
    ]);
  });
});
