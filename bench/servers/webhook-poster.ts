/**
 * Baseline of the webhook bench: POSTs the bodies in BENCH_BODIES_FILE (one JSON body a line) to
 * BENCH_RECEIVER_URL, BENCH_CONCURRENCY at a time, each on a connection of its own as the dispatcher sends
 * them (the service's own sender, `postWebhook`), with no database and no signing. First the first
 * BENCH_WARMUP bodies, unmeasured (its code warms up, as the dispatcher's does), then every body,
 * measured, BENCH_ROUNDS times (default 3: a round of a second or less moves with whatever else the
 * machine does). Prints `{"rounds":[..],"cpuPerPost":..,"sent":..,"failed":..}`, each round in
 * seconds and `cpuPerPost` the process's CPU microseconds per POST over the rounds, when every body has
 * been answered, then exits.
 */
import { readFileSync } from 'node:fs';
import { postWebhook } from '../../src/modules/webhooks/sender.ts';

const url = new URL(process.env.BENCH_RECEIVER_URL!);
const bodies = readFileSync(process.env.BENCH_BODIES_FILE!, 'utf8').split('\n').filter(Boolean);
const concurrency = Number(process.env.BENCH_CONCURRENCY);
const address = { address: url.hostname, family: 4 as const };

const warmup = Number(process.env.BENCH_WARMUP ?? 0);

let failed = 0;
/** POSTs `list`, `concurrency` at a time. */
async function postAll(list: string[]) {
  let next = 0;
  const worker = async () => {
    while (next < list.length) {
      const body = list[next++]!;
      const result = await postWebhook({ url, address, headers: {}, body, timeoutMs: 10_000 });
      if (result.statusCode !== 200) failed++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}
const rounds: number[] = [];
await postAll(bodies.slice(0, warmup));
const cpuBefore = process.cpuUsage();
for (let round = 0; round < Number(process.env.BENCH_ROUNDS ?? 3); round++) {
  const started = performance.now();
  await postAll(bodies);
  rounds.push((performance.now() - started) / 1000);
}
const cpu = process.cpuUsage(cpuBefore);
const cpuPerPost = (cpu.user + cpu.system) / (rounds.length * bodies.length);
process.stdout.write(`${JSON.stringify({ rounds, cpuPerPost, sent: bodies.length, failed })}\n`);
