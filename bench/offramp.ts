/**
 * The money-out write path: off-ramp creations per second, each deciding everything in one transaction
 * (customer row lock, bank account and holder checks, conversion at the rate in force, partner fee
 * lookup, limit usage in the pool shared with on-ramps, insert, balance check and reserve journal,
 * outbox event), over the seeded customers, all approved and funded with USDC, 50 connections, against
 * the minimal write transaction the on-ramp bench uses (servers/write.ts: lock, insert of a complete
 * transaction row, commit) in the same run, interleaved. The service runs API-only
 * (`PONTE_WORKERS=false`); after the runs a worker process over the same database carries every
 * off-ramp on (settlement steps, then the payout sent to the PSP simulator), its throughput
 * reported on its own line. Every answer must be 201, and every customer's balance must equal its
 * funding less the off-ramps stored, after the reserves and again after the settlement.
 */
import { systemClock } from '../src/core/clock.ts';
import type { Blockchain } from '../src/core/currencies.ts';
import { newId } from '../src/core/ids.ts';
import { connectPostgres } from '../src/db/postgres.ts';
import { chainDeposit } from '../src/modules/ledger/postings.ts';
import { postJournal } from '../src/modules/ledger/service.ts';
import { insertRate } from '../src/modules/pricing/rates-repo.ts';
import { authorization, type BenchContext, databaseName, minimalServerEnv, serviceEnv } from './context.ts';
import { onRampTarget } from './onramp.ts';
import { startChild, waitUntilReady } from './processes.ts';
import { startBenchPsp } from './psp.ts';
import { type Contender, compareWrites, non201, writeTable } from './writes.ts';

const log = (line: string) => process.stdout.write(`${line}\n`);

const FUNDING = 10_000_000_000n; // 10,000 USDC per customer
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
        expires_at: null,
        forced: false,
        reason: null,
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

/** Off-ramps not yet carried on: a reserve awaiting its settlement steps, or a payout not yet sent. */
async function backlog(ctx: BenchContext): Promise<{ settling: number; payouts: number }> {
  const db = connectPostgres(ctx.databaseUrl, { max: 1 });
  try {
    const [row] = await db.query<{ settling: bigint; payouts: bigint }>(
      `SELECT (SELECT count(*) FROM transactions WHERE project_id = $1 AND type = 'OFF_RAMP'
                 AND status IN ('TRANSFERRING_STABLECOIN', 'TRADING')) AS settling,
              (SELECT count(*) FROM pix_payouts WHERE status = 'PENDING') AS payouts`,
      [ctx.tenant.projectId],
    );
    return { settling: Number(row!.settling), payouts: Number(row!.payouts) };
  } finally {
    await db.close();
  }
}

/**
 * Starts a worker process (the service with its workers on) over the bench database and waits until
 * every off-ramp has been carried on: both settlement steps taken (TRANSFERRING_FIAT, its payout
 * recorded) and every payout sent to the provider. Returns how long that took, or undefined when it
 * did not finish within `timeoutMs`.
 */
async function carryOn(
  ctx: BenchContext,
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
): Promise<{ seconds: number | undefined; left: { settling: number; payouts: number } }> {
  const ports = await serviceEnv(ctx);
  const urls = Object.fromEntries(
    Object.entries(ports.env).filter(([name]) => name.endsWith('_URL') && name.startsWith('PONTE_')),
  );
  const worker = startChild('worker', 'src/main.ts', { ...env, ...urls, PONTE_WORKERS: 'true' });
  try {
    await waitUntilReady(worker, `${ports.origin}/readyz`);
    const started = Date.now();
    for (;;) {
      const left = await backlog(ctx);
      if (left.settling === 0 && left.payouts === 0) return { seconds: (Date.now() - started) / 1000, left };
      if (Date.now() - started > timeoutMs) return { seconds: undefined, left };
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  } finally {
    await worker.stop();
  }
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
  const psp = await startBenchPsp();
  const headers = authorization(ctx);
  const database = databaseName(ctx);
  try {
    log(`\nOff-ramp creations over ${funded.length} funded customers, ${settings.connections} connections`);
    const minimal = await minimalServerEnv(ctx, [settings.minimalDriver]);
    const service = await serviceEnv(ctx);
    const env = {
      ...service.env,
      ...psp.env,
      PONTE_DEFAULT_CHAIN: CHAIN,
    };
    // API-only: the settlement and payouts run afterwards, in a worker process (below).
    const child = startChild(
      'service',
      'src/main.ts',
      { ...env, PONTE_WORKERS: 'false' },
      settings.profileDir,
    );
    const minimalChild = startChild('minimal baseline', 'bench/servers/minimal.ts', minimal.env);
    await Promise.all([
      waitUntilReady(child, `${service.origin}/readyz`),
      waitUntilReady(minimalChild, `${minimal.origin}/healthz`),
    ]);
    let next = 0;
    const pick = () => funded[next++ % funded.length]!;
    const contenders: Contender[] = [
      {
        name: 'baseline: minimal write transaction (lock, insert, commit)',
        target: onRampTarget(
          minimal.origin,
          headers,
          funded.map((f) => f.customerId),
          { pid: minimalChild.process.pid, database },
        ),
        service: false,
      },
      {
        name: 'POST /transactions/off-ramp',
        target: {
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
        service: true,
      },
    ];
    const compared = await compareWrites(settings, contenders, log);
    const { table, ratios } = writeTable(contenders, compared, settings.writeTarget, 'minimal write');
    log(table);
    const ratio = ratios[1]!;
    const created = compared.all[1]!.reduce((sum, r) => sum + r.created, 0);
    await Promise.all([child.stop(), minimalChild.stop()]);

    const reserved = await balancesHold(ctx);
    log(
      `off-ramps stored: ${reserved.offRamps}; 201 answers counted: ${created}; balances off after the reserves: ${reserved.mismatched}`,
    );
    const carried = await carryOn(ctx, env, 15 * 60_000);
    const check = await balancesHold(ctx);
    if (carried.seconds === undefined) {
      log(
        `settlement: NOT DONE within 15 minutes (${carried.left.settling} off-ramps still settling, ${carried.left.payouts} payouts not sent)`,
      );
    } else {
      log(
        `settlement (not a target): one worker process carried ${check.offRamps} off-ramps on (two settlement ` +
          `steps each, then the payout sent) in ${carried.seconds.toFixed(1)} s, ` +
          `${(check.offRamps / Math.max(carried.seconds, 0.001)).toFixed(0)} off-ramps/s; balances off: ${check.mismatched}`,
      );
    }
    let failed = non201(contenders, compared, log);
    if (reserved.mismatched > 0 || check.mismatched > 0 || reserved.offRamps < created) {
      log('FAILED: the balances do not match the off-ramps stored');
      failed = true;
    }
    if (carried.seconds === undefined) {
      log('FAILED: the off-ramps were not carried on');
      failed = true;
    }
    if (failed) return 1;
    if (ratio < settings.writeTarget) {
      log(`TARGET MISSED: off-ramp creation below ${settings.writeTarget} of the minimal write transaction`);
      return 2;
    }
    return 0;
  } finally {
    await psp.simulator.close();
  }
}
