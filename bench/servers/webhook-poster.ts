/**
 * Baseline of the webhook bench: POSTs the bodies in BENCH_BODIES_FILE (one JSON body a line) to
 * BENCH_RECEIVER_URL, BENCH_CONCURRENCY at a time, each on a connection of its own as the dispatcher sends
 * them (the service's own sender, `postWebhook`), with no database and no signing. Prints
 * `{"seconds":..,"sent":..,"failed":..}` when every body has been answered, then exits.
 */
import { readFileSync } from 'node:fs';
import { postWebhook } from '../../src/modules/webhooks/sender.ts';

const url = new URL(process.env.BENCH_RECEIVER_URL!);
const bodies = readFileSync(process.env.BENCH_BODIES_FILE!, 'utf8').split('\n').filter(Boolean);
const concurrency = Number(process.env.BENCH_CONCURRENCY);
const address = { address: url.hostname, family: 4 as const };

let next = 0;
let failed = 0;
const started = performance.now();
async function worker() {
  while (next < bodies.length) {
    const body = bodies[next++]!;
    const result = await postWebhook({ url, address, headers: {}, body, timeoutMs: 10_000 });
    if (result.statusCode !== 200) failed++;
  }
}
await Promise.all(Array.from({ length: concurrency }, worker));
const seconds = (performance.now() - started) / 1000;
process.stdout.write(`${JSON.stringify({ seconds, sent: bodies.length, failed })}\n`);
