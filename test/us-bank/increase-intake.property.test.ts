/**
 * Dollars in under any interleaving: ACH credits and wires to accounts (one of them closed, some over the
 * customer's limit), with their webhooks delivered, lost, duplicated or arriving before their object, the
 * service unreachable for a while (Increase cannot deliver), and sweeps at any point. However they
 * interleave, once Increase is reachable again and a last sweep has run, Ponte's books equal what the
 * bank simulator says moved: each transfer Increase accepted is one on-ramp, credited; each one Ponte
 * could not take was given back at Increase (and books nothing); the ledger balances.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { returnOutstanding } from '../../src/modules/us-bank/intake.ts';
import { intakeOf } from '../../src/modules/us-bank/module-deps.ts';
import { sweepIncrease } from '../../src/modules/us-bank/sweep.ts';
import type { IncreaseSimulations } from '../../src/rails/increase/simulations.ts';
import { approvedCustomer } from '../helpers/factories.ts';
import type { Client, TestServer } from '../helpers/server.ts';
import type { IncreaseSimulator } from '../increase/simulator.ts';
import { settled, unbalanced } from '../off-ramp/support.ts';
import { openIncreaseSandbox } from './support.ts';

const SECRET = 'property-webhook-secret';

let sim: IncreaseSimulator;
let simulate: IncreaseSimulations;
let server: TestServer;
let sandbox: Client;
let webhookUrl: string;

beforeAll(async () => {
  ({ sim, server, sandbox, webhookUrl, simulate } = await openIncreaseSandbox(SECRET));
});
afterAll(async () => {
  await server.close();
  await sim.close();
});

type Fault = 'none' | 'lost' | 'duplicated' | 'unreadable';
type Step =
  | { kind: 'credit'; account: number; cents: bigint; rail: 'ACH' | 'WIRE'; fault: Fault }
  | { kind: 'sweep' }
  | { kind: 'outage'; on: boolean };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('credit' as const),
      account: fc.integer({ min: 0, max: 2 }),
      // 2,000 USD is over an individual's single limit (11,000 BRL against 7,500)
      cents: fc.constantFrom(1_000n, 2_550n, 10_000n, 200_000n),
      rail: fc.constantFrom('ACH' as const, 'WIRE' as const),
      fault: fc.constantFrom<Fault>('none', 'none', 'lost', 'duplicated', 'unreadable'),
    }),
  },
  { weight: 2, arbitrary: fc.constant({ kind: 'sweep' as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('outage' as const), on: fc.boolean() }) },
);

/** Three accounts of three customers; the third is closed (its number disabled at Increase). */
async function threeAccounts() {
  const accounts: { customerId: string; numberId: string }[] = [];
  for (let i = 0; i < 3; i++) {
    const customer = await approvedCustomer(sandbox);
    const account = (await sandbox.post(`/customers/${customer.id}/accounts`, { currency: 'USD' })).json();
    const number = [...sim.accountNumbers.values()].find(
      (n) => n.idempotency_key === `customer-account-${account.id}`,
    )!;
    if (i === 2) expect((await sandbox.delete(`/accounts/${account.id}`)).statusCode).toBe(200);
    accounts.push({ customerId: customer.id, numberId: number.id });
  }
  return accounts;
}

async function run(steps: Step[]): Promise<void> {
  const accounts = await threeAccounts();
  const intake = intakeOf(server.ctx, 'sandbox')!;
  const sent: string[] = [];
  for (const s of steps) {
    if (s.kind === 'sweep') await sweepIncrease(intake, 'sandbox');
    else if (s.kind === 'outage') sim.setWebhookUrl(s.on ? undefined : webhookUrl);
    else {
      if (s.fault === 'lost') sim.faults.loseWebhooks = 1;
      if (s.fault === 'duplicated') sim.faults.duplicateWebhooks = 1;
      if (s.fault === 'unreadable') sim.faults.hideNextObjects = 1;
      const numberId = accounts[s.account]!.numberId;
      const made =
        s.rail === 'ACH'
          ? await simulate.inboundAch(numberId, s.cents)
          : await simulate.inboundWire(numberId, s.cents);
      sent.push(made.id);
      await sim.settled();
      sim.faults.loseWebhooks = 0;
      sim.faults.duplicateWebhooks = 0;
    }
  }
  // Increase reachable again, every object readable, and a last sweep
  sim.setWebhookUrl(webhookUrl);
  sim.reveal();
  await sweepIncrease(intake, 'sandbox');
  await returnOutstanding(intake, 'sandbox');

  let acceptedCents = 0n;
  for (const id of sent) {
    const bank = sim.inboundAch.get(id) ?? sim.inboundWires.get(id)!;
    const [row] = await server.ctx.db.query<{ outcome: string; transaction_id: string | null }>(
      "SELECT outcome, transaction_id FROM inbound_bank_transfers WHERE bank = 'INCREASE' AND bank_transfer_id = $1",
      [id],
    );
    if (bank.status === 'declined') {
      // the closed account's number: Increase refused it, nothing reached Ponte
      expect(row, id).toBeUndefined();
    } else if (bank.status === 'accepted') {
      expect(row, id).toMatchObject({ outcome: 'APPLIED' });
      expect((await settled(sandbox, row!.transaction_id!)).status).toBe('SUCCESS');
      acceptedCents += BigInt(bank.amount);
    } else {
      // returned (ACH) or reversed (wire) at Increase, because Ponte could not take it
      expect(['returned', 'reversed'], id).toContain(bank.status);
      expect(row, id).toMatchObject({ outcome: 'RETURNED', transaction_id: null });
    }
  }
  const [booked] = await server.ctx.db.query<{ cents: string | null }>(
    `SELECT sum(e.amount)::text AS cents FROM ledger_entries e JOIN ledger_journals j ON j.id = e.journal_id
      WHERE e.account = 'BANK_SETTLEMENT' AND j.reference = ANY($1)`,
    [sent],
  );
  expect(BigInt(booked?.cents ?? 0)).toBe(acceptedCents);
  expect(await unbalanced(server)).toEqual([]);
  // every request Ponte sent the bank was one the official SDK's types allow
  expect(sim.violations).toEqual([]);
}

describe('dollars in, any interleaving', () => {
  it('ends with the books equal to what the bank says moved', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 2, maxLength: 8 }), (steps) => run(steps)),
      { numRuns: 8 },
    );
  }, 240_000);
});
