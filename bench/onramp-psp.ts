/**
 * `npm run bench -- onramp-psp`: production's PIX rail through a PSP.
 *
 * 1. On-ramp creations in production, each registering its charge at the PSP (the simulator, every answer
 *    delayed 30 ms, as a PSP's round trip), against sandbox on-ramp creations (simulated charge) in the
 *    same run, interleaved, 50 connections: req/s, p50/p99 and the ratio to the sandbox. No database
 *    connection is held while the PSP answers, so the pool does not cap the throughput at 20 / 30 ms.
 * 2. The reconciliation sweep over 10,000 PIX the PSP received that Ponte has all recorded (nothing to
 *    apply): its time and the PSP calls (listing pages and the sends' listing) it made.
 */

import { loadConfig } from '../src/config.ts';
import { systemClock } from '../src/core/clock.ts';
import { connectPostgres } from '../src/db/postgres.ts';
import { sweepEnvironment } from '../src/modules/pix/sweep.ts';
import { ApiKeyCache } from '../src/modules/projects/key-cache.ts';
import { createProjectService } from '../src/modules/projects/service.ts';
import { openContext } from '../src/runtime.ts';
import { authorization, type BenchContext, databaseName, serviceEnv } from './context.ts';
import { approvedCustomers, onRampTarget } from './onramp.ts';
import { startChild, waitUntilReady } from './processes.ts';
import { startBenchPsp } from './psp.ts';
import { nthCpf } from './tax-ids.ts';
import { type Contender, compareWrites, non201, writeTable } from './writes.ts';

const log = (line: string) => process.stdout.write(`${line}\n`);
const PSP_DELAY_MS = 30;
const SANDBOX_CUSTOMERS = 200;
const SWEPT_PIX = 10_000;

/** A sandbox key for the bench tenant and approved sandbox customers made through the API. */
export async function sandboxCustomers(
  ctx: BenchContext,
  origin: string,
  count = SANDBOX_CUSTOMERS,
): Promise<{ key: string; ids: string[] }> {
  const db = connectPostgres(ctx.databaseUrl, { max: 1 });
  try {
    const projects = createProjectService({ db, clock: systemClock, keys: new ApiKeyCache(db, 0) });
    const issued = await projects.issueApiKey(
      { id: null, name: 'benchmark' },
      ctx.tenant.projectId,
      'sandbox',
      'benchmark',
    );
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const response = await fetch(`${origin}/customers`, {
        method: 'POST',
        headers: { authorization: `Bearer ${issued.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          type: 'INDIVIDUAL',
          name: `Cliente Sandbox ${i}`,
          taxId: nthCpf(i, 1),
          country: 'BRA',
          email: `sandbox${i}@example.com`,
          birthDate: '1990-04-12',
        }),
      });
      if (response.status !== 201)
        throw new Error(`sandbox customer: ${response.status} ${await response.text()}`);
      ids.push(((await response.json()) as { id: string }).id);
    }
    await db.query(
      `UPDATE verifications SET status = 'APPROVED',
              status_reason = '{"rejectLabels":[],"rejectSubLabels":[],"documents":[]}', updated_at = now()
        WHERE project_id = $1 AND environment = 'sandbox'`,
      [ctx.tenant.projectId],
    );
    return { key: issued.key, ids };
  } finally {
    await db.close();
  }
}

async function measureSweep(
  ctx: BenchContext,
  psp: Awaited<ReturnType<typeof startBenchPsp>>,
): Promise<boolean> {
  const { simulator } = psp;
  const now = Date.now();
  const ids: string[] = [];
  for (let i = 0; i < SWEPT_PIX; i++) {
    const at = new Date(now - 60 * 60_000 + i * 100);
    const stamp = at.toISOString().replace(/\D/g, '').slice(0, 12);
    const endToEndId = `E60701190${stamp}B${i.toString(36).padStart(10, '0')}`;
    ids.push(endToEndId);
    simulator.received.set(endToEndId, {
      endToEndId,
      txid: `bench${i.toString(36).padStart(21, '0')}`,
      valor: '10.00',
      chave: psp.env.PONTE_PIX_KEY!,
      horario: at.toISOString(),
      devolucoes: [],
    });
  }
  const db = connectPostgres(ctx.databaseUrl, { max: 1 });
  try {
    // recorded before (unmatched: no charge has these txids), so the sweep has nothing to apply
    await db.query(
      `INSERT INTO pix_deposits (end_to_end_id, environment, txid, transaction_id, amount, paid_at, outcome, payload, received_at)
       SELECT e2e, 'production', 'bench' || n, NULL, 1000, now(), 'UNMATCHED', '{}'::jsonb, now()
         FROM unnest($1::text[]) WITH ORDINALITY AS t (e2e, n)`,
      [ids],
    );
  } finally {
    await db.close();
  }
  const config = loadConfig({
    ...psp.env,
    DATABASE_URL: ctx.databaseUrl,
    PONTE_DATA_DIR: 'memory://',
    PONTE_LOG_LEVEL: 'silent',
    PONTE_WORKERS: 'false',
  });
  const app = await openContext(config);
  try {
    const calls = simulator.calls.length;
    const started = performance.now();
    const result = await sweepEnvironment(app, 'production');
    const ms = performance.now() - started;
    const seen = simulator.calls.slice(calls).map((c) => `${c.method} ${c.path.split('?')[0]}`);
    const byRoute = new Map<string, number>();
    for (const route of seen) byRoute.set(route, (byRoute.get(route) ?? 0) + 1);
    log(`\nSweep over ${SWEPT_PIX} received PIX, all recorded (PSP answers delayed ${PSP_DELAY_MS} ms)`);
    log(
      `  ${(ms / 1000).toFixed(2)} s; complete: ${result?.complete}; applied: ${result?.applied}; items listed: ${result?.seen}; ` +
        `PSP calls counted by the sweep: ${result?.calls}; seen by the PSP: ${seen.length} ` +
        `(${[...byRoute].map(([route, n]) => `${route} x${n}`).join(', ')})`,
    );
    return result?.complete === true && result.applied === 0 && result.seen >= SWEPT_PIX;
  } finally {
    app.pix.close();
    await app.db.close();
  }
}

export async function measureOnRampPsp(ctx: BenchContext): Promise<number> {
  const { settings } = ctx;
  const customers = await approvedCustomers(ctx);
  const service = await serviceEnv(ctx);
  const psp = await startBenchPsp(PSP_DELAY_MS);
  const child = startChild(
    'service',
    'src/main.ts',
    { ...service.env, ...psp.env, PONTE_WORKERS: 'false' },
    settings.profileDir,
  );
  try {
    await waitUntilReady(child, `${service.origin}/readyz`);
    const sandboxOrigin = service.env.PONTE_SANDBOX_URL;
    const sandbox = await sandboxCustomers(ctx, sandboxOrigin);
    const database = databaseName(ctx);
    const pid = child.process.pid;
    log(
      `\nOn-ramp creations, ${settings.connections} connections: production through the PSP simulator ` +
        `(answers delayed ${PSP_DELAY_MS} ms, ${customers.length} customers) against the sandbox (${sandbox.ids.length} customers)`,
    );
    const contenders: Contender[] = [
      {
        name: 'sandbox POST /transactions/on-ramp',
        target: onRampTarget(sandboxOrigin, { authorization: `Bearer ${sandbox.key}` }, sandbox.ids, {
          pid,
          database,
        }),
        service: true,
      },
      {
        name: `production POST /transactions/on-ramp (PSP, ${PSP_DELAY_MS} ms)`,
        target: onRampTarget(service.origin, authorization(ctx), customers, { pid, database }),
        service: true,
      },
    ];
    const compared = await compareWrites(settings, contenders, log);
    const { table, ratios } = writeTable(contenders, compared, 0, 'sandbox');
    log(table);
    log(`production through the PSP: ${ratios[1]!.toFixed(2)} x the sandbox on-ramp`);
    const registered = [...psp.simulator.charges.keys()].length;
    log(`charges registered at the PSP: ${registered}`);
    let failed = non201(contenders, compared, log);
    const violations = psp.simulator.violations.splice(0);
    if (violations.length > 0) {
      log(`FAILED: requests the API Pix document refuses: ${violations.slice(0, 5).join('; ')}`);
      failed = true;
    }
    if (!(await measureSweep(ctx, psp))) {
      log('FAILED: the sweep did not complete with nothing applied over every item');
      failed = true;
    }
    return failed ? 1 : 0;
  } finally {
    await psp.simulator.close();
  }
}
