/**
 * The money-out write path: off-ramp creations per second, each deciding everything in one transaction
 * (customer row lock, bank account and holder checks, conversion at the rate in force, partner fee
 * lookup, limit usage in the pool shared with on-ramps, insert, balance check and reserve journal,
 * outbox event), over the seeded customers, all approved and funded with USDC, 50 connections; the
 * settlement and the payout each off-ramp then starts run in the same process, against a local payout
 * provider answering 202. Measured against the minimal write transaction of `servers/minimal-write.ts`
 * in the same run. Every answer must be 201, and every customer's balance must equal its funding less
 * the off-ramps stored.
 */
import { createServer } from 'node:http';
import { systemClock } from '../src/core/clock.ts';
import { newId } from '../src/core/ids.ts';
import { connectPostgres } from '../src/db/postgres.ts';
import { chainDeposit } from '../src/modules/ledger/postings.ts';
import { postJournal } from '../src/modules/ledger/repo.ts';
import type { Blockchain } from '../src/modules/rails/chains/networks.ts';
import { insertRate } from '../src/modules/rates/repo.ts';
import { authorization, type BenchContext, databaseName, serviceEnv } from './context.ts';
import { median, settle } from './load.ts';
import { freePorts, startChild, waitUntilReady } from './processes.ts';
import { loadWindows } from './profile.ts';
import { table } from './report.ts';
import { driveWrites, microseconds, otherAnswers, type WriteRun, type WriteTarget } from './writes.ts';

const log = (line: string) => process.stdout.write(`${line}\n`);

const FUNDING = 10_000_000_000n; // 10,000 USDC per customer
const SECRET = 'bench-provider-secret';
/** The chain the customers' USDC is deposited on, and the service's default chain (drawn from first). */
const CHAIN: Blockchain = 'ETHEREUM';

/**
 * Approves every customer and one of their accounts' holders, funds each with USDC, sets the USDC/BRL
 * rate. The funding is posted as the service posts a confirmed on-chain deposit (`chainDeposit`: the
 * chain's holdings against the customer's wallet on that chain).
 */
async function prepare(ctx: BenchContext): Promise<{ customerId: string; accountId: string }[]> {
  const db = connectPostgres(ctx.databaseUrl, { max: 2 });
  const tenant = ctx.tenant;
  try {
    await db.query(
      `UPDATE verifications SET status = 'APPROVED',
              status_reason = '{"rejectLabels":[],"rejectSubLabels":[],"documents":[]}', updated_at = now()
        WHERE project_id = $1 AND environment = $2`,
      [tenant.projectId, tenant.environment],
    );
    const pairs = await db.query<{ customer_id: string; account_id: string }>(
      `SELECT DISTINCT ON (customer_id) customer_id, id AS account_id FROM bank_accounts
        WHERE project_id = $1 AND environment = $2 AND deleted_at IS NULL
        ORDER BY customer_id, id`,
      [tenant.projectId, tenant.environment],
    );
    await db.query(
      `UPDATE bank_accounts SET holder_verification_status = 'APPROVED' WHERE id = ANY($1::uuid[])`,
      [pairs.map((p) => p.account_id)],
    );
    await db.transaction(async (tx) => {
      await insertRate(tx, {
        id: newId(),
        pair: 'USDC/BRL',
        rate: 55_000_000_000n,
        set_by: 'benchmark',
        created_at: systemClock(),
      });
      for (const pair of pairs) {
        await postJournal(tx, {
          tenant,
          kind: 'CHAIN_DEPOSIT',
          reference: `bench-funding-${pair.customer_id}`,
          transactionId: null,
          entries: chainDeposit(pair.customer_id, 'USDC', FUNDING, CHAIN),
          at: systemClock(),
        });
      }
    });
    return pairs.map((p) => ({ customerId: p.customer_id, accountId: p.account_id }));
  } finally {
    await db.close();
  }
}

async function measure(ctx: BenchContext, target: WriteTarget, profiled: boolean) {
  const { settings } = ctx;
  const warmup = await driveWrites(target, settings.connections, settings.warmupSeconds);
  const runs: WriteRun[] = [];
  for (let i = 0; i < settings.runs; i++) {
    await settle();
    const run = await driveWrites(target, settings.connections, settings.runSeconds);
    if (profiled) loadWindows.push(run.window);
    runs.push(run);
  }
  const all = [warmup, ...runs];
  const cpu = (pick: (run: WriteRun) => number | undefined) => {
    const values = runs.map(pick).filter((value): value is number => value !== undefined);
    return values.length === 0 ? undefined : median(values);
  };
  return {
    rps: median(runs.map((r) => r.rps)),
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
    cpuUs: cpu((r) => r.cpuUs),
    dbCpuUs: cpu((r) => r.dbCpuUs),
    created: all.reduce((sum, r) => sum + r.created, 0),
    other: all.reduce((sum, r) => sum + r.other, 0),
    errors: all.reduce((sum, r) => sum + r.errors, 0),
    answers: otherAnswers(all),
  };
}

/** Funding less everything reserved or paid out, per customer: must equal the ledger's balance. */
async function balancesHold(ctx: BenchContext): Promise<{ offRamps: number; mismatched: number }> {
  const db = connectPostgres(ctx.databaseUrl, { max: 1 });
  try {
    const [count] = await db.query<{ n: bigint }>(
      `SELECT count(*) AS n FROM transactions WHERE project_id = $1 AND type = 'OFF_RAMP'`,
      [ctx.tenant.projectId],
    );
    const [mismatch] = await db.query<{ n: bigint }>(
      `SELECT count(*) AS n FROM (
         SELECT c.id,
                $2::bigint - coalesce((SELECT sum(t.amount) FROM transactions t
                                        WHERE t.customer_id = c.id AND t.type = 'OFF_RAMP' AND t.status <> 'FAILED'), 0)
                  AS expected,
                coalesce((SELECT -sum(e.amount) FROM ledger_entries e
                           WHERE e.customer_id = c.id AND e.currency = 'USDC'), 0) AS actual
           FROM customers c WHERE c.project_id = $1
       ) balances WHERE expected <> actual AND actual <> 0`,
      [ctx.tenant.projectId, FUNDING.toString()],
    );
    return { offRamps: Number(count!.n), mismatched: Number(mismatch!.n) };
  } finally {
    await db.close();
  }
}

export async function measureOffRamp(ctx: BenchContext): Promise<number> {
  const { settings } = ctx;
  const funded = await prepare(ctx);
  const provider = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(202).end('{}'));
  });
  const [providerPort, minimalPort] = await freePorts(2);
  await new Promise<void>((resolve) => provider.listen(providerPort, '127.0.0.1', resolve));
  const headers = authorization(ctx);
  let next = 0;
  const pick = () => funded[next++ % funded.length]!;
  try {
    log(`\nOff-ramp creations over ${funded.length} funded customers, ${settings.connections} connections`);

    const minimal = startChild('minimal-write', 'bench/servers/minimal-write.ts', {
      BENCH_PORT: String(minimalPort),
      DATABASE_URL: ctx.databaseUrl,
      BENCH_POOL_SIZE: String(settings.poolSize),
      BENCH_API_KEY: ctx.apiKey,
      BENCH_PROJECT_ID: ctx.tenant.projectId,
    });
    const minimalOrigin = `http://127.0.0.1:${minimalPort}`;
    await waitUntilReady(minimal, `${minimalOrigin}/healthz`);
    const database = databaseName(ctx);
    const baseline = await measure(
      ctx,
      {
        origin: minimalOrigin,
        path: '/writes',
        headers,
        body: () => JSON.stringify({ customerId: pick().customerId }),
        pid: minimal.process.pid,
        database,
      },
      false,
    );
    await minimal.stop();

    const service = await serviceEnv(ctx);
    const child = startChild(
      'service',
      'src/main.ts',
      {
        ...service.env,
        PONTE_PIX_PROVIDER_SECRET: SECRET,
        PONTE_PIX_PAYOUT_URL: `http://127.0.0.1:${providerPort}/`,
        PONTE_PIX_ISPB: '12345678',
        PONTE_DEFAULT_CHAIN: CHAIN,
      },
      settings.profileDir,
    );
    await waitUntilReady(child, `${service.origin}/readyz`);
    const offRamps = await measure(
      ctx,
      {
        origin: service.origin,
        path: '/transactions/off-ramp',
        headers,
        body: () => {
          const { customerId, accountId } = pick();
          return JSON.stringify({
            customerId,
            bankAccountId: accountId,
            sourceCurrency: 'USDC',
            sourceAmount: '1.000000',
            purpose: 'BILLS',
          });
        },
        pid: child.process.pid,
        database,
      },
      true,
    );

    const ratio = offRamps.rps / baseline.rps;
    log(
      table(
        [
          'target',
          'req/s',
          'p50 ms',
          'p99 ms',
          'server µs/req',
          'PostgreSQL µs/req',
          'non-201',
          'errors',
          'x minimal',
        ],
        [
          ['minimal write transaction', baseline, '1.00'] as const,
          ['POST /transactions/off-ramp', offRamps, ratio.toFixed(2)] as const,
        ].map(([name, m, x]) => [
          name,
          m.rps.toFixed(0),
          String(m.p50),
          String(m.p99),
          microseconds(m.cpuUs),
          microseconds(m.dbCpuUs),
          String(m.other),
          String(m.errors),
          x,
        ]),
      ),
    );
    const check = await balancesHold(ctx);
    log(
      `off-ramps stored: ${check.offRamps}; 201 answers counted: ${offRamps.created}; balances off: ${check.mismatched}`,
    );
    let failed = false;
    for (const [label, m] of [
      ['the minimal write transaction', baseline],
      ['off-ramp creation', offRamps],
    ] as const) {
      if (m.other > 0 || m.errors > 0) {
        log(
          `FAILED: every request of ${label} must answer 201: ${m.other} other answers (${m.answers}), ` +
            `${m.errors} socket errors or timeouts`,
        );
        failed = true;
      }
    }
    if (check.mismatched > 0 || check.offRamps < offRamps.created) {
      log('FAILED: the balances do not match the off-ramps stored');
      failed = true;
    }
    if (failed) return 1;
    if (ratio < settings.writeTarget) {
      log(`TARGET MISSED: off-ramp creation below ${settings.writeTarget} of the minimal write transaction`);
      return 2;
    }
    return 0;
  } finally {
    await new Promise((resolve) => provider.close(resolve));
  }
}
