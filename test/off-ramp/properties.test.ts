/**
 * Properties of money out. The pricing arithmetic over random amounts, rates and fee terms; and the
 * whole service over random sequences of on-ramps, off-ramps, rail failures and returns: every
 * customer's balance equals the ledger's sum and an independent model of it, every receipt has
 * fees + net = gross, and every journal balances — no unit created or lost to rounding.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  convert,
  type FeeTerms,
  PricingError,
  type PricingInput,
  priceFromSource,
  priceFromTarget,
} from '../../src/modules/pricing/pricing.ts';
import { type Client, client } from '../helpers/server.ts';
import { type IsolatedServer, startIsolatedServer } from '../transactions/support.ts';
import {
  balances,
  customerWithAccount,
  ledgerBalances,
  offRamp,
  operatorPost,
  settled,
  unbalanced,
} from './support.ts';

const terms = fc.record({
  basisPoints: fc.integer({ min: 0, max: 2000 }),
  flat: fc.bigInt({ min: 0n, max: 500n }),
  minimum: fc.bigInt({ min: 0n, max: 100n }),
});

const input = fc.record({
  direction: fc.constantFrom('ON_RAMP', 'OFF_RAMP', 'BRL_OUT'),
  rate: fc.bigInt({ min: 10_000_000n, max: 100_000_000_000n }), // 0.001 to 10
  platform: terms,
  partner: terms.map((t): FeeTerms => ({ ...t, minimum: 0n })),
});

function pricingInput(value: {
  direction: string;
  rate: bigint;
  platform: FeeTerms;
  partner: FeeTerms;
}): PricingInput {
  if (value.direction === 'ON_RAMP') {
    return {
      sourceCurrency: 'BRL',
      targetCurrency: 'USDC',
      baseRate: value.rate,
      rateToBrl: 10n ** 10n,
      ...value,
    };
  }
  if (value.direction === 'BRL_OUT') {
    return {
      sourceCurrency: 'BRL',
      targetCurrency: 'BRL',
      baseRate: 10n ** 10n,
      rateToBrl: 10n ** 10n,
      ...value,
    };
  }
  return {
    sourceCurrency: 'USDT',
    targetCurrency: 'BRL',
    baseRate: value.rate,
    rateToBrl: value.rate,
    ...value,
  };
}

describe('pricing arithmetic', () => {
  it('fees + net = source and target = net × rate rounded down, for any amount, rate and terms', () => {
    fc.assert(
      fc.property(input, fc.bigInt({ min: 1n, max: 10n ** 15n }), (value, source) => {
        const priced = pricingInput(value);
        try {
          const p = priceFromSource(priced, source);
          expect(p.platformFee + p.partnerFee).toBe(p.fee);
          expect(p.fee + p.net).toBe(p.source);
          expect(p.net > 0n).toBe(true);
          expect(p.target).toBe(
            convert(p.net, priced.sourceCurrency, priced.targetCurrency, priced.baseRate),
          );
        } catch (error) {
          if (!(error instanceof PricingError)) throw error;
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('a target amount is delivered by the smallest source amount that delivers it', () => {
    fc.assert(
      fc.property(input, fc.bigInt({ min: 1n, max: 10n ** 12n }), (value, target) => {
        const priced = pricingInput(value);
        let p: ReturnType<typeof priceFromTarget>;
        try {
          p = priceFromTarget(priced, target);
        } catch (error) {
          if (error instanceof PricingError) return;
          throw error;
        }
        expect(p.target).toBe(target);
        expect(p.fee + p.net).toBe(p.source);
        expect(convert(p.net, priced.sourceCurrency, priced.targetCurrency, priced.baseRate) >= target).toBe(
          true,
        );
        if (p.source > 1n) {
          try {
            const less = priceFromSource(priced, p.source - 1n);
            expect(less.target < target).toBe(true);
          } catch (error) {
            if (!(error instanceof PricingError)) throw error;
          }
        }
      }),
      { numRuns: 2000 },
    );
  });
});

type Op =
  | { kind: 'onRamp'; amount: number; wrong: boolean }
  | { kind: 'offRamp'; currency: 'USDC' | 'BRL'; share: number; failing: boolean }
  | { kind: 'return' };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant('onRamp' as const),
    amount: fc.integer({ min: 100, max: 300_000 }),
    wrong: fc.boolean(),
  }),
  fc.record({
    kind: fc.constant('offRamp' as const),
    currency: fc.constantFrom('USDC' as const, 'BRL' as const),
    share: fc.integer({ min: 1, max: 120 }),
    failing: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('return' as const) }),
);

const units = (text: string) => BigInt(text.replace('.', ''));
const cents = (n: bigint) => `${n / 100n}.${(n % 100n).toString().padStart(2, '0')}`;
const micros = (n: bigint) => `${n / 1_000_000n}.${(n % 1_000_000n).toString().padStart(6, '0')}`;

describe('random sequences of on-ramps, off-ramps, failures and returns', () => {
  let server: IsolatedServer;
  beforeAll(async () => {
    server = await startIsolatedServer({
      env: { PONTE_LIMIT_INDIVIDUAL_DAILY: '10000000.00', PONTE_LIMIT_INDIVIDUAL_MONTHLY: '10000000.00' },
    });
  });
  afterAll(async () => {
    await server.close();
  });

  it('keep every balance equal to the ledger and to a model, with fees + net = gross on every receipt', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(op, { minLength: 3, maxLength: 8 }),
        fc.integer({ min: 0, max: 300 }),
        fc.integer({ min: 0, max: 100 }),
        async (ops, partnerBps, partnerFlatCents) => {
          const tenant = await server.newTenant();
          await operatorPost(server, `/operator/projects/${tenant.projectId}/partner-fees`, {
            transactionType: 'OFF_RAMP',
            bps: partnerBps,
            flat: cents(BigInt(partnerFlatCents)),
          });
          const api: Client = client(server.sandbox, tenant.sandboxKey);
          const { customer, accountId } = await customerWithAccount(api);
          const model = { USDC: 0n, BRL: 0n } as Record<'USDC' | 'BRL', bigint>;
          const succeeded: string[] = [];
          for (const step of ops) {
            if (step.kind === 'onRamp') {
              const amount = BigInt(step.amount);
              const created = (
                await api.post('/transactions/on-ramp', {
                  customerId: customer.id,
                  currency: 'BRL',
                  amount: cents(amount),
                })
              ).json();
              const paid = step.wrong ? amount + 1n : amount;
              const done = (
                await api.post(`/sandbox/transactions/${created.id}/deposit`, { amount: cents(paid) })
              ).json();
              if (done.status === 'SUCCESS') {
                expect(units(done.receipt.fee) + units(done.receipt.netAmount)).toBe(
                  units(done.receipt.sourceAmount),
                );
                model.USDC += units(done.receipt.targetAmount);
              } else {
                expect(done.status).toBe('FAILED');
                model.BRL += paid; // held for refund in the BRL balance
              }
            } else if (step.kind === 'offRamp') {
              const available = model[step.currency];
              let amount = (available * BigInt(step.share)) / 100n;
              const scale = step.currency === 'USDC' ? 1_000_000n : 100n;
              // amounts ending in .13 are rejected by the sandbox rail; others are not
              const thirteen = (13n * scale) / 100n;
              amount = step.failing
                ? (amount / scale) * scale + thirteen
                : amount % scale === thirteen
                  ? amount + 1n
                  : amount;
              if (amount <= 0n) continue;
              const text = step.currency === 'USDC' ? micros(amount) : cents(amount);
              const response = await offRamp(api, {
                customerId: customer.id,
                bankAccountId: accountId,
                sourceCurrency: step.currency,
                sourceAmount: text,
              });
              if (response.statusCode !== 201) {
                expect(response.statusCode === 422 || response.statusCode === 400).toBe(true);
                if (response.statusCode === 422)
                  expect(amount > available || response.json().code !== 'insufficient_funds').toBe(true);
                continue;
              }
              const r = response.json().receipt;
              expect(units(r.fees.platform.amount) + units(r.fees.partner.amount)).toBe(units(r.fee));
              expect(units(r.fee) + units(r.netAmount)).toBe(units(r.sourceAmount));
              const done = await settled(api, response.json().id);
              if (done.status === 'SUCCESS') {
                model[step.currency] -= amount;
                succeeded.push(done.id);
              } else {
                expect(step.failing).toBe(true);
              }
            } else if (succeeded.length > 0) {
              const id = succeeded.shift()!;
              const returned = (await api.post(`/sandbox/transactions/${id}/return`, {})).json();
              expect(returned.status).toBe('RETURNED');
              model.BRL += units(returned.receipt.targetAmount);
            }
          }
          const seen = await balances(api, customer.id);
          const ledger = await ledgerBalances(server, customer.id);
          expect(units(seen.USDC!)).toBe(model.USDC);
          expect(units(seen.BRL!)).toBe(model.BRL);
          expect(ledger.USDC ?? 0n).toBe(model.USDC);
          expect(ledger.BRL ?? 0n).toBe(model.BRL);
          expect(await unbalanced(server)).toEqual([]);
        },
      ),
      { numRuns: 12 },
    );
  }, 600_000);
});
