/**
 * Dollars out under any interleaving: off-ramps paid over ACH or wire at Increase, settled
 * (https://increase.com/documentation/ach-transfers: `submitted` with `settlement` set;
 * https://increase.com/documentation/wire-transfers: `complete`) or given back by the receiving bank (an
 * ACH returned before or after settling, a wire reversed), their webhooks delivered, lost, duplicated or
 * kept back and delivered newest first (https://increase.com/documentation/webhooks), sweeps of returned
 * transfers at any point. However they interleave, once the workers have looked up what is late and a last
 * sweep has run, Ponte's books equal what the bank simulator says moved: BANK_SETTLEMENT USD is what left
 * in transfers settled and not returned, the customer's USD balance what came back; each transfer was made
 * once under its key (https://increase.com/documentation/idempotency-keys); the ledger balances; zero
 * simulator violations.
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
import { type IncreaseSimulator, SIMULATOR_API_KEY } from '../increase/simulator.ts';
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
  ({ sim, server, sandbox, simulate, webhookUrl } = await openIncreaseSandbox(SECRET, { ownDatabase: true }));
});
afterAll(async () => {
  await server.close();
  await sim.close();
});

type Fault = 'none' | 'lost' | 'duplicated' | 'unreadable';
type Step =
  | { kind: 'payout'; rail: 'ACH' | 'WIRE'; usdc: string; fault: Fault }
  | { kind: 'check' }
  | { kind: 'outage'; on: boolean }
  | { kind: 'reorder'; on: boolean }
  | { kind: 'settle'; target: number; fault: Fault }
  | { kind: 'return'; target: number; reason: AchReturnReason; fault: Fault }
  | { kind: 'sweep' };

const fault = fc.constantFrom<Fault>('none', 'none', 'lost', 'duplicated', 'unreadable');
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('payout' as const),
      rail: fc.constantFrom<'ACH' | 'WIRE'>('ACH', 'ACH', 'WIRE'),
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
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('reorder' as const), on: fc.boolean() }) },
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
/** Delivers the webhooks kept back, newest first, and waits for their answers. */
async function releaseHeld() {
  sim.releaseWebhooks();
  await sim.settled();
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

type Rail = 'ACH' | 'WIRE';
type Paid = { offRampId: string; rail: Rail; transferId: string };

const transfersOf = (offRampId: string, rail: Rail) =>
  [...(rail === 'ACH' ? sim.achTransfers : sim.wireTransfers).values()].filter(
    (t) => t.idempotency_key === `ponte-payout-${offRampId}`,
  );

/**
 * Where a payout's transfer stands at Increase: an ACH is settled once `settlement` is set and returned
 * when `returned` (settled or not); a wire is settled when `complete`, given back when `reversed`.
 */
function standing(p: Paid): 'PENDING' | 'SETTLED' | 'RETURNED' {
  if (p.rail === 'ACH') {
    const t = sim.achTransfers.get(p.transferId)!;
    if (t.status === 'returned') return 'RETURNED';
    return t.settlement ? 'SETTLED' : 'PENDING';
  }
  const t = sim.wireTransfers.get(p.transferId)!;
  if (t.status === 'reversed') return 'RETURNED';
  return t.status === 'complete' ? 'SETTLED' : 'PENDING';
}

/** A wire reversal at Increase's sandbox (POST /simulations/wire_transfers/{id}/reverse). */
async function reverseWire(wireTransferId: string) {
  const response = await fetch(`${sim.url}/simulations/wire_transfers/${wireTransferId}/reverse`, {
    method: 'POST',
    headers: { authorization: `Bearer ${SIMULATOR_API_KEY}` },
  });
  expect(response.status).toBe(200);
}

async function run(steps: Step[]): Promise<void> {
  const customer = await approvedCustomer(sandbox);
  // about 447 USDC: more than ten payouts of 40 can spend, well inside an individual's daily limit
  await fund(sandbox, customer.id, '2500.00');
  const accounts = {
    ACH: await usAccount(sandbox, customer, 'ACH'),
    WIRE: await usAccount(sandbox, customer, 'WIRE'),
  };
  const intake = intakeOf(server.ctx, 'sandbox')!;
  const paid: Paid[] = [];
  for (const s of steps) {
    if (s.kind === 'sweep') {
      await sweepReturnedPayouts(intake, 'sandbox');
    } else if (s.kind === 'check') {
      await checkLate();
    } else if (s.kind === 'outage') {
      // Ponte unreachable for Increase's webhooks (every event of the while is lost)
      sim.setWebhookUrl(s.on ? undefined : webhookUrl);
    } else if (s.kind === 'reorder') {
      // the webhooks of the while kept back, then delivered newest first: an older event after a newer one
      if (s.on) sim.faults.holdWebhooks = true;
      else await releaseHeld();
    } else if (s.kind === 'payout') {
      withFault(s.fault);
      const response = await offRamp(sandbox, {
        customerId: customer.id,
        bankAccountId: accounts[s.rail],
        sourceCurrency: 'USDC',
        sourceAmount: s.usdc,
      });
      expect(response.statusCode, response.body).toBe(201);
      const offRampId = response.json().id as string;
      const [transfer] = await eventually(
        async () => transfersOf(offRampId, s.rail),
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
      paid.push({ offRampId, rail: s.rail, transferId: transfer!.id });
    } else {
      if (paid.length === 0) continue;
      const target = paid[s.target % paid.length]!;
      const now = standing(target);
      // an ACH can be returned before it settles; a wire is reversed only once complete
      if (s.kind === 'settle' && now !== 'PENDING') continue;
      if (s.kind === 'return' && (now === 'RETURNED' || (target.rail === 'WIRE' && now !== 'SETTLED')))
        continue;
      withFault(s.fault);
      if (target.rail === 'ACH') {
        if (s.kind === 'settle') await simulate.settleAch(target.transferId);
        else await simulate.returnAch(target.transferId, s.reason);
      } else if (s.kind === 'settle') {
        await simulate.submitWire(target.transferId);
      } else {
        await reverseWire(target.transferId);
      }
      await sim.settled();
      clearFaults();
    }
  }
  // reachable again; the workers look up every payout whose result is late, and a last sweep finds the returns
  sim.setWebhookUrl(webhookUrl);
  await releaseHeld();
  await checkLate();
  await sweepReturnedPayouts(intake, 'sandbox');

  let settledCents = 0n;
  let returnedCents = 0n;
  for (const p of paid) {
    const transfers = transfersOf(p.offRampId, p.rail);
    expect(transfers, p.offRampId).toHaveLength(1);
    const amount = BigInt(transfers[0]!.amount);
    switch (standing(p)) {
      case 'RETURNED':
        returnedCents += amount;
        expect((await settled(sandbox, p.offRampId, ['RETURNED'])).failureCode).toBe(
          p.rail === 'ACH' ? 'ach_returned' : 'wire_reversed',
        );
        break;
      case 'SETTLED':
        settledCents += amount;
        expect((await settled(sandbox, p.offRampId)).status).toBe('SUCCESS');
        break;
      case 'PENDING': {
        const now = (await sandbox.get(`/transactions/${p.offRampId}`)).json();
        expect(now.status, p.offRampId).toBe('TRANSFERRING_FIAT');
      }
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
  // every payout settled or given back was sent once (a return before the settlement completes it first)
  expect(journals).toEqual({
    sent: paid.filter((p) => standing(p) !== 'PENDING').length,
    back: paid.filter((p) => standing(p) === 'RETURNED').length,
  });
  expect(await unbalanced(server)).toEqual([]);
  expect(sim.violations).toEqual([]);
}

describe('dollars out, any interleaving', () => {
  it('ends with the books equal to what the bank says moved', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 2, maxLength: 10 }), (steps) => run(steps)),
      { numRuns: 15 },
    );
  }, 300_000);
});
