/**
 * Property: whatever the interleaving of payments, notifications (lost, repeated, reordered), sweeps,
 * sends (each of Efí's homologation outcomes) and crashes of the Ponte process, once the rail is quiet
 * the ledger says what the PSP (the simulator) says moved: the deposits credited are the payments it
 * received for the run's live charges, and the payouts debited are the sends it made less what was
 * returned. A crash stops the workers and the rail's client and starts a new process on the same
 * database; notifications delivered while it is down are lost.
 */
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPublicApp } from '../../src/app.ts';
import type { AppContext } from '../../src/context.ts';
import { sweepEnvironment } from '../../src/modules/pix/sweep.ts';
import { openContext } from '../../src/runtime.ts';
import { startConfiguredWorkers } from '../../src/workers/index.ts';
import { selfBody } from '../bank-accounts/bodies.ts';
import { individualBody } from '../helpers/factories.ts';
import { client, eventually } from '../helpers/server.ts';
import { offRamp, unbalanced } from '../off-ramp/support.ts';
import type { PspSimulator } from '../psp/simulator.ts';
import { expectNoViolations, pspEnv, startSimulator, terminatedDelivery } from '../psp/support.ts';
import { createOnRamp, type IsolatedServer, setRate, startIsolatedServer } from '../transactions/support.ts';

/** The homologation amounts of a send, in USDC at 5 BRL: confirmed, rejected, refused, returned 2 + 2. */
const SENDS = { '5.00': '1', '15.00': '3', '25.00': '5', '4.00': '0.8' } as const;
const CHARGES = ['60.00', '7.00', '3.00'];

type Process = {
  ctx: AppContext;
  production: FastifyInstance;
  workers: ReturnType<typeof startConfiguredWorkers>;
};

let server: IsolatedServer;
let simulator: PspSimulator;
let current: Process | null;
let productionKey: string;
const silent = { error() {} };

async function start(): Promise<Process> {
  const ctx = await openContext(server.config, undefined, server.ctx.db);
  const production = await buildPublicApp(ctx, 'production');
  return { ctx, production, workers: startConfiguredWorkers(ctx, silent) };
}
async function stop(process: Process): Promise<void> {
  await process.workers?.stop();
  process.ctx.pix.close();
  await process.production.close();
}
/** The process dies (its in-flight notifications unanswered) and a new one starts on the same database. */
async function crash(): Promise<void> {
  const dead = current!;
  current = null;
  await stop(dead);
  current = await start();
}
const api = () => client(current!.production, productionKey);
const txidOf = (transaction: { id: string }) => transaction.id.replace(/-/g, '');

async function sweep(): Promise<void> {
  // due now, whichever process (the workers' or this call) runs it
  await server.ctx.db.query("UPDATE pix_sweeps SET next_at = now() WHERE environment = 'production'");
  await sweepEnvironment(current!.ctx, 'production');
}

const action = fc.oneof(
  {
    arbitrary: fc.record({ t: fc.constant('pay' as const), charge: fc.nat({ max: CHARGES.length - 1 }) }),
    weight: 3,
  },
  {
    arbitrary: fc.record({
      t: fc.constant('send' as const),
      amount: fc.constantFrom(...(Object.keys(SENDS) as (keyof typeof SENDS)[])),
    }),
    weight: 3,
  },
  { arbitrary: fc.record({ t: fc.constant('sweep' as const) }), weight: 1 },
  {
    arbitrary: fc.record({
      t: fc.constant('faults' as const),
      drop: fc.boolean(),
      duplicate: fc.boolean(),
      reorder: fc.boolean(),
    }),
    weight: 2,
  },
  { arbitrary: fc.record({ t: fc.constant('flush' as const) }), weight: 1 },
  { arbitrary: fc.record({ t: fc.constant('replay' as const) }), weight: 1 },
  { arbitrary: fc.record({ t: fc.constant('crash' as const) }), weight: 1 },
);
type Action = typeof action extends fc.Arbitrary<infer A> ? A : never;

async function run(actions: Action[]): Promise<void> {
  const production = api();
  const customer = (await production.post('/customers', individualBody())).json();
  await server.ctx.db.query("UPDATE verifications SET status = 'APPROVED' WHERE customer_id = $1", [
    customer.id,
  ]);
  const account = (await production.post('/bank-accounts', selfBody(customer))).json();
  const charges = await Promise.all(CHARGES.map((amount) => createOnRamp(production, customer.id, amount)));
  const paid = new Set<number>();
  const received: string[] = [];
  const offRamps: string[] = [];
  // the first charge funds the sends
  received.push(await simulator.pay(txidOf(charges[0]!)));
  paid.add(0);
  for (const step of actions) {
    switch (step.t) {
      case 'pay':
        if (paid.has(step.charge)) break;
        paid.add(step.charge);
        received.push(await simulator.pay(txidOf(charges[step.charge]!)));
        break;
      case 'send': {
        const created = await offRamp(api(), {
          customerId: customer.id,
          bankAccountId: account.id,
          sourceCurrency: 'USDC',
          sourceAmount: SENDS[step.amount],
        });
        // refused for want of balance while the funding is not yet applied: nothing was created
        if (created.statusCode === 201) offRamps.push(created.json().id);
        else expect(created.statusCode).toBeLessThan(500);
        break;
      }
      case 'sweep':
        await sweep();
        break;
      case 'faults':
        Object.assign(simulator.faults, {
          drop: step.drop,
          duplicate: step.duplicate,
          reorder: step.reorder,
        });
        break;
      case 'flush':
        await simulator.flush();
        break;
      case 'replay': {
        const e2e = received.at(-1);
        const pix = e2e ? simulator.received.get(e2e) : undefined;
        if (pix) await simulator.notifyRaw(pix.chave, [{ ...pix }]);
        break;
      }
      case 'crash':
        await crash();
        break;
    }
  }
  // quiet: every notification delivered or lost for good, then sweeps until the ledger converges
  Object.assign(simulator.faults, { drop: false, duplicate: false, reorder: false });
  await simulator.flush();
  await simulator.idle();
  const txids = new Set(charges.map(txidOf));
  const sendIds = new Set(offRamps.map((id) => id.replace(/-/g, '')));
  const simulated = () => {
    let deposits = 0n;
    for (const pix of simulator.received.values())
      if (pix.txid && txids.has(pix.txid)) deposits += cents(pix.valor);
    let payouts = 0n;
    for (const send of simulator.sends.values()) {
      if (!sendIds.has(send.idEnvio) || send.status !== 'REALIZADO') continue;
      payouts += cents(send.valor);
      for (const part of send.devolucoes) payouts -= cents(part.valor);
    }
    return { deposits, payouts };
  };
  const ledger = async () => {
    const [row] = await server.ctx.db.query<{ deposits: string; payouts: string }>(
      `SELECT coalesce(sum(e.amount) FILTER (WHERE j.transaction_id = ANY($1::uuid[])), 0)::text AS deposits,
              coalesce(-sum(e.amount) FILTER (WHERE j.transaction_id = ANY($2::uuid[])), 0)::text AS payouts
         FROM ledger_entries e JOIN ledger_journals j ON j.id = e.journal_id
        WHERE e.account = 'PIX_SETTLEMENT'`,
      [charges.map((c) => c.id), offRamps],
    );
    return { deposits: BigInt(row!.deposits), payouts: BigInt(row!.payouts) };
  };
  const statuses = async (ids: string[]) =>
    Promise.all(ids.map(async (id) => (await api().get(`/transactions/${id}`)).json().status as string));
  const onRampsDone = (states: string[]) =>
    states.every((status, i) => status === (paid.has(i) ? 'SUCCESS' : 'AWAITING_FUNDS'));
  const final = await eventually(
    async () => {
      await current!.ctx.pix.settled();
      const moved = simulated();
      const booked = await ledger();
      const onRamps = await statuses(charges.map((c) => c.id));
      const sends = await statuses(offRamps);
      const quiet =
        moved.deposits === booked.deposits &&
        moved.payouts === booked.payouts &&
        onRampsDone(onRamps) &&
        sends.every((s) => ['SUCCESS', 'FAILED', 'RETURNED'].includes(s));
      if (!quiet) await sweep();
      return { moved, booked, onRamps, sends, quiet };
    },
    (state) => state.quiet,
    20_000,
  );
  // every paid charge is SUCCESS, the others still await their funds
  expect(onRampsDone(final.onRamps)).toBe(true);
  // each off-ramp's outcome is its homologation amount's
  for (const id of offRamps) {
    const transaction = (await api().get(`/transactions/${id}`)).json();
    const send = simulator.sends.get(id.replace(/-/g, ''));
    const valor = transaction.receipt?.targetAmount ?? transaction.targetAmount;
    if (!send) expect(transaction.status, `${valor}: refused at once`).toBe('FAILED');
    else if (send.status === 'NAO_REALIZADO') expect(transaction.status).toBe('FAILED');
    else expect(transaction.status).toBe(send.devolucoes.length > 0 ? 'RETURNED' : 'SUCCESS');
  }
  expect(await unbalanced(server)).toEqual([]);
}

const cents = (valor: string) => BigInt(valor.replace('.', ''));

beforeAll(async () => {
  simulator = await startSimulator({
    maxPageSize: 3,
    // down: the PSP's delivery fails and is not tried again
    deliver: terminatedDelivery(() => current?.production),
  });
  server = await startIsolatedServer({
    workers: false,
    env: pspEnv(simulator, {
      PONTE_PIX_RECONCILE_EVERY_MS: '600000',
      PONTE_PIX_PAYOUT_STATUS_AFTER_MS: '100',
      PONTE_OFFRAMP_FEE_BPS: '0',
      PONTE_TRANSACTION_MIN_FEE: '0.00',
    }),
  });
  productionKey = (await server.newTenant()).productionKey;
  await setRate(server, 'BRL/USDC', '0.2');
  await setRate(server, 'USDC/BRL', '5');
  current = await start();
  // registered once a listener answers Efí's check of the address
  await server.ctx.pix.psp('production')!.registerWebhook();
}, 120_000);
afterAll(async () => {
  if (current) await stop(current);
  await server?.close();
  await simulator?.close();
});
expectNoViolations(() => simulator);

describe('the PIX rail through the PSP, as a property', () => {
  it('ends with the ledger equal to what the PSP moved, whatever the interleaving of payments, notifications, sweeps, sends and crashes', async () => {
    await fc.assert(fc.asyncProperty(fc.array(action, { minLength: 3, maxLength: 8 }), run), { numRuns: 15 });
  }, 240_000);
});
