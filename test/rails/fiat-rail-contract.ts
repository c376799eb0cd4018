/**
 * The fiat-rail seam's contract (src/rails/fiat-rail.ts), written once and run against every
 * implementation: each rail's test file calls `fiatRailContract` with a fixture that knows the rail's own
 * shapes and, where there is one, its provider (a simulator speaking the provider's published API).
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type {
  Collection,
  FiatRail,
  PayoutOrder,
  PayoutRef,
  StatusAnswer,
  SubmitAnswer,
} from '../../src/rails/fiat-rail.ts';

export type ContractFixture<Instructions, Destination> = {
  rail(): FiatRail<Instructions, Destination>;
  /** Checks that instructions tell a payer how to pay `amount` minor units. */
  expectInstructions(instructions: Instructions, amount: bigint): void;
  /** A payout the provider makes (it settles as COMPLETED). */
  paidOrder(): PayoutOrder<Destination>;
  /** A payout the provider refuses. */
  refusedOrder(): PayoutOrder<Destination>;
  /** A payout the receiving side gives back once made (null: the rail cannot be made to). */
  returnedOrder: (() => PayoutOrder<Destination>) | null;
  /** A key for a new payment, of the form the rail derives from an id. */
  newKey(): string;
  /**
   * The payer pays a collection at the provider; the received payment's reference, or null when there is
   * no provider (the sandbox's deposits are simulated through Ponte's own routes, not the rail).
   */
  pay(collection: Collection<Instructions>, amount: bigint): Promise<string | null>;
  /** How many payments the provider holds under `key` (null: no provider to ask). */
  paymentsUnder(key: string): number | null;
  /** Lets the provider settle what it took (a PSP's sends and devoluções). */
  settle(): Promise<void>;
  /** Holds the provider's settlement until `settle` (so a look-up sees a payment under way). */
  holdSettlement(hold: boolean): void;
};

const ref = (
  key: string,
  attempts = 1,
  kind: PayoutRef['kind'] = 'OFF_RAMP',
  refundOf: string | null = null,
) => ({
  key,
  kind,
  refundOf,
  attempts,
});

/** A payment's result: the answer's own, or (taken for later) what a look-up says once the provider settled. */
async function resultOf<I, D>(
  fixture: ContractFixture<I, D>,
  rail: FiatRail<I, D>,
  answer: SubmitAnswer,
  asked: PayoutRef,
): Promise<StatusAnswer> {
  if ('result' in answer) return answer;
  expect(answer).toHaveProperty('accepted', true);
  expect(rail.reportsLater).toBe(true);
  for (let tries = 0; tries < 50; tries++) {
    await fixture.settle();
    const state = await rail.lookUp(asked);
    if ('result' in state) return state;
  }
  throw new Error(`the provider never settled ${asked.key}`);
}

const resultStatus = (state: StatusAnswer) => ('result' in state ? state.result : state);

export function fiatRailContract<I, D>(name: string, fixture: ContractFixture<I, D>): void {
  describe(`the fiat-rail seam: ${name}`, () => {
    it('collect gives deposit instructions for the amount and a reference to match deposits by', async () => {
      const collection = await fixture.rail().collect({
        transactionId: randomUUID(),
        amount: 1050n,
        expiresInSeconds: 1800,
        payer: { name: 'Ana Souza', country: 'BRA', type: 'INDIVIDUAL', taxId: '529.982.247-25' },
      });
      expect(collection.reference).toMatch(/^[A-Za-z0-9]{1,35}$/);
      fixture.expectInstructions(collection.instructions, 1050n);
      await fixture.rail().cancelCollection(collection.reference);
    });

    it('payOut is idempotent by its key: asked twice (a retry after a crash), the provider makes one payment', async () => {
      const rail = fixture.rail();
      const key = fixture.newKey();
      const order = fixture.paidOrder();
      const first = await rail.payOut(order, ref(key, 1));
      const again = await rail.payOut(order, ref(key, 2));
      expect('retry' in first || 'retry' in again).toBe(false);
      expect(resultStatus(await resultOf(fixture, rail, again, ref(key, 2)))).toEqual({
        status: 'COMPLETED',
      });
      expect(resultStatus(await resultOf(fixture, rail, first, ref(key, 1)))).toEqual({
        status: 'COMPLETED',
      });
      expect(fixture.paymentsUnder(key) ?? 1).toBe(1);
    });

    it('payOut of a payment the provider refuses answers REJECTED with the reason', async () => {
      const rail = fixture.rail();
      const key = fixture.newKey();
      const answer = await rail.payOut(fixture.refusedOrder(), ref(key));
      const state = resultStatus(await resultOf(fixture, rail, answer, ref(key)));
      expect(state).toMatchObject({ status: 'REJECTED', reason: expect.stringMatching(/\S/) });
    });

    it('lookUp says what the provider says now: nothing of a payment never made, under way, then made', async () => {
      const rail = fixture.rail();
      expect(await rail.lookUp(ref(fixture.newKey()))).toEqual({ unknown: true });
      if (!rail.reportsLater) return; // a rail that settles in its answer holds nothing to look up
      fixture.holdSettlement(true);
      try {
        const key = fixture.newKey();
        expect(await rail.payOut(fixture.paidOrder(), ref(key))).toMatchObject({ accepted: true });
        expect(await rail.lookUp(ref(key))).toMatchObject({ pending: true });
        await fixture.settle();
        expect(resultStatus(await rail.lookUp(ref(key)))).toEqual({ status: 'COMPLETED' });
      } finally {
        fixture.holdSettlement(false);
      }
    });

    it('sweep returns every movement of the window once: what was received and what was sent', async () => {
      const rail = fixture.rail();
      const from = new Date(Date.now() - 1_000);
      const collection = await rail.collect({
        transactionId: randomUUID(),
        amount: 700n,
        expiresInSeconds: 1800,
        payer: null,
      });
      const received = await fixture.pay(collection, 700n);
      const key = fixture.newKey();
      await resultOf(fixture, rail, await rail.payOut(fixture.paidOrder(), ref(key)), ref(key));
      const swept = await rail.sweep({ from, to: new Date(Date.now() + 1_000) });
      expect(swept.complete).toBe(true);
      const references = swept.received.map((item) => item.reference);
      const keys = swept.sent.map((item) => item.key);
      expect(new Set(references).size).toBe(references.length);
      expect(new Set(keys).size).toBe(keys.length);
      if (received === null) {
        // no provider: nothing moves outside Ponte, so the sweep has nothing the flows did not apply
        expect(swept.received).toEqual([]);
        expect(swept.sent).toEqual([]);
        return;
      }
      expect(swept.received.filter((item) => item.reference === received)).toMatchObject([
        { amount: 700n, collection: collection.reference },
      ]);
      expect(swept.sent.filter((item) => item.key === key)).toMatchObject([
        { state: { result: { status: 'COMPLETED' } } },
      ]);
    });

    it('giveBack gives a received deposit back to its payer, once however often it is asked', async () => {
      const rail = fixture.rail();
      const collection = await rail.collect({
        transactionId: randomUUID(),
        amount: 900n,
        expiresInSeconds: 1800,
        payer: null,
      });
      const deposit = (await fixture.pay(collection, 900n)) ?? fixture.newKey();
      const key = fixture.newKey();
      const asked = ref(key, 1, 'REFUND', deposit);
      const first = await rail.giveBack({ amount: 900n, of: deposit }, asked);
      const again = await rail.giveBack({ amount: 900n, of: deposit }, ref(key, 2, 'REFUND', deposit));
      expect(resultStatus(await resultOf(fixture, rail, first, asked))).toEqual({ status: 'COMPLETED' });
      expect(resultStatus(await resultOf(fixture, rail, again, asked))).toEqual({ status: 'COMPLETED' });
      if (fixture.paymentsUnder(key) === null) return;
      expect(fixture.paymentsUnder(key)).toBe(1);
      const swept = await rail.sweep({
        from: new Date(Date.now() - 60_000),
        to: new Date(Date.now() + 1_000),
      });
      const item = swept.received.find((found) => found.reference === deposit);
      expect(item?.givenBack).toEqual([{ key, state: { result: { status: 'COMPLETED' } } }]);
    });

    it.skipIf(fixture.returnedOrder === null)(
      'a payout the receiving side gives back is reported with each part returned',
      async () => {
        const rail = fixture.rail();
        const key = fixture.newKey();
        const order = fixture.returnedOrder!();
        await resultOf(fixture, rail, await rail.payOut(order, ref(key)), ref(key));
        await fixture.settle();
        const swept = await rail.sweep({
          from: new Date(Date.now() - 60_000),
          to: new Date(Date.now() + 1_000),
        });
        const sent = swept.sent.find((item) => item.key === key);
        expect(sent?.returns.length).toBeGreaterThan(0);
        expect(sent!.returns.reduce((sum, part) => sum + part.amount, 0n)).toBe(order.amount);
      },
    );
  });
}
