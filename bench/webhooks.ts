/**
 * `npm run bench -- webhooks`: events delivered per second by the service's dispatcher to a local receiver
 * that answers 200 at once, against a baseline POSTing the same bodies at the same concurrency with no
 * database (servers/webhook-poster.ts). Target: `webhookTarget` of the baseline.
 *
 * The service runs on the bench database with its workers. One endpoint of the bench tenant listens for
 * `customer.created`; the events are recorded through the service's own outbox (`recordEvent`), all in
 * one transaction whose commit wakes the dispatcher, each carrying a customer exactly as the API answers
 * it. A round's figure is the events over the seconds from that commit to the receiver's last delivery,
 * with signing, fan-out, claims and the recording of every attempt; each side's figure is its median of
 * three rounds. Afterwards every delivery must be DELIVERED with exactly one attempt, and the receiver
 * must have seen each event of each round exactly once.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectPostgres } from '../src/db/postgres.ts';
import { recordEvent } from '../src/modules/events/outbox.ts';
import { authorization, type BenchContext, databaseName, serviceEnv } from './context.ts';
import { cpuMeter } from './cpu.ts';
import { median } from './load.ts';
import { startChild, waitUntilReady } from './processes.ts';
import { table } from './report.ts';

const log = (line: string) => process.stdout.write(`${line}\n`);

/** Measured rounds of the dispatcher and of the baseline; each figure is the median round. */
const ROUNDS = 3;

/** The receiver: counts and keeps what it is sent, answers 200 at once. */
async function startReceiver() {
  const seen = new Map<string, number>();
  const bodies: string[] = [];
  let count = 0;
  let lastAt = 0;
  let onCount: (() => void) | undefined;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      response.writeHead(200).end();
      const body = Buffer.concat(chunks).toString('utf8');
      const id = request.headers['webhook-id'];
      if (typeof id === 'string') {
        seen.set(id, (seen.get(id) ?? 0) + 1);
        bodies.push(body);
      }
      count++;
      lastAt = performance.now();
      onCount?.();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    seen,
    bodies,
    lastAt: () => lastAt,
    /** Forgets what arrived so far. */
    reset() {
      count = 0;
      seen.clear();
      bodies.length = 0;
    },
    /** Resolves once `n` requests arrived since the last reset, rejects after `timeoutMs`. */
    until(n: number, timeoutMs: number) {
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`only ${count} of ${n} received`)), timeoutMs);
        onCount = () => {
          if (count < n) return;
          clearTimeout(timer);
          onCount = undefined;
          resolve();
        };
        onCount();
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export async function measureWebhooks(ctx: BenchContext): Promise<number> {
  const { settings } = ctx;
  const events = settings.webhookEvents;
  const warmup = Math.min(events, 5_000);
  const receiver = await startReceiver();
  const service = await serviceEnv(ctx);
  const concurrency = 10;
  const child = startChild(
    'service',
    'src/main.ts',
    {
      ...service.env,
      PONTE_WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      PONTE_WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT: String(concurrency),
    },
    settings.profileDir,
  );
  const db = connectPostgres(ctx.databaseUrl, { max: 2 });
  const scratch = mkdtempSync(join(tmpdir(), 'ponte-bench-webhooks-'));
  try {
    await waitUntilReady(child, `${service.origin}/readyz`);
    const headers = { ...authorization(ctx), 'content-type': 'application/json' };
    const created = await fetch(`${service.origin}/webhook-endpoints`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ url: receiver.url, events: ['customer.created'] }),
    });
    if (created.status !== 201)
      throw new Error(`endpoint not created: ${created.status} ${await created.text()}`);
    const page = await fetch(`${service.origin}/customers?limit=20`, { headers: authorization(ctx) });
    const customers = ((await page.json()) as { data?: { id: string }[] }).data ?? [];
    if (customers.length === 0) throw new Error(`no customers to report: ${page.status}`);

    log(
      `\nWebhooks: ${events} customer.created events to one endpoint, ${concurrency} attempts in flight ` +
        `(the per-endpoint limit), receiver answering 200 at once, after ${warmup} delivered unmeasured`,
    );
    /**
     * Records `count` events in one transaction and waits until each is delivered and recorded so;
     * `onCommit` runs once the events are committed, as the delivery starts.
     */
    const deliver = async (
      count: number,
      deliveredBefore: number,
      on: { commit?: () => void; received?: () => void } = {},
    ) => {
      const at = new Date();
      await db.transaction(async (tx) => {
        for (let i = 0; i < count; i++) {
          const customer = customers[i % customers.length]!;
          await recordEvent(tx, {
            tenant: ctx.tenant,
            type: 'customer.created',
            resourceType: 'customer',
            // one resource per event: events of one resource go out one at a time, in order
            resourceId: randomUUID(),
            data: customer,
            at,
          });
        }
      });
      const committed = performance.now();
      on.commit?.();
      await receiver.until(count, 300_000);
      on.received?.();
      // delivered means recorded too: wait until every delivery is DELIVERED in the database
      for (const deadline = Date.now() + 60_000; ; ) {
        const [row] = await db.query<{ n: bigint }>(
          `SELECT count(*) AS n FROM webhook_deliveries WHERE project_id = $1 AND status = 'DELIVERED'`,
          [ctx.tenant.projectId],
        );
        if (Number(row!.n) >= deliveredBefore + count || Date.now() > deadline) break;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      return (Math.max(performance.now(), receiver.lastAt()) - committed) / 1000;
    };
    // the dispatcher's code warms up (as every HTTP target does before its runs)
    await deliver(warmup, 0);
    receiver.reset();
    // Rounds of `events` each, the median taken (as the baseline's): a round of a few seconds moves with
    // whatever else the machine does. CPU from each commit on: delivering the events, not recording them.
    const roundSeconds: number[] = [];
    const cpu = { server: 0, database: 0, receiver: 0 };
    const problems: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      receiver.reset();
      let meter: ReturnType<typeof cpuMeter> | undefined;
      let receiverCpu: NodeJS.CpuUsage | undefined;
      roundSeconds.push(
        await deliver(events, warmup + round * events, {
          commit() {
            meter = cpuMeter(child.process.pid, databaseName(ctx));
            receiverCpu = process.cpuUsage();
          },
          received() {
            receiverCpu = process.cpuUsage(receiverCpu);
          },
        }),
      );
      cpu.receiver += (receiverCpu!.user + receiverCpu!.system) / 1e6;
      const used = meter!.read();
      cpu.server += used.server ?? Number.NaN;
      cpu.database += used.database ?? Number.NaN;
      const twice = [...receiver.seen.values()].filter((n) => n > 1).length;
      if (receiver.seen.size !== events)
        problems.push(`round ${round + 1}: ${receiver.seen.size} distinct events received of ${events}`);
      if (twice > 0) problems.push(`round ${round + 1}: ${twice} events received more than once`);
    }
    const serviceSeconds = median(roundSeconds);
    const serviceRate = events / serviceSeconds;

    const rows = await db.query<{ status: string; attempts: number; n: bigint }>(
      `SELECT status, attempt_count AS attempts, count(*) AS n FROM webhook_deliveries
        WHERE project_id = $1 GROUP BY status, attempt_count`,
      [ctx.tenant.projectId],
    );
    const delivered = rows.find((row) => row.status === 'DELIVERED' && row.attempts === 1);
    const checks = [
      Number(delivered?.n ?? 0) === warmup + ROUNDS * events && rows.length === 1
        ? null
        : `deliveries: ${JSON.stringify(rows.map((row) => ({ ...row, n: Number(row.n) })))}`,
      ...problems,
    ].filter((problem): problem is string => problem !== null);

    // the baseline: the same bodies, the same concurrency, no database
    const bodiesFile = join(scratch, 'bodies.jsonl');
    writeFileSync(bodiesFile, `${receiver.bodies.join('\n')}\n`);
    receiver.reset();
    const receiverBefore = process.cpuUsage();
    const poster = startChild(
      'baseline poster',
      'bench/servers/webhook-poster.ts',
      {
        BENCH_RECEIVER_URL: receiver.url,
        BENCH_BODIES_FILE: bodiesFile,
        BENCH_CONCURRENCY: String(concurrency),
        BENCH_WARMUP: String(warmup),
        BENCH_ROUNDS: String(ROUNDS),
      },
      settings.profileDir,
    );
    await new Promise<void>((resolve) => poster.process.once('exit', () => resolve()));
    // the receiver answered the poster's warm-up and its rounds
    const receiverUsed = process.cpuUsage(receiverBefore);
    const baselineReceiverCpu = (receiverUsed.user + receiverUsed.system) / (warmup + ROUNDS * events);
    const result = JSON.parse(poster.output().split('\n').at(-1) ?? '{}') as {
      rounds?: number[];
      cpuPerPost?: number;
      failed?: number;
    };
    if (!result.rounds?.length) throw new Error(`baseline poster failed:\n${poster.output()}`);
    if (result.failed) checks.push(`baseline: ${result.failed} POSTs not answered 200`);
    const baselineSeconds = median(result.rounds);
    const baselineRate = events / baselineSeconds;
    const ratio = serviceRate / baselineRate;

    const listed = (rounds: number[]) => rounds.map((seconds) => seconds.toFixed(2)).join(', ');
    log(`rounds (s): dispatcher ${listed(roundSeconds)}; baseline ${listed(result.rounds)}`);
    log('');
    log(
      table(
        [
          'target',
          'events/s',
          'seconds',
          'server µs/event',
          'PostgreSQL µs/event',
          'receiver µs/event',
          'x baseline',
          'verdict',
        ],
        [
          [
            'baseline: POST the same bodies, no database',
            baselineRate.toFixed(0),
            baselineSeconds.toFixed(2),
            result.cpuPerPost === undefined ? '' : result.cpuPerPost.toFixed(0),
            '',
            baselineReceiverCpu.toFixed(0),
            '',
            '',
          ],
          [
            'dispatcher: outbox to receiver',
            serviceRate.toFixed(0),
            serviceSeconds.toFixed(2),
            Number.isNaN(cpu.server) ? '' : ((cpu.server / (ROUNDS * events)) * 1e6).toFixed(0),
            Number.isNaN(cpu.database) ? '' : ((cpu.database / (ROUNDS * events)) * 1e6).toFixed(0),
            ((cpu.receiver / (ROUNDS * events)) * 1e6).toFixed(0),
            ratio.toFixed(2),
            ratio >= settings.webhookTarget ? 'ok' : `BELOW ${settings.webhookTarget}`,
          ],
        ],
      ),
    );
    // Where the machine's CPU goes: the baseline's two processes against what the dispatcher needs
    const perEvent = {
      baseline: (result.cpuPerPost ?? Number.NaN) + baselineReceiverCpu,
      dispatcher: ((cpu.server + cpu.database + cpu.receiver) / (ROUNDS * events)) * 1e6,
    };
    const busy = (micros: number, rate: number) => ((micros * rate) / 1e6).toFixed(2);
    const cores = availableParallelism();
    log(
      `CPU per event: baseline ${perEvent.baseline.toFixed(0)} µs (poster and receiver, ` +
        `${busy(perEvent.baseline, baselineRate)} cores busy), dispatcher ${perEvent.dispatcher.toFixed(0)} µs ` +
        `(server, PostgreSQL backends and receiver, ${busy(perEvent.dispatcher, serviceRate)} cores busy); ` +
        `at ${settings.webhookTarget} of the baseline, all of it fits ${cores} cores only within ` +
        `${((cores * 1e6) / (settings.webhookTarget * baselineRate)).toFixed(0)} µs an event`,
    );
    log(
      `load average ${loadavg()
        .map((n) => n.toFixed(2))
        .join(' ')}`,
    );
    if (child.exit()) checks.push(`the service ${child.exit()}`);
    if (checks.length > 0) {
      log(`\nCHECK FAILED: ${checks.join('; ')}`);
      return 1;
    }
    if (ratio < settings.webhookTarget) {
      log(`\nTARGET MISSED: webhook delivery below ${settings.webhookTarget} of the baseline`);
      return 2;
    }
    return 0;
  } finally {
    await db.close();
    await receiver.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}
