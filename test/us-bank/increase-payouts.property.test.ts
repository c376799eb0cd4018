/**
 * Dollars out under any interleaving: off-ramps paid over ACH at Increase, settled
 * (https://increase.com/documentation/ach-transfers: `submitted` with `settlement` set) or returned by the
 * receiving bank (before or after settling), their webhooks delivered, lost or duplicated
 * (https://increase.com/documentation/webhooks), sweeps of returned transfers at any point. However they
 * interleave, once the workers have looked up what is late and a last sweep has run, Ponte's books equal
 * what the bank simulator says moved: BANK_SETTLEMENT USD is what left in transfers settled and not
 * returned, the customer's USD balance what came back; each transfer was made once under its key
 * (https://increase.com/documentation/idempotency-keys); the ledger balances; zero simulator violations.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { submitDuePayouts } from '../../src/modules/off-ramp/payout-submission.ts';
import { intakeOf } from '../../src/modules/us-bank/module-deps.ts';
import { sweepReturnedPayouts } from '../../src/modules/us-bank/payouts.ts';
import type { AchReturnReason } from '../../src/rails/increase/return-codes.ts';
import type { IncreaseSimulations } from '../../src/rails/increase/simulations.ts';
import { approvedCustomer } from '../helpers/factories.ts';
import { type Client, eventually, type TestServer } from '../helpers/server.ts';
import type { IncreaseSimulator } from '../increase/simulator.ts';
import { balances, fund, ledgerBalances, offRamp, settled, unbalanced } from '../off-ramp/support.ts';
import { usAccount } from '../off-ramp/usd-support.ts';
import { openIncreaseSandbox } from './support.ts';

const SECRET = 'payouts-property-secret';

let sim: IncreaseSimulator;
let simulate: IncreaseSimulations;
let server: TestServer;
let sandbox: Client;
let webhookUrl: string;

beforeAll(async () => {
  ({ sim, server, sandbox, simulate, webhookUrl } = await openIncreaseSandbox(SECRET));
});
afterAll(async () => {
  await server.close();
  await sim.close();
});

type Fault = 'none' | 'lost' | 'duplicated' | 'unreadable';
type Step =
  | { kind: 'payout'; usdc: string; fault: Fault }
  | { kind: 'check' }
  | { kind: 'outage'; on: boolean }
  | { kind: 'settle'; target: number; fault: Fault }
  | { kind: 'return'; target: number; reason: AchReturnReason; fault: Fault }
  | { kind: 'sweep' };

const fault = fc.constantFrom<Fault>('none', 'none', 'lost', 'duplicated', 'unreadable');
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('payout' as const),
      usdc: fc.constantFrom('10', '25.5', '40'),
      fault,
    }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('settle' as const), target: fc.nat(), fault }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('return' as const),
      target: fc.nat(),
      reason: fc.constantFrom<AchReturnReason>('no_account', 'account_closed', 'insufficient_fund'),
      fault,
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'sweep' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'check' as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('outage' as const), on: fc.boolean() }) },
);

/**
 * The webhooks of the next simulated change (up to two events) lost or sent twice, or its first event
 * sent before its transfer can be read (answered 503; readable again after the step).
 */
function withFault(f: Fault) {
  if (f === 'lost') sim.faults.loseWebhooks = 2;
  if (f === 'duplicated') sim.faults.duplicateWebhooks = 2;
  if (f === 'unreadable') sim.faults.hideNextObjects = 1;
}
function clearFaults() {
  sim.faults.loseWebhooks = 0;
  sim.faults.duplicateWebhooks = 0;
  sim.faults.hideNextObjects = 0;
  sim.reveal();
}

/**
 * The workers' look-ups of late payouts, as they run once the results are overdue: each pass two hours
 * after the one before (a payout's next look-up waits at most an hour).
 */
let passes = 0;
const checkLate = () => {
  passes += 1;
  const later = passes * 2 * 3_600_000;
  return submitDuePayouts({ ...server.ctx, clock: () => new Date(Date.now() + later) });
};

const transferOf = (offRampId: string) =>
  [...sim.achTransfers.values()].filter((t) => t.idempotency_key === `ponte-payout-${offRampId}`);

async function run(steps: Step[]): Promise<void> {
  const customer = await approvedCustomer(sandbox);
  await fund(sandbox, customer.id, '1000.00');
  const bankAccountId = await usAccount(sandbox, customer, 'ACH');
  const intake = intakeOf(server.ctx, 'sandbox')!;
  const paid: { offRampId: string; transferId: string }[] = [];
  for (const s of steps) {
    if (s.kind === 'sweep') {
      await sweepReturnedPayouts(intake, 'sandbox');
    } else if (s.kind === 'check') {
      await checkLate();
    } else if (s.kind === 'outage') {
      // Ponte unreachable for Increase's webhooks (every event of the while is lost)
      sim.setWebhookUrl(s.on ? undefined : webhookUrl);
    } else if (s.kind === 'payout') {
      withFault(s.fault);
      const response = await offRamp(sandbox, {
        customerId: customer.id,
        bankAccountId,
        sourceCurrency: 'USDC',
        sourceAmount: s.usdc,
      });
      expect(response.statusCode, response.body).toBe(201);
      const offRampId = response.json().id as string;
      const [transfer] = await eventually(
        async () => transferOf(offRampId),
        (found) => found.length > 0,
        10_000,
      );
      // Increase's answer recorded (the payout waits for its result)
      await eventually(
        () =>
          server.ctx.db.query<{ status: string }>('SELECT status FROM pix_payouts WHERE end_to_end_id = $1', [
            transfer!.idempotency_key,
          ]),
        (rows) => rows[0]?.status !== 'PENDING',
        10_000,
      );
      await sim.settled();
      clearFaults();
      paid.push({ offRampId, transferId: transfer!.id });
    } else {
      if (paid.length === 0) continue;
      const target = paid[s.target % paid.length]!;
      const transfer = sim.achTransfers.get(target.transferId)!;
      const open =
        transfer.status === 'pending_submission' || (transfer.status === 'submitted' && !transfer.settlement);
      const returnable = transfer.status === 'pending_submission' || transfer.status === 'submitted';
      if (s.kind === 'settle' && !open) continue;
      if (s.kind === 'return' && !returnable) continue;
      withFault(s.fault);
      if (s.kind === 'settle') await simulate.settleAch(transfer.id);
      else await simulate.returnAch(transfer.id, s.reason);
      await sim.settled();
      clearFaults();
    }
  }
  // reachable again; the workers look up every payout whose result is late, and a last sweep finds the returns
  sim.setWebhookUrl(webhookUrl);
  await checkLate();
  await sweepReturnedPayouts(intake, 'sandbox');

  let settledCents = 0n;
  let returnedCents = 0n;
  for (const { offRampId } of paid) {
    const transfers = transferOf(offRampId);
    expect(transfers, offRampId).toHaveLength(1);
    const transfer = transfers[0]!;
    const amount = BigInt(transfer.amount);
    if (transfer.status === 'returned') {
      returnedCents += amount;
      expect((await settled(sandbox, offRampId, ['RETURNED'])).failureCode).toBe('ach_returned');
    } else if (transfer.settlement) {
      settledCents += amount;
      expect((await settled(sandbox, offRampId)).status).toBe('SUCCESS');
    } else {
      const now = (await sandbox.get(`/transactions/${offRampId}`)).json();
      expect(now.status, offRampId).toBe('TRANSFERRING_FIAT');
    }
  }
  const ids = paid.map((p) => p.offRampId);
  const [bank] = await server.ctx.db.query<{ cents: string | null }>(
    `SELECT sum(e.amount)::text AS cents FROM ledger_entries e JOIN ledger_journals j ON j.id = e.journal_id
      WHERE e.account = 'BANK_SETTLEMENT' AND e.currency = 'USD' AND j.transaction_id = ANY($1)`,
    [ids],
  );
  // what left Ponte's account: settled transfers, less those the receiving bank gave back
  expect(-BigInt(bank?.cents ?? 0)).toBe(settledCents);
  expect((await ledgerBalances(server, customer.id)).USD ?? 0n).toBe(returnedCents);
  const usd = (await balances(sandbox, customer.id)).USD ?? '0.00';
  expect(BigInt(usd.replace('.', ''))).toBe(returnedCents);
  const [journals] = await server.ctx.db.query<{ sent: number; back: number }>(
    `SELECT count(*) FILTER (WHERE kind = 'PAYOUT_SENT')::int AS sent,
            count(*) FILTER (WHERE kind = 'PAYOUT_RETURNED')::int AS back
       FROM ledger_journals WHERE transaction_id = ANY($1)`,
    [ids],
  );
  const returnedCount = paid.filter((p) => sim.achTransfers.get(p.transferId)!.status === 'returned').length;
  const settledCount = paid.filter((p) => sim.achTransfers.get(p.transferId)!.settlement).length;
  expect(journals).toEqual({
    sent: returnedCount + settledCount - countBoth(paid),
    back: returnedCount,
  });
  expect(await unbalanced(server)).toEqual([]);
  expect(sim.violations).toEqual([]);
}

/** Transfers both settled and returned (counted once as sent). */
const countBoth = (paid: { transferId: string }[]) =>
  paid.filter((p) => {
    const t = sim.achTransfers.get(p.transferId)!;
    return t.status === 'returned' && t.settlement;
  }).length;

describe('dollars out, any interleaving', () => {
  it('ends with the books equal to what the bank says moved', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 2, maxLength: 10 }), (steps) => run(steps)),
      { numRuns: 15 },
    );
  }, 120_000);
});
