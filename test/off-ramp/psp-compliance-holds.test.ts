/**
 * A compliance hold stops a PSP send that was accepted before the hold (the PSP answering 503 to sends
 * at that moment): once the PSP recovers, the send is held at the moment it would leave, never sent,
 * until the case is decided (confirmed: FAILED, reserve released; cleared: sent and paid).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenSubject } from '../../src/modules/screening/service.ts';
import { type Client, client, eventually } from '../helpers/server.ts';
import { idOf, pspProduction } from '../psp/production.ts';
import type { PspSimulator } from '../psp/simulator.ts';
import { expectNoViolations, pspEnv, startSimulator, terminatedDelivery } from '../psp/support.ts';
import { importFixture, OFAC_DIR } from '../screening/support.ts';
import { type IsolatedServer, setRate, startIsolatedServer } from '../transactions/support.ts';
import { balances, offRamp, settled, unbalanced } from './support.ts';

let server: IsolatedServer;
let simulator: PspSimulator;
let production: Client;
let projectId: string;

beforeAll(async () => {
  simulator = await startSimulator({
    deliver: terminatedDelivery(() => server?.production),
  });
  server = await startIsolatedServer({
    env: pspEnv(simulator, {
      PONTE_PIX_PAYOUT_STATUS_AFTER_MS: '300',
      PONTE_PIX_RECONCILE_EVERY_MS: '600000',
      PONTE_OFFRAMP_FEE_BPS: '0',
      PONTE_TRANSACTION_MIN_FEE: '0.00',
    }),
  });
  await server.ctx.pix.psp('production')!.registerWebhook();
  const tenant = await server.newTenant();
  projectId = tenant.projectId;
  production = client(server.production, tenant.productionKey);
  await setRate(server, 'BRL/USDC', '0.2');
  await setRate(server, 'USDC/BRL', '5');
  await importFixture(server, 'ofac-sdn', OFAC_DIR);
});
afterAll(async () => {
  await server?.close();
  await simulator?.close();
});
expectNoViolations(() => simulator);

const { fundedCustomer } = pspProduction(() => ({ server, simulator, production }));

/** The customer put on hold as a re-screening does when a new list version names it; the case's id. */
async function putOnHold(customerId: string): Promise<string> {
  const opened = await server.ctx.db.transaction((tx) =>
    screenSubject(
      tx,
      {
        type: 'CUSTOMER',
        id: customerId,
        customerId,
        tenant: { projectId, environment: 'production' },
        party: {
          name: 'João Carlos dos Santos da Silva',
          kind: 'INDIVIDUAL',
          birthDate: '1975-02-02',
          country: 'BRA',
        },
      },
      server.config.screening.threshold,
      server.ctx.clock(),
    ),
  );
  return opened!.row.id;
}

async function decide(caseId: string, decision: 'CLEAR' | 'CONFIRM') {
  const response = await server.operator.inject({
    method: 'POST',
    url: `/operator/screening/cases/${caseId}/decision`,
    payload: { decision, comment: 'reviewed against the list entry' },
    headers: { authorization: `Bearer ${server.operatorToken}` },
  });
  expect(response.statusCode, response.body).toBe(200);
}

const payoutOf = async (transactionId: string) =>
  (
    await server.ctx.db.query<{ status: string; attempts: number; held_since: Date | null }>(
      'SELECT status, attempts, held_since FROM pix_payouts WHERE transaction_id = $1',
      [transactionId],
    )
  )[0];

/**
 * An off-ramp whose send the PSP answered 503, the customer put on hold, then the PSP back: the retry is
 * held at the moment it would leave. Returns what the test decides on.
 */
async function offRampHeldAfterOutage() {
  const { customer, accountId } = await fundedCustomer();
  const before = await balances(production, customer.id);
  simulator.fail(/^PUT \/v3\/gn\/pix\//, 503, 1);
  const created = await offRamp(production, {
    customerId: customer.id,
    bankAccountId: accountId,
    sourceCurrency: 'USDC',
    sourceAmount: '1',
  });
  expect(created.statusCode).toBe(201);
  const transaction = created.json();
  await eventually(
    () => payoutOf(transaction.id),
    (payout) => payout !== undefined && payout.attempts >= 1,
  );
  const caseId = await putOnHold(customer.id);
  // the PSP is back and the retry comes due
  await server.ctx.db.query(
    "UPDATE pix_payouts SET next_attempt_at = $2 WHERE transaction_id = $1 AND status = 'PENDING'",
    [transaction.id, server.ctx.clock()],
  );
  const held = await eventually(
    () => payoutOf(transaction.id),
    (payout) => payout !== undefined && payout.held_since !== null,
  );
  expect(held!.status).toBe('PENDING');
  await simulator.idle();
  expect(simulator.sends.has(idOf(transaction))).toBe(false);
  expect((await production.get(`/transactions/${transaction.id}`)).json().status).toBe('TRANSFERRING_FIAT');
  return { customer, before, transaction, caseId };
}

describe('a hold stops a PSP send accepted before it', () => {
  it('never sends an off-ramp accepted before the hold once the PSP recovers; a confirmed match FAILS it, reserve released', async () => {
    const { customer, before, transaction, caseId } = await offRampHeldAfterOutage();
    await decide(caseId, 'CONFIRM');
    // its first send was answered 503: the PSP is asked before it is refused, and knows nothing of it
    const done = await eventually(
      () => production.get(`/transactions/${transaction.id}`).then((r) => r.json()),
      (t) => t.status === 'FAILED',
    );
    expect(done).toMatchObject({ status: 'FAILED', failureCode: 'compliance_refused' });
    expect(simulator.calls.some((c) => c.path === `/v2/gn/pix/enviados/id-envio/${idOf(transaction)}`)).toBe(
      true,
    );
    await simulator.idle();
    expect(simulator.sends.has(idOf(transaction))).toBe(false);
    expect(await balances(production, customer.id)).toEqual(before);
    expect(await unbalanced(server)).toEqual([]);
  });

  it('sends the held off-ramp once the case is cleared, and it is paid', async () => {
    const { transaction, caseId } = await offRampHeldAfterOutage();
    await decide(caseId, 'CLEAR');
    const done = await settled(production, transaction.id);
    expect(done.status).toBe('SUCCESS');
    expect(simulator.sends.has(idOf(transaction))).toBe(true);
    expect(await unbalanced(server)).toEqual([]);
  });
});
