/**
 * A compliance hold stops money at the moment it would leave, not only at creation: a refund of a held
 * customer is refused like every other movement; a payout or refund accepted before the hold waits, its
 * reserve kept, until the case is decided (confirmed: FAILED, reserve released; cleared: it proceeds).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { screenSubject } from '../../src/modules/screening/service.ts';
import { sandboxPayoutRail } from '../../src/rails/pix/sandbox-payout.ts';
import { type Client, client, eventually, usingPostgres } from '../helpers/server.ts';
import { decide, importFixture, LISTED, OFAC_DIR, putOnHold } from '../screening/support.ts';
import { createOnRamp, type IsolatedServer, startIsolatedServer } from '../transactions/support.ts';
import {
  balances,
  customerWithAccount,
  eventTypes,
  fund,
  ledgerBalances,
  offRamp,
  unbalanced,
} from './support.ts';

let server: IsolatedServer;
let sandbox: Client;
let projectId: string;

beforeAll(async () => {
  server = await startIsolatedServer();
  const tenant = await server.newTenant();
  projectId = tenant.projectId;
  sandbox = client(server.sandbox, tenant.sandboxKey);
  await importFixture(server, 'ofac-sdn', OFAC_DIR);
});
afterAll(async () => {
  await server.close();
});

/** A sandbox on-ramp whose deposit was paid short: its BRL is held for refund in the customer's balance. */
async function heldDeposit(customerId: string, requested: string, paid: string) {
  const created = await createOnRamp(sandbox, customerId, requested);
  const failed = (await sandbox.post(`/sandbox/transactions/${created.id}/deposit`, { amount: paid })).json();
  expect(failed.status).toBe('FAILED');
  return failed;
}

afterEach(() => {
  vi.restoreAllMocks();
});

/** The sandbox rail cannot take the next payment now (as a PSP answering 503): it is tried again later. */
function railDownOnce() {
  return vi.spyOn(sandboxPayoutRail, 'submit').mockResolvedValueOnce({ retry: 'the rail is unavailable' });
}

type PayoutState = { status: string; attempts: number; held_since: Date | null };
const payoutOf = async (transactionId: string) =>
  (
    await server.ctx.db.query<PayoutState>(
      'SELECT status, attempts, held_since FROM pix_payouts WHERE transaction_id = $1',
      [transactionId],
    )
  )[0];

/** The payout tried once and waiting for its retry: made due now, and claimed again until `done`. */
async function retryPayout(transactionId: string, done: (payout: PayoutState) => boolean) {
  await eventually(
    () => payoutOf(transactionId),
    (payout) => payout !== undefined && payout.attempts >= 1,
  );
  await server.ctx.db.query(
    "UPDATE pix_payouts SET next_attempt_at = $2 WHERE transaction_id = $1 AND status = 'PENDING'",
    [transactionId, server.ctx.clock()],
  );
  return eventually(
    () => payoutOf(transactionId),
    (payout) => payout !== undefined && done(payout),
  );
}

const journalCount = async () =>
  Number((await server.ctx.db.query<{ n: bigint }>('SELECT count(*) AS n FROM ledger_journals'))[0]!.n);

describe('compliance holds on money already on its way out', () => {
  it('refuses a refund of a customer on compliance hold with 409 compliance_hold, changing nothing', async () => {
    const { customer } = await customerWithAccount(sandbox);
    const failed = await heldDeposit(customer.id, '30.00', '20.00');
    await putOnHold(server, { projectId, environment: 'sandbox' }, customer.id);
    const journals = await journalCount();
    const response = await sandbox.post(`/transactions/${failed.id}/refund`, {});
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ code: 'compliance_hold', subjectType: 'CUSTOMER' });
    expect((await sandbox.get(`/transactions/${failed.id}`)).json().refund).toBeNull();
    expect((await balances(sandbox, customer.id)).BRL).toBe('20.00');
    expect(await journalCount()).toBe(journals);
    const payouts = await server.ctx.db.query('SELECT 1 FROM pix_payouts WHERE transaction_id = $1', [
      failed.id,
    ]);
    expect(payouts).toEqual([]);
  });

  it('holds an off-ramp accepted before the hold at the moment its payout would leave; a confirmed match FAILS it, reserve released', async () => {
    const { customer, accountId } = await customerWithAccount(sandbox);
    await fund(sandbox, customer.id, '50.00');
    const before = await balances(sandbox, customer.id);
    const submit = railDownOnce();
    const created = await offRamp(sandbox, {
      customerId: customer.id,
      bankAccountId: accountId,
      sourceCurrency: 'USDC',
      sourceAmount: '1',
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().id;
    await eventually(
      () => payoutOf(id),
      (payout) => payout?.attempts === 1,
    );
    const caseId = await putOnHold(server, { projectId, environment: 'sandbox' }, customer.id);
    const held = await retryPayout(id, (payout) => payout.held_since !== null);
    expect(held).toMatchObject({ status: 'PENDING', attempts: 2 });
    expect(submit).toHaveBeenCalledTimes(1);
    const waiting = (await sandbox.get(`/transactions/${id}`)).json();
    expect(waiting.status).toBe('TRANSFERRING_FIAT');
    // its reserve kept while the case is open
    expect(Number((await balances(sandbox, customer.id)).USDC)).toBe(Number(before.USDC) - 1);
    await decide(server, caseId, 'CONFIRM');
    // tried before, it is refused at its next claim once the rail is known never to have made it
    const done = await eventually(
      () => sandbox.get(`/transactions/${id}`).then((r) => r.json()),
      (t) => t.status === 'FAILED',
    );
    expect(done).toMatchObject({ status: 'FAILED', failureCode: 'compliance_refused' });
    expect(done.failureReason).toMatch(/compliance/);
    expect(submit).toHaveBeenCalledTimes(1);
    expect(await balances(sandbox, customer.id)).toEqual(before);
    expect((await eventTypes(server, id)).at(-1)).toBe('transaction.updated');
    expect(await payoutOf(id)).toMatchObject({ status: 'REJECTED', held_since: null });
    expect(await unbalanced(server)).toEqual([]);
  });

  it('holds a refund accepted before the hold; a cleared case lets it leave and complete', async () => {
    const { customer } = await customerWithAccount(sandbox);
    const failed = await heldDeposit(customer.id, '40.00', '25.00');
    const submit = railDownOnce();
    const requested = await sandbox.post(`/transactions/${failed.id}/refund`, {});
    expect(requested.statusCode).toBe(200);
    await eventually(
      () => payoutOf(failed.id),
      (payout) => payout?.attempts === 1,
    );
    const caseId = await putOnHold(server, { projectId, environment: 'sandbox' }, customer.id);
    await retryPayout(failed.id, (payout) => payout.held_since !== null);
    expect(submit).toHaveBeenCalledTimes(1);
    expect((await sandbox.get(`/transactions/${failed.id}`)).json().refund.status).toBe('PENDING');
    expect((await balances(sandbox, customer.id)).BRL).toBe('0.00');
    await decide(server, caseId, 'CLEAR');
    const done = await eventually(
      () => sandbox.get(`/transactions/${failed.id}`).then((r) => r.json()),
      (t) => t.refund.status !== 'PENDING',
    );
    expect(done.refund).toMatchObject({ status: 'SUCCESS', amount: '25.00' });
    expect(await ledgerBalances(server, customer.id)).toMatchObject({ BRL: 0n });
    expect(await unbalanced(server)).toEqual([]);
  });

  it('refuses a held refund when the match is confirmed: its BRL back in the balance, the refund FAILED', async () => {
    const { customer } = await customerWithAccount(sandbox);
    const failed = await heldDeposit(customer.id, '40.00', '15.00');
    const submit = railDownOnce();
    expect((await sandbox.post(`/transactions/${failed.id}/refund`, {})).statusCode).toBe(200);
    await eventually(
      () => payoutOf(failed.id),
      (payout) => payout?.attempts === 1,
    );
    const caseId = await putOnHold(server, { projectId, environment: 'sandbox' }, customer.id);
    await retryPayout(failed.id, (payout) => payout.held_since !== null);
    await decide(server, caseId, 'CONFIRM');
    const done = await eventually(
      () => sandbox.get(`/transactions/${failed.id}`).then((r) => r.json()),
      (t) => t.refund?.status === 'FAILED',
    );
    expect(done.refund).toMatchObject({ status: 'FAILED', amount: '15.00' });
    expect(done.refund.failureReason).toMatch(/compliance/);
    expect(submit).toHaveBeenCalledTimes(1);
    expect((await balances(sandbox, customer.id)).BRL).toBe('15.00');
    expect(await unbalanced(server)).toEqual([]);
  });

  it.runIf(usingPostgres())(
    'sees a hold opened while the payout is being claimed: the claim waits for the case, then holds the payout',
    async () => {
      const { customer, accountId } = await customerWithAccount(sandbox);
      await fund(sandbox, customer.id, '50.00');
      const submit = railDownOnce();
      const created = await offRamp(sandbox, {
        customerId: customer.id,
        bankAccountId: accountId,
        sourceCurrency: 'USDC',
        sourceAmount: '2',
      });
      const id = created.json().id;
      await eventually(
        () => payoutOf(id),
        (payout) => payout?.attempts === 1,
      );
      const lockWaiters = async () =>
        Number(
          (
            await server.ctx.db.query<{ n: bigint }>(
              `SELECT count(*) AS n FROM pg_stat_activity
                WHERE datname = current_database() AND wait_event_type = 'Lock'`,
            )
          )[0]!.n,
        );
      // a re-screening opens the case; before it commits, the payout comes due and a worker claims it
      await server.ctx.db.transaction(async (tx) => {
        const opened = await screenSubject(
          tx,
          {
            type: 'CUSTOMER',
            id: customer.id,
            customerId: customer.id,
            tenant: { projectId, environment: 'sandbox' },
            party: { ...LISTED, country: 'BRA' },
          },
          server.config.screening.threshold,
          server.ctx.clock(),
        );
        expect(opened?.opened).toBe(true);
        await server.ctx.db.query(
          "UPDATE pix_payouts SET next_attempt_at = $2 WHERE transaction_id = $1 AND status = 'PENDING'",
          [id, server.ctx.clock()],
        );
        await eventually(lockWaiters, (n) => n > 0, 10_000);
      });
      const held = await eventually(
        () => payoutOf(id),
        (payout) => payout !== undefined && payout.held_since !== null,
      );
      expect(held!.status).toBe('PENDING');
      expect(submit).toHaveBeenCalledTimes(1);
      expect((await sandbox.get(`/transactions/${id}`)).json().status).toBe('TRANSFERRING_FIAT');
    },
  );
});
