/**
 * Prometheus metrics of the process, served as text at `GET /metrics` on the operator listener.
 *
 * - `ponte_http_requests_total` and `ponte_http_request_duration_seconds`, per surface (production,
 *   sandbox, operator), method, route pattern and status; unmatched paths count as route "unmatched",
 *   so scanning cannot blow up the label set;
 * - `ponte_outbox_depth`: events not yet delivered to every endpoint they are due to, read when scraped;
 * - `ponte_webhook_delivery_attempts_total`: incremented by the webhook dispatcher per attempt, with
 *   `outcome` = `delivered` (2xx) or `failed` (anything else, including timeouts);
 * - `ponte_webhook_delivery_failures_total`: failed attempts by `endpoint` (the endpoint's id, never its URL);
 * - `ponte_outbox_oldest_event_age_seconds`: how long the oldest event not yet delivered has waited;
 * - `ponte_db_pool_connections` (`state` = `in_use`, `waiting`) and `ponte_db_pool_max_connections`;
 * - `ponte_reference_rate_age_seconds`: how long ago the rate in force for each pair was set;
 * - `ponte_rate_limited_total`, and the default process metrics (CPU, memory, event loop lag).
 */
import type { FastifyInstance } from 'fastify';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Clock } from '../core/clock.ts';
import type { Database, Executor } from '../db/types.ts';

const registry = new Registry();
// The event loop lag is sampled every 100 ms rather than prom-client's 10: a timer a hundred times a second
// was a measurable share of an idle process's CPU.
collectDefaultMetrics({ register: registry, prefix: 'ponte_', eventLoopMonitoringPrecision: 100 });

const httpLabels = ['surface', 'method', 'route', 'status'] as const;

export const metrics = {
  registry,
  httpRequests: new Counter({
    name: 'ponte_http_requests_total',
    help: 'HTTP requests answered, by surface, method, route and status',
    labelNames: httpLabels,
    registers: [registry],
  }),
  httpDuration: new Histogram({
    name: 'ponte_http_request_duration_seconds',
    help: 'Time from receiving a request to sending its answer',
    labelNames: httpLabels,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  }),
  outboxDepth: new Gauge({
    name: 'ponte_outbox_depth',
    help: 'Webhook events recorded but not yet delivered (or given up on)',
    registers: [registry],
  }),
  deliveryAttempts: new Counter({
    name: 'ponte_webhook_delivery_attempts_total',
    help: 'Webhook delivery attempts, by outcome (delivered, failed)',
    labelNames: ['outcome'] as const,
    registers: [registry],
  }),
  deliveryFailures: new Counter({
    name: 'ponte_webhook_delivery_failures_total',
    help: 'Webhook delivery attempts that failed (non-2xx, timeout, refused), by endpoint id',
    labelNames: ['endpoint'] as const,
    registers: [registry],
  }),
  outboxOldestAge: new Gauge({
    name: 'ponte_outbox_oldest_event_age_seconds',
    help: 'Seconds the oldest event not yet delivered has waited (0 when none waits)',
    registers: [registry],
  }),
  poolConnections: new Gauge({
    name: 'ponte_db_pool_connections',
    help: 'Database connections of the pool in use, and requests waiting for one',
    labelNames: ['state'] as const,
    registers: [registry],
  }),
  poolMax: new Gauge({
    name: 'ponte_db_pool_max_connections',
    help: 'The most connections the pool opens (1 for the embedded database)',
    registers: [registry],
  }),
  rateAge: new Gauge({
    name: 'ponte_reference_rate_age_seconds',
    help: 'Seconds since the rate in force for a pair was set by an operator, by pair',
    labelNames: ['pair'] as const,
    registers: [registry],
  }),
  rateLimited: new Counter({
    name: 'ponte_rate_limited_total',
    help: 'Requests refused with 429 by the per-key rate limit',
    registers: [registry],
  }),
};

/** Counts and times every answer of an app; `surface` names the listener. */
export function registerRequestMetrics(app: FastifyInstance, surface: string): void {
  // The counter and histogram bound to each label set, found by one map lookup per answer instead of
  // prom-client hashing the labels twice. The set is bounded: surface, method, route pattern, status.
  const bound = new Map<string, { count(): void; time(seconds: number): void }>();
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const key = `${request.method} ${route} ${reply.statusCode}`;
    let series = bound.get(key);
    if (!series) {
      const labels = { surface, method: request.method, route, status: String(reply.statusCode) };
      const counter = metrics.httpRequests.labels(labels);
      const histogram = metrics.httpDuration.labels(labels);
      series = { count: () => counter.inc(), time: (seconds) => histogram.observe(seconds) };
      bound.set(key, series);
    }
    series.count();
    series.time(reply.elapsedTime / 1000);
    done();
  });
}

/** What `/metrics` reads from the database when scraped (each an indexed read). */
export type ScrapeReaders = {
  outboxDepth(db: Executor): Promise<number>;
  outboxOldest(db: Executor): Promise<Date | null>;
  ratesSetAt(db: Executor): Promise<{ pair: string; set_at: Date }[]>;
};

async function readIntoGauges(db: Database, clock: Clock, readers: ScrapeReaders): Promise<void> {
  const pool = db.poolUsage?.();
  if (pool) {
    metrics.poolConnections.set({ state: 'in_use' }, pool.inUse);
    metrics.poolConnections.set({ state: 'waiting' }, pool.waiting);
    metrics.poolMax.set(pool.max);
  }
  const now = clock().getTime();
  const [depth, oldest, rates] = await Promise.all([
    readers.outboxDepth(db),
    readers.outboxOldest(db),
    readers.ratesSetAt(db),
  ]);
  metrics.outboxDepth.set(depth);
  metrics.outboxOldestAge.set(oldest ? Math.max(0, (now - oldest.getTime()) / 1000) : 0);
  metrics.rateAge.reset();
  for (const rate of rates)
    metrics.rateAge.set({ pair: rate.pair }, Math.max(0, (now - rate.set_at.getTime()) / 1000));
}

/** `GET /metrics` (no token: the operator listener is loopback by default; scrape it from the host). */
export function registerMetricsRoute(
  app: FastifyInstance,
  db: Database,
  clock: Clock,
  readers: ScrapeReaders,
  /** Sets the gauges of the process's other parts (the PIX rail, the market references) for a scrape. */
  readOthers: () => Promise<void> = async () => {},
) {
  app.get('/metrics', { schema: { hide: true }, config: { auth: 'none' } }, async (request, reply) => {
    try {
      await readIntoGauges(db, clock, readers);
    } catch (err) {
      request.log.warn({ err }, 'database figures of the metrics not read');
    }
    await readOthers();
    return reply.type(registry.contentType).send(await registry.metrics());
  });
}
