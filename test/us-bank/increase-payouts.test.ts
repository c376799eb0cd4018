/**
 * Dollars out at Increase, end to end against the bank simulator (driven through the official SDK): an
 * off-ramp to a US bank account is one ACH transfer (https://increase.com/documentation/api/ach-transfers#create)
 * or wire (https://increase.com/documentation/api/wire-transfers#create) under the payout's idempotency key
 * (https://increase.com/documentation/idempotency-keys); it succeeds when Increase reports it settled
 * (an ACH stays `submitted` with `settlement` set; a wire is `complete`:
 * https://increase.com/documentation/ach-transfers, https://increase.com/documentation/wire-transfers),
 * and a later ACH return or wire reversal gives the USD back to the customer's balance. Webhooks are only
 * hints (https://increase.com/documentation/webhooks): lost ones are made up for by the sweep of returned
 * transfers, duplicated ones apply nothing twice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { submitDuePayouts } from '../../src/modules/off-ramp/payout-submission.ts';
import { intakeOf } from '../../src/modules/us-bank/module-deps.ts';
import { sweepReturnedPayouts } from '../../src/modules/us-bank/payouts.ts';
import type { IncreaseSimulations } from '../../src/rails/increase/simulations.ts';
import { approvedCustomer } from '../helpers/factories.ts';
import { type Client, eventually, type TestServer } from '../helpers/server.ts';
import { type IncreaseSimulator, SIMULATOR_API_KEY } from '../increase/simulator.ts';
import { checkSimulator } from '../increase/support.ts';
import { balances, fund, offRamp, settled, unbalanced } from '../off-ramp/support.ts';
import { CHASE, usAccount } from '../off-ramp/usd-support.ts';
import { decide, importFixture, OFAC_DIR, putOnHold } from '../screening/support.ts';
import { openIncreaseSandbox } from './support.ts';

const SECRET = 'payouts-webhook-secret';

let sim: IncreaseSimulator;
let simulate: IncreaseSimulations;
let server: TestServer;
let sandbox: Client;

beforeAll(async () => {
  ({ sim, server, sandbox, simulate } = await openIncreaseSandbox(SECRET, { ownDatabase: true }));
});
afterAll(() => server.close());
checkSimulator(() => sim);

/** A funded customer's off-ramp of `amount` USDC to its own US account over `rail` (0.50% fee). */
async function payOut(rail: 'ACH' | 'WIRE' = 'ACH', faults?: () => void) {
  const customer = await approvedCustomer(sandbox);
  await fund(sandbox, customer.id, '1000.00');
  const bankAccountId = await usAccount(sandbox, customer, rail);
  const before = await balances(sandbox, customer.id);
  faults?.();
  const response = await offRamp(sandbox, {
    customerId: customer.id,
    bankAccountId,
    sourceCurrency: 'USDC',
    sourceAmount: '100',
  });
  expect(response.statusCode, response.body).toBe(201);
  return { customer, before, id: response.json().id as string };
}

const keyOf = (offRampId: string) => `ponte-payout-${offRampId}`;

/** The transfers Increase holds under an off-ramp's key. */
function transfersOf(offRampId: string, rail: 'ACH' | 'WIRE' = 'ACH') {
  const all = rail === 'ACH' ? [...sim.achTransfers.values()] : [...sim.wireTransfers.values()];
  return all.filter((t) => t.idempotency_key === keyOf(offRampId));
}

/** Waits until Increase holds the off-ramp's transfer; the only one under its key. */
async function transferOf(offRampId: string, rail: 'ACH' | 'WIRE' = 'ACH') {
  const [transfer] = await eventually(
    async () => transfersOf(offRampId, rail),
    (found) => found.length > 0,
    10_000,
  );
  return transfer!;
}

const status = async (id: string) => (await sandbox.get(`/transactions/${id}`)).json();

/** The journals of a transaction, by kind. */
async function journals(transactionId: string): Promise<Record<string, number>> {
  const rows = await server.ctx.db.query<{ kind: string; n: string }>(
    'SELECT kind, count(*)::text AS n FROM ledger_journals WHERE transaction_id = $1 GROUP BY kind',
    [transactionId],
  );
  return Object.fromEntries(rows.map((r) => [r.kind, Number(r.n)]));
}

/** A wire reversal at Increase's sandbox (POST /simulations/wire_transfers/{id}/reverse). */
async function reverseWire(wireTransferId: string) {
  const response = await fetch(`${sim.url}/simulations/wire_transfers/${wireTransferId}/reverse`, {
    method: 'POST',
    headers: { authorization: `Bearer ${SIMULATOR_API_KEY}` },
  });
  expect(response.status).toBe(200);
}

const sweep = () => sweepReturnedPayouts(intakeOf(server.ctx, 'sandbox')!, 'sandbox');

const creates = () => sim.requests.filter((r) => r.method === 'POST' && r.path === '/ach_transfers').length;

/** Waits until `count` more creates reached Increase than `from` (the SDK's tries of one attempt). */
const triedCreates = (from: number, count: number) =>
  eventually(
    async () => creates(),
    (n) => n >= from + count,
    10_000,
  );

/** The workers' next pass once a payout's lease has passed (their retry waits 5 s, doubling). */
const afterLease = () => submitDuePayouts({ ...server.ctx, clock: () => new Date(Date.now() + 60_000) });

describe('dollars out at Increase', () => {
  it('an ACH off-ramp is one ACH transfer under ponte-payout-<id>, waiting in TRANSFERRING_FIAT until Increase settles it', async () => {
    const { customer, id } = await payOut('ACH');
    const transfer = await transferOf(id);
    expect(transfer).toMatchObject({
      amount: 9_950,
      routing_number: CHASE,
      account_number: '000123456789',
      // the account's type (CHECKING), its holder's legal name (Nacha's 22 characters), and a person's
      // account credited as a consumer's (PPD; the SDK's default CCD is for a company's)
      funding: 'checking',
      destination_account_holder: 'individual',
      standard_entry_class_code: 'prearranged_payments_and_deposit',
      individual_name: String(customer.name).slice(0, 22),
      statement_descriptor: 'PONTE',
      status: 'pending_submission',
    });
    await sim.settled();
    expect((await status(id)).status).toBe('TRANSFERRING_FIAT');
    await simulate.settleAch(transfer.id);
    await sim.settled();
    const done = await settled(sandbox, id);
    expect(done).toMatchObject({ status: 'SUCCESS', payout: { rail: 'ACH' } });
    expect(transfersOf(id)).toHaveLength(1);
    expect(await journals(id)).toMatchObject({ PAYOUT_SENT: 1 });
    expect(await unbalanced(server)).toEqual([]);
  });

  it('a settled ACH returned by the receiving bank (no_account) is RETURNED with R03, its USD in the balance', async () => {
    const { customer, id } = await payOut('ACH');
    const transfer = await transferOf(id);
    await simulate.settleAch(transfer.id);
    await sim.settled();
    expect((await settled(sandbox, id)).status).toBe('SUCCESS');
    // the sandbox's own return route is not the bank's here: Increase's simulation route is
    const own = await sandbox.post(`/sandbox/transactions/${id}/return`, { code: 'R03' });
    expect(own.statusCode).toBe(409);
    expect(own.json().detail ?? own.json().title).toMatch(/simulations\/ach_transfers/);
    await simulate.returnAch(transfer.id, 'no_account');
    await sim.settled();
    const done = await settled(sandbox, id, ['RETURNED']);
    expect(done).toMatchObject({
      status: 'RETURNED',
      failureCode: 'ach_returned',
      returnCode: 'R03',
    });
    expect(await balances(sandbox, customer.id)).toMatchObject({ USD: '99.50' });
    expect(await journals(id)).toMatchObject({ PAYOUT_SENT: 1, PAYOUT_RETURNED: 1 });
    // a return reported before the settlement reached Ponte completes it, then returns it
    const early = await payOut('ACH');
    const unsettled = await transferOf(early.id);
    await simulate.returnAch(unsettled.id, 'account_closed');
    await sim.settled();
    expect(await settled(sandbox, early.id, ['RETURNED'])).toMatchObject({
      status: 'RETURNED',
      returnCode: 'R02',
    });
    expect(await journals(early.id)).toMatchObject({ PAYOUT_SENT: 1, PAYOUT_RETURNED: 1 });
    expect(await unbalanced(server)).toEqual([]);
  });

  it('a return whose webhook was lost is applied by the sweep of returned transfers, once however often it runs', async () => {
    const { customer, id } = await payOut('ACH');
    const transfer = await transferOf(id);
    await simulate.settleAch(transfer.id);
    await sim.settled();
    expect((await settled(sandbox, id)).status).toBe('SUCCESS');
    sim.faults.loseWebhooks = 1;
    await simulate.returnAch(transfer.id, 'no_account');
    await sim.settled();
    expect((await status(id)).status).toBe('SUCCESS');
    expect(await sweep()).toBeGreaterThanOrEqual(1);
    expect(await status(id)).toMatchObject({ status: 'RETURNED', returnCode: 'R03' });
    await sweep();
    expect(await journals(id)).toMatchObject({ PAYOUT_SENT: 1, PAYOUT_RETURNED: 1 });
    expect(await balances(sandbox, customer.id)).toMatchObject({ USD: '99.50' });
    expect(await unbalanced(server)).toEqual([]);
  });

  it('a wire is SUCCESS once Increase submits it, and RETURNED wire_reversed when reversed', async () => {
    const { customer, id } = await payOut('WIRE');
    const wire = await transferOf(id, 'WIRE');
    expect(wire).toMatchObject({
      amount: 9_950,
      routing_number: CHASE,
      account_number: '000123456789',
      creditor: { name: customer.name },
      status: 'pending_creating',
    });
    await sim.settled();
    expect((await status(id)).status).toBe('TRANSFERRING_FIAT');
    await simulate.submitWire(wire.id);
    await sim.settled();
    expect((await settled(sandbox, id)).status).toBe('SUCCESS');
    await reverseWire(wire.id);
    await sim.settled();
    expect(await settled(sandbox, id, ['RETURNED'])).toMatchObject({
      status: 'RETURNED',
      failureCode: 'wire_reversed',
      returnCode: null,
    });
    expect(await balances(sandbox, customer.id)).toMatchObject({ USD: '99.50' });
    expect(transfersOf(id, 'WIRE')).toHaveLength(1);
    expect(await unbalanced(server)).toEqual([]);
  });

  // https://increase.com/documentation/api#errors: a request Increase finds invalid is answered 400
  // `invalid_parameters_error` and creates nothing
  it('a transfer Increase refuses (400 invalid_parameters) FAILS the off-ramp payout_rejected, the reserve back', async () => {
    const customer = await approvedCustomer(sandbox);
    await fund(sandbox, customer.id, '1000.00');
    const bankAccountId = await usAccount(sandbox, customer, 'ACH');
    const before = await balances(sandbox, customer.id);
    sim.faults.refuseNext = 1;
    const response = await offRamp(sandbox, {
      customerId: customer.id,
      bankAccountId,
      sourceCurrency: 'USDC',
      sourceAmount: '100',
    });
    expect(response.statusCode, response.body).toBe(201);
    const done = await settled(sandbox, response.json().id);
    expect(done).toMatchObject({ status: 'FAILED', failureCode: 'payout_rejected' });
    expect(done.failureReason).toMatch(/^The ACH transfer was rejected: Increase refused the transfer/);
    expect(transfersOf(done.id)).toHaveLength(0);
    expect(await balances(sandbox, customer.id)).toEqual(before);
    expect(await unbalanced(server)).toEqual([]);
  });

  it('a create answered 5xx (the SDK’s own retries too) is sent again after its lease, paid once', async () => {
    // the SDK tries a request three times (maxRetries 2): all three fail
    const from = creates();
    const { id } = await payOut('ACH', () => {
      sim.faults.failNext = 3;
    });
    await triedCreates(from, 3);
    await sim.settled();
    expect(creates()).toBe(from + 3);
    expect(transfersOf(id)).toHaveLength(0);
    expect((await status(id)).status).toBe('TRANSFERRING_FIAT');
    await afterLease();
    const transfer = await transferOf(id);
    await simulate.settleAch(transfer.id);
    await sim.settled();
    expect((await settled(sandbox, id)).status).toBe('SUCCESS');
    await afterLease();
    expect(transfersOf(id)).toHaveLength(1);
    expect(await journals(id)).toMatchObject({ PAYOUT_SENT: 1 });
  });

  it('a create carried out whose answer was lost is looked up by its key after its lease, not sent again', async () => {
    const from = creates();
    // every answer to a create is lost (not the read-backs its webhooks cause)
    sim.hooks.beforeAnswer = (method, path) => {
      if (method === 'POST' && path === '/ach_transfers') sim.faults.loseAnswers = 1;
    };
    // and the webhook of its creation too: nothing tells Ponte the transfer exists
    const { id } = await payOut('ACH', () => {
      sim.faults.loseWebhooks = 1;
    });
    // Increase made the transfer (once: the SDK's tries carry the same key); Ponte never heard
    const sent = await triedCreates(from, 3);
    sim.hooks.beforeAnswer = undefined;
    await sim.settled();
    expect(sent).toBe(from + 3);
    const transfer = await transferOf(id);
    expect((await status(id)).status).not.toBe('SUCCESS');
    const mark = sim.requests.length;
    expect((await status(id)).status).toBe('TRANSFERRING_FIAT');
    expect(await afterLease()).toBeGreaterThanOrEqual(1);
    const byKey = new URLSearchParams({ idempotency_key: keyOf(id) }).toString();
    expect(
      sim.requests
        .slice(mark)
        .some((r) => r.method === 'GET' && r.path === '/ach_transfers' && r.query.includes(byKey)),
    ).toBe(true);
    // looked up (GET /ach_transfers?idempotency_key=…), not created again
    expect(creates()).toBe(sent);
    await simulate.settleAch(transfer.id);
    await sim.settled();
    expect((await settled(sandbox, id)).status).toBe('SUCCESS');
    expect(transfersOf(id)).toHaveLength(1);
    expect(await journals(id)).toMatchObject({ PAYOUT_SENT: 1 });
  });

  it('duplicated webhooks apply the settlement and the return once', async () => {
    const { customer, id } = await payOut('ACH');
    const transfer = await transferOf(id);
    await sim.settled();
    // settle produces two events (submitted, settled); each delivered twice
    sim.faults.duplicateWebhooks = 2;
    await simulate.settleAch(transfer.id);
    await sim.settled();
    expect((await settled(sandbox, id)).status).toBe('SUCCESS');
    sim.faults.duplicateWebhooks = 1;
    await simulate.returnAch(transfer.id, 'no_account');
    await sim.settled();
    expect((await settled(sandbox, id, ['RETURNED'])).status).toBe('RETURNED');
    expect(await journals(id)).toMatchObject({ PAYOUT_SENT: 1, PAYOUT_RETURNED: 1 });
    expect(await balances(sandbox, customer.id)).toMatchObject({ USD: '99.50' });
    expect(await unbalanced(server)).toEqual([]);
  });

  // last: the sanctions list it imports screens every customer of this file's database again
  it('a payout a confirmed match refuses after a create whose answer was lost is looked up first: made at Increase, it settles, never refused and credited back', async () => {
    await importFixture(server, 'ofac-sdn', OFAC_DIR);
    const from = creates();
    sim.hooks.beforeAnswer = (method, path) => {
      if (method === 'POST' && path === '/ach_transfers') sim.faults.loseAnswers = 1;
    };
    const { customer, before, id } = await payOut('ACH', () => {
      sim.faults.loseWebhooks = 1;
    });
    await triedCreates(from, 3);
    sim.hooks.beforeAnswer = undefined;
    await sim.settled();
    const transfer = await transferOf(id);
    const projectId = (
      await server.ctx.db.query<{ project_id: string }>('SELECT project_id FROM customers WHERE id = $1', [
        customer.id,
      ])
    )[0]!.project_id;
    const caseId = await putOnHold(server, { projectId, environment: 'sandbox' }, customer.id);
    await decide(server, caseId, 'CONFIRM');
    // the next claim finds the match confirmed, and the payout tried before: Increase is asked, and has it
    await afterLease();
    const [payout] = await server.ctx.db.query<{ status: string }>(
      'SELECT status FROM pix_payouts WHERE transaction_id = $1',
      [id],
    );
    expect(payout!.status).toBe('SUBMITTED');
    expect((await status(id)).status).toBe('TRANSFERRING_FIAT');
    await simulate.settleAch(transfer.id);
    await sim.settled();
    expect((await settled(sandbox, id)).status).toBe('SUCCESS');
    expect(transfersOf(id)).toHaveLength(1);
    expect(await journals(id)).not.toHaveProperty('OFF_RAMP_RELEASED');
    // the USDC paid out stays paid out: 100 USDC left the balance
    expect(Number((await balances(sandbox, customer.id)).USDC)).toBe(Number(before.USDC) - 100);
    expect(await unbalanced(server)).toEqual([]);
  });
});
