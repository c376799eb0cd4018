/**
 * `npm run bench -- quotes`: `POST /exchange-rates` priced from the operator's rate (today's path) against
 * the same route priced from the market reference (`PONTE_RATES_SOURCE=chainlink`: mock Chainlink feeds on
 * anvil and a PTAX stand-in, scripts/local-market.ts), two service processes over the same database, the
 * runs interleaved. The reference is read on a schedule and kept per process, so a quote never waits on
 * the node: the reference path must reach 0.8 of the operator path. Every answer must be 201, and every
 * quote of the reference path must carry its CHAINLINK reference.
 */

import { startLocalMarket } from '../scripts/local-market.ts';
import { systemClock } from '../src/core/clock.ts';
import { newId } from '../src/core/ids.ts';
import { connectPostgres } from '../src/db/postgres.ts';
import { insertRate } from '../src/modules/pricing/rates-repo.ts';
import { authorization, type BenchContext, databaseName, serviceEnv } from './context.ts';
import { freePorts, startChild, waitUntilReady } from './processes.ts';
import { type Contender, compareWrites, non201, writeTable } from './writes.ts';

const log = (line: string) => process.stdout.write(`${line}\n`);

/** The reference path's share of the operator path's throughput it must reach. */
const QUOTE_TARGET = 0.8;

const QUOTE = JSON.stringify({
  type: 'LOCKED',
  sourceCurrency: 'BRL',
  targetCurrency: 'USDC',
  sourceAmount: '1000.00',
});

/** The operator's BRL/USDC rate, in force until replaced (no expiry: it is no override of the reference). */
async function setOperatorRate(ctx: BenchContext): Promise<void> {
  const db = connectPostgres(ctx.databaseUrl, { max: 1 });
  try {
    await insertRate(db, {
      id: newId(),
      pair: 'BRL/USDC',
      rate: 1_900_000_000n,
      set_by: 'benchmark',
      created_at: systemClock(),
      expires_at: null,
      forced: false,
      reason: null,
    });
  } finally {
    await db.close();
  }
}

async function quotesBySource(ctx: BenchContext): Promise<Record<string, number>> {
  const db = connectPostgres(ctx.databaseUrl, { max: 1 });
  try {
    const rows = await db.query<{ source: string; n: bigint }>(
      `SELECT coalesce(reference_source, 'none') AS source, count(*) AS n FROM exchange_rates
        WHERE project_id = $1 GROUP BY 1`,
      [ctx.tenant.projectId],
    );
    return Object.fromEntries(rows.map((r) => [r.source, Number(r.n)]));
  } finally {
    await db.close();
  }
}

export async function measureQuotes(ctx: BenchContext): Promise<number> {
  const { settings } = ctx;
  await setOperatorRate(ctx);
  const [rpcPort, ptaxPort] = await freePorts(2);
  const market = await startLocalMarket({ rpcPort: rpcPort!, ptaxPort: ptaxPort! });
  const headers = authorization(ctx);
  const database = databaseName(ctx);
  try {
    log(`\nQuotes (POST /exchange-rates, LOCKED BRL→USDC), ${settings.connections} connections`);
    const operator = await serviceEnv(ctx);
    const reference = await serviceEnv(ctx);
    const operatorChild = startChild(
      'service (operator rates)',
      'src/main.ts',
      { ...operator.env, PONTE_WORKERS: 'false' },
      settings.profileDir,
    );
    const referenceChild = startChild('service (market reference)', 'src/main.ts', {
      ...reference.env,
      ...market.env,
      PONTE_WORKERS: 'false',
    });
    await Promise.all([
      waitUntilReady(operatorChild, `${operator.origin}/readyz`),
      waitUntilReady(referenceChild, `${reference.origin}/readyz`),
    ]);
    const contenders: Contender[] = [
      {
        name: "POST /exchange-rates, operator's rate",
        target: {
          origin: operator.origin,
          path: '/exchange-rates',
          headers,
          body: () => QUOTE,
          pid: operatorChild.process.pid,
          database,
        },
        service: true,
      },
      {
        name: 'POST /exchange-rates, market reference (Chainlink feeds on anvil, PTAX)',
        target: {
          origin: reference.origin,
          path: '/exchange-rates',
          headers,
          body: () => QUOTE,
          pid: referenceChild.process.pid,
          database,
        },
        service: true,
      },
    ];
    const compared = await compareWrites(settings, contenders, log);
    const { table, ratios } = writeTable(contenders, compared, QUOTE_TARGET, "operator's rate");
    log(table);
    await Promise.all([operatorChild.stop(), referenceChild.stop()]);
    const sources = await quotesBySource(ctx);
    const referenceCreated = compared.all[1]!.reduce((sum, r) => sum + r.created, 0);
    log(
      `quotes stored by reference source: ${Object.entries(sources)
        .map(([source, n]) => `${source} ${n}`)
        .join(', ')}; 201 answers of the reference path: ${referenceCreated}`,
    );
    let failed = non201(contenders, compared, log);
    if ((sources.CHAINLINK ?? 0) < referenceCreated) {
      log('FAILED: quotes of the reference path without their CHAINLINK reference');
      failed = true;
    }
    if (failed) return 1;
    if (ratios[1]! < QUOTE_TARGET) {
      log(`TARGET MISSED: quotes from the market reference below ${QUOTE_TARGET} of the operator-rate path`);
      return 2;
    }
    return 0;
  } finally {
    await market.stop();
  }
}
