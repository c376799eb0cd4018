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
import autocannon from 'autocannon';
import { systemClock } from '../src/core/clock.ts';
import { newId } from '../src/core/ids.ts';
import { connectPostgres } from '../src/db/postgres.ts';
import { postJournal } from '../src/modules/ledger/repo.ts';
import { insertRate } from '../src/modules/rates/repo.ts';
import { authorization, type BenchContext, serviceEnv } from './context.ts';
import { median, settle } from './load.ts';
import { freePorts, startChild, waitUntilReady } from './processes.ts';
import { table } from './report.ts';

const log = (line: string) => process.stdout.write(`${line}\n`);

const FUNDING = 10_000_000_000n; // 10,000 USDC per customer
const SECRET = 'bench-provider-secret';

/** Approves every customer and one of their accounts' holders, funds each with USDC, sets the USDC/BRL rate. */
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
          kind: 'STABLECOIN_CREDITED',
          reference: `bench-funding-${pair.customer_id}`,
          transactionId: null,
          entries: [
            { account: 'STABLECOIN_IN_TRANSIT', customerId: null, currency: 'USDC', amount: FUNDING },
            { account: 'CUSTOMER_WALLET', customerId: pair.customer_id, currency: 'USDC', amount: -FUNDING },
          ],
          at: systemClock(),
        });
      }
    });
    return pairs.map((p) => ({ customerId: p.customer_id, accountId: p.account_id }));
  } finally {
    await db.close();
  }
}

type WriteRun = { rps: number; p50: number; p99: number; created: number; other: number; errors: number };

async function drive(
  origin: string,
  path: string,
  headers: Record<string, string>,
  body: () => string,
  connections: number,
  seconds: number,
): Promise<WriteRun> {
  const result = await autocannon({
    url: origin,
    connections,
    duration: seconds,
    timeout: 10,
    headers: { ...headers, 'content-type': 'application/json' },
    requests: [{ method: 'POST', path, setupRequest: (request) => ({ ...request, body: body() }) }],
  });
  const created = result.statusCodeStats?.['201' as keyof typeof result.statusCodeStats]?.count ?? 0;
  return {
    rps: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    created,
    other: result.requests.total - created,
    errors: result.errors + result.timeouts,
  };
}

async function measure(
  ctx: BenchContext,
  origin: string,
  path: string,
  headers: Record<string, string>,
  body: () => string,
) {
  const { settings } = ctx;
  const warmup = await drive(origin, path, headers, body, settings.connections, settings.warmupSeconds);
  const runs: WriteRun[] = [];
  for (let i = 0; i < settings.runs; i++) {
    await settle();
    runs.push(await drive(origin, path, headers, body, settings.connections, settings.runSeconds));
  }
  const all = [warmup, ...runs];
  return {
    rps: median(runs.map((r) => r.rps)),
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
    created: all.reduce((sum, r) => sum + r.created, 0),
    other: all.reduce((sum, r) => sum + r.other, 0),
    errors: all.reduce((sum, r) => sum + r.errors, 0),
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
    const baseline = await measure(ctx, minimalOrigin, '/writes', headers, () =>
      JSON.stringify({ customerId: pick().customerId }),
    );
    await minimal.stop();

    const service = await serviceEnv(ctx);
    const child = startChild('service', 'src/main.ts', {
      ...service.env,
      PONTE_PIX_PROVIDER_SECRET: SECRET,
      PONTE_PIX_PAYOUT_URL: `http://127.0.0.1:${providerPort}/`,
      PONTE_PIX_ISPB: '12345678',
    });
    await waitUntilReady(child, `${service.origin}/readyz`);
    const offRamps = await measure(ctx, service.origin, '/transactions/off-ramp', headers, () => {
      const { customerId, accountId } = pick();
      return JSON.stringify({
        customerId,
        bankAccountId: accountId,
        sourceCurrency: 'USDC',
        sourceAmount: '1.000000',
        purpose: 'BILLS',
      });
    });

    log(
      table(
        ['target', 'req/s', 'p50 ms', 'p99 ms', 'non-201', 'errors', 'x minimal'],
        [
          [
            'minimal write transaction',
            baseline.rps.toFixed(0),
            String(baseline.p50),
            String(baseline.p99),
            String(baseline.other),
            String(baseline.errors),
            '1.00',
          ],
          [
            'POST /transactions/off-ramp',
            offRamps.rps.toFixed(0),
            String(offRamps.p50),
            String(offRamps.p99),
            String(offRamps.other),
            String(offRamps.errors),
            (offRamps.rps / baseline.rps).toFixed(2),
          ],
        ],
      ),
    );
    const check = await balancesHold(ctx);
    log(
      `off-ramps stored: ${check.offRamps}; 201 answers counted: ${offRamps.created}; balances off: ${check.mismatched}`,
    );
    if (offRamps.other > 0 || offRamps.errors > 0 || baseline.other > 0 || baseline.errors > 0) {
      log('FAILED: every creation must answer 201');
      return 1;
    }
    if (check.mismatched > 0 || check.offRamps < offRamps.created) {
      log('FAILED: the balances do not match the off-ramps stored');
      return 1;
    }
    if (offRamps.rps < 0.6 * baseline.rps) {
      log('BELOW TARGET: off-ramp creations under 0.6 x the minimal write transaction');
      return 2;
    }
    return 0;
  } finally {
    await new Promise((resolve) => provider.close(resolve));
  }
}
