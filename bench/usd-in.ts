/**
 * `npm run bench -- usd-in`: dollars in at Increase, end to end. The service runs with its sandbox
 * pointed at the Increase simulator (test/increase/simulator.ts, which checks every request against the
 * official SDK's types and signs its webhooks). 100 approved sandbox customers each open a USD account
 * (an Increase account number); then 10,000 inbound ACH credits of 10.00 USD are simulated, 20 webhooks
 * under way at a time (answered other than 2xx, delivered again, as Increase does), each verified by the
 * service, read back from Increase and applied
 * as an on-ramp that converts to USDC and credits the customer. Reported: the credits applied per second
 * (from the first simulation to the last on-ramp SUCCESS), then the time of one sweep of Increase's
 * inbound transfers over the 10,000, every one already applied (nothing to take). No floor yet.
 */

import { loadConfig } from '../src/config.ts';
import { connectPostgres } from '../src/db/postgres.ts';
import { intakeOf } from '../src/modules/us-bank/module-deps.ts';
import { sweepIncrease } from '../src/modules/us-bank/sweep.ts';
import { createIncreaseSimulations } from '../src/rails/increase/simulations.ts';
import { openContext } from '../src/runtime.ts';
import {
  SIMULATOR_ACCOUNT_ID,
  SIMULATOR_API_KEY,
  startIncreaseSimulator,
} from '../test/increase/simulator.ts';
import type { BenchContext } from './context.ts';
import { serviceEnv } from './context.ts';
import { sandboxCustomers } from './onramp-psp.ts';
import { startChild, waitUntilReady } from './processes.ts';

const log = (line: string) => process.stdout.write(`${line}\n`);
const CREDITS = Number(process.env.BENCH_USD_CREDITS ?? 10_000);
const CUSTOMERS = 100;
const IN_FLIGHT = 20;
const SECRET = 'bench-increase-webhooks';

async function openAccounts(origin: string, key: string, customers: string[]): Promise<string[]> {
  const accounts: string[] = [];
  for (const id of customers) {
    const response = await fetch(`${origin}/customers/${id}/accounts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ currency: 'USD' }),
    });
    if (response.status !== 201) throw new Error(`account: ${response.status} ${await response.text()}`);
    accounts.push(((await response.json()) as { id: string }).id);
  }
  return accounts;
}

async function succeeded(ctx: BenchContext): Promise<{ success: number; other: number }> {
  const db = connectPostgres(ctx.databaseUrl, { max: 1 });
  try {
    const rows = await db.query<{ success: string; other: string }>(
      `SELECT count(*) FILTER (WHERE status = 'SUCCESS')::text AS success,
              count(*) FILTER (WHERE status <> 'SUCCESS')::text AS other
         FROM transactions WHERE environment = 'sandbox' AND rail = 'ACH'`,
    );
    return { success: Number(rows[0]!.success), other: Number(rows[0]!.other) };
  } finally {
    await db.close();
  }
}

export async function measureUsdIn(ctx: BenchContext): Promise<number> {
  // Increase delivers a webhook again while it is not answered 2xx (a 503 of a busy service included)
  const sim = await startIncreaseSimulator({ webhookSecret: SECRET, webhookRetries: 8 });
  const bankEnv = {
    PONTE_SANDBOX_USD_BANK: 'increase',
    PONTE_SANDBOX_INCREASE_URL: sim.url,
    PONTE_SANDBOX_INCREASE_API_KEY: SIMULATOR_API_KEY,
    PONTE_SANDBOX_INCREASE_ACCOUNT_ID: SIMULATOR_ACCOUNT_ID,
    PONTE_SANDBOX_INCREASE_WEBHOOK_SECRET: SECRET,
  };
  const service = await serviceEnv(ctx);
  const child = startChild('service', 'src/main.ts', { ...service.env, ...bankEnv });
  try {
    await waitUntilReady(child, `${service.origin}/readyz`);
    const sandboxOrigin = service.env.PONTE_SANDBOX_URL;
    const customers = await sandboxCustomers(ctx, sandboxOrigin, CUSTOMERS);
    const accounts = await openAccounts(sandboxOrigin, customers.key, customers.ids);
    const numbers = accounts.map((account) => {
      const number = [...sim.accountNumbers.values()].find(
        (n) => n.idempotency_key === `customer-account-${account}`,
      );
      if (!number) throw new Error(`no account number for ${account}`);
      return number.id;
    });
    sim.setWebhookUrl(`${sandboxOrigin}/webhooks/increase`);
    const simulate = createIncreaseSimulations({
      url: new URL(sim.url),
      apiKey: SIMULATOR_API_KEY,
      accountId: SIMULATOR_ACCOUNT_ID,
      webhookSecret: SECRET,
      maxRetries: 0,
    });
    log(
      `\n${CREDITS} inbound ACH credits of 10.00 USD to ${numbers.length} accounts, ${IN_FLIGHT} at a time`,
    );
    const started = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (next < CREDITS) {
          const n = next++;
          await simulate.inboundAch(numbers[n % numbers.length]!, 1_000n, 'BENCH PAYER');
          // at most IN_FLIGHT webhooks under way, as a bank delivers them
          await sim.settled();
        }
      }),
    );
    await sim.settled();
    let counts = await succeeded(ctx);
    for (let wait = 0; counts.success < CREDITS && wait < 3_000; wait++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      counts = await succeeded(ctx);
    }
    const seconds = (performance.now() - started) / 1000;
    log(`  webhook answers: ${[...sim.webhookAnswers].map(([status, n]) => `${status} x${n}`).join(', ')}`);
    log(
      `  applied end to end: ${counts.success} on-ramps SUCCESS (${counts.other} other) in ${seconds.toFixed(1)} s: ` +
        `${(counts.success / seconds).toFixed(0)} credits/s (webhook verified, read back, priced, booked, converted, credited)`,
    );

    const app = await openContext(
      loadConfig({
        ...bankEnv,
        DATABASE_URL: ctx.databaseUrl,
        PONTE_DATA_DIR: 'memory://',
        PONTE_LOG_LEVEL: 'silent',
        PONTE_WORKERS: 'false',
      }),
    );
    try {
      const calls = sim.requests.length;
      const sweepStarted = performance.now();
      const report = await sweepIncrease(intakeOf(app, 'sandbox')!, 'sandbox');
      const sweepSeconds = (performance.now() - sweepStarted) / 1000;
      log(
        `  sweep over them: ${sweepSeconds.toFixed(2)} s; listed ${report.seen}, taken ${report.taken}, ` +
          `pending ${report.pending}; Increase calls: ${sim.requests.length - calls}`,
      );
      const violations = sim.violations.splice(0);
      if (violations.length > 0)
        log(`FAILED: requests outside the SDK's types: ${violations.slice(0, 5).join('; ')}`);
      const ok =
        counts.success === CREDITS && report.seen >= CREDITS && report.taken === 0 && violations.length === 0;
      return ok ? 0 : 1;
    } finally {
      app.pix.close();
      await app.db.close();
    }
  } finally {
    await sim.close();
  }
}
