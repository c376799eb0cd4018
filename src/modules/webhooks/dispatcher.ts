/**
 * The webhook dispatcher. Each tick fans new outbox events out into deliveries and claims the deliveries
 * that are due; the HTTP attempts then run in the background (at most `maxInFlight` at once, and at most
 * `maxInFlightPerEndpoint` for one endpoint and `maxInFlightPerProject` for one project) so a slow or
 * hostile receiver only delays its own project's deliveries. Each attempt is recorded; a 2xx answer delivers, anything else is
 * retried with exponential back-off and jitter until the retry horizon, after which the delivery is FAILED.
 * An endpoint whose deliveries have all failed for the configured period is disabled. Several processes
 * may run dispatchers on one database: claims use FOR UPDATE SKIP LOCKED and a lease, and a result is
 * recorded only under the claim that produced it.
 */
import type { WebhookConfig } from '../../config.ts';
import type { Clock } from '../../core/clock.ts';
import { newId } from '../../core/ids.ts';
import type { Logger } from '../../core/logger.ts';
import type { Database } from '../../db/types.ts';
import { metrics } from '../../http/metrics.ts';
import { nextAttemptAfterFailure } from './backoff.ts';
import {
  type ClaimedDelivery,
  claimDueDeliveries,
  fanOutEvents,
  insertAttempt,
  lockEndpointHealth,
  setEndpointHealth,
  settleDelivery,
} from './dispatch-repo.ts';
import { deliveryBody } from './presenter.ts';
import { failPendingDeliveries } from './repo.ts';
import { decryptSecret, signatureHeaders } from './secret.ts';
import { type AttemptResult, type Post, postWebhook } from './sender.ts';
import { privateUrlsAllowed, type Resolver, resolveTarget, systemResolver } from './url-safety.ts';

export type DispatcherDeps = {
  db: Database;
  clock: Clock;
  config: WebhookConfig;
  encryptionKey: Buffer;
  log: Logger;
  resolve?: Resolver;
  post?: Post;
  random?: () => number;
  batchSize?: number;
  maxInFlight?: number;
  /** Called when an attempt has been recorded: there is room for another (the loop runs at once). */
  onRoom?: () => void;
};

/** Counts attempts in flight per key, forgetting keys that drop to zero. */
function counter() {
  const counts = new Map<string, number>();
  return {
    counts,
    add(key: string, by: number) {
      const next = (counts.get(key) ?? 0) + by;
      if (next <= 0) counts.delete(key);
      else counts.set(key, next);
    },
    /** Room left under `max` for every key with attempts in flight. */
    rooms(max: number): Map<string, number> {
      return new Map([...counts].map(([key, count]) => [key, max - count]));
    },
  };
}

/** How long a claim lasts: an attempt's timeout plus a margin; a crashed dispatcher's claims then expire. */
const LEASE_MARGIN_MS = 60_000;

function describeDuration(ms: number): string {
  const units: [number, string][] = [
    [86_400_000, 'day'],
    [3_600_000, 'hour'],
    [60_000, 'minute'],
    [1_000, 'second'],
  ];
  for (const [size, name] of units) {
    if (ms >= size && ms % size === 0) return `${ms / size} ${name}${ms === size ? '' : 's'}`;
  }
  return `${ms} ms`;
}

export function createDispatcher(deps: DispatcherDeps) {
  const { db, clock, config, encryptionKey, log } = deps;
  const resolve = deps.resolve ?? systemResolver;
  const post = deps.post ?? postWebhook;
  const random = deps.random ?? Math.random;
  const batchSize = deps.batchSize ?? 100;
  const maxInFlight = deps.maxInFlight ?? 50;
  const schedule = { baseMs: config.retryBaseMs, maxDelayMs: config.retryMaxDelayMs };
  const inFlight = new Set<Promise<void>>();
  const perEndpoint = counter();
  const perProject = counter();
  const { maxInFlightPerEndpoint, maxInFlightPerProject } = config;

  const fanOut = () => db.transaction((tx) => fanOutEvents(tx, clock(), batchSize, config.retryHorizonMs));

  async function send(delivery: ClaimedDelivery): Promise<AttemptResult> {
    try {
      const url = new URL(delivery.url);
      const allowPrivate = privateUrlsAllowed(delivery.environment, config);
      const target = await resolveTarget(url, allowPrivate, resolve);
      if (!target.ok) return { statusCode: null, latencyMs: 0, error: `not sent: ${target.reason}` };
      const body = deliveryBody({
        id: delivery.event_id,
        type: delivery.event_type,
        created_at: delivery.event_created_at,
        data: delivery.event_data,
      });
      const at = clock();
      const secrets = [decryptSecret(encryptionKey, delivery.secret_ciphertext, delivery.endpoint_id)];
      // during a rotation's overlap the replaced secret signs too
      if (delivery.previous_secret_ciphertext && delivery.previous_secret_expires_at! > at) {
        secrets.push(decryptSecret(encryptionKey, delivery.previous_secret_ciphertext, delivery.endpoint_id));
      }
      const headers = signatureHeaders(secrets, delivery.event_id, at, body);
      return await post({ url, address: target.address, headers, body, timeoutMs: config.timeoutMs });
    } catch (error) {
      log.error({ err: error, deliveryId: delivery.id }, 'webhook attempt not sent');
      return { statusCode: null, latencyMs: 0, error: 'not sent: internal error' };
    }
  }

  async function attempt(delivery: ClaimedDelivery, token: string): Promise<void> {
    const at = clock();
    const result = await send(delivery);
    const delivered = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
    metrics.deliveryAttempts.inc({ outcome: delivered ? 'delivered' : 'failed' });
    await db.transaction(async (tx) => {
      const health = await lockEndpointHealth(tx, delivery.endpoint_id);
      await insertAttempt(tx, { deliveryId: delivery.id, at, ...result });
      const settledAt = clock();
      if (delivered) {
        await settleDelivery(tx, {
          id: delivery.id,
          token,
          status: 'DELIVERED',
          nextAttemptAt: null,
          error: null,
          at: settledAt,
        });
        if (!health.deleted && (health.status === 'DISABLED' || health.failing_since !== null)) {
          const healthy = { status: 'ENABLED', failingSince: null, disabledReason: null } as const;
          await setEndpointHealth(tx, delivery.endpoint_id, healthy, settledAt);
        }
        return;
      }
      const error = result.error ?? `HTTP ${result.statusCode}`;
      const stopped = health.deleted || health.status === 'DISABLED';
      const next = stopped
        ? null
        : nextAttemptAfterFailure(at, delivery.attempt_count + 1, delivery.retry_until, schedule, random);
      await settleDelivery(tx, {
        id: delivery.id,
        token,
        status: next ? 'PENDING' : 'FAILED',
        nextAttemptAt: next,
        error,
        at: settledAt,
      });
      if (stopped) return;
      const failingSince = health.failing_since ?? at;
      if (at.getTime() - failingSince.getTime() >= config.disableAfterMs) {
        const reason =
          `Every delivery failed for ${describeDuration(config.disableAfterMs)} ` +
          `(failing since ${failingSince.toISOString()})`;
        await setEndpointHealth(
          tx,
          delivery.endpoint_id,
          { status: 'DISABLED', failingSince, disabledReason: reason },
          settledAt,
        );
        await failPendingDeliveries(tx, delivery.endpoint_id, 'endpoint disabled', settledAt);
      } else if (health.failing_since === null) {
        const failing = { status: 'ENABLED', failingSince, disabledReason: null } as const;
        await setEndpointHealth(tx, delivery.endpoint_id, failing, settledAt);
      }
    });
  }

  async function deliverDue(): Promise<number> {
    const room = Math.min(batchSize, maxInFlight - inFlight.size);
    if (room <= 0) return 0;
    const token = newId();
    const now = clock();
    const leaseMs = config.timeoutMs + LEASE_MARGIN_MS;
    const rooms = {
      perEndpoint: maxInFlightPerEndpoint,
      perProject: maxInFlightPerProject,
      endpoints: perEndpoint.rooms(maxInFlightPerEndpoint),
      projects: perProject.rooms(maxInFlightPerProject),
    };
    const claimed = await db.transaction((tx) => claimDueDeliveries(tx, now, room, leaseMs, token, rooms));
    for (const delivery of claimed) {
      perEndpoint.add(delivery.endpoint_id, 1);
      perProject.add(delivery.project_id, 1);
      const task: Promise<void> = attempt(delivery, token)
        .catch((err) => log.error({ err, deliveryId: delivery.id }, 'webhook attempt not recorded'))
        .finally(() => {
          inFlight.delete(task);
          perEndpoint.add(delivery.endpoint_id, -1);
          perProject.add(delivery.project_id, -1);
          // Another claim once half an endpoint's (or project's) share is free, not after every attempt:
          // each claim reads the due list, so claiming a few at a time costs the database far less.
          const endpointLeft = perEndpoint.counts.get(delivery.endpoint_id) ?? 0;
          const projectLeft = perProject.counts.get(delivery.project_id) ?? 0;
          if (
            endpointLeft === Math.floor(maxInFlightPerEndpoint / 2) ||
            projectLeft === Math.floor(maxInFlightPerProject / 2) ||
            inFlight.size === Math.floor(maxInFlight / 2)
          )
            deps.onRoom?.();
        });
      inFlight.add(task);
    }
    return claimed.length;
  }

  return {
    /** One round: fan out new events, then start the due attempts. Returns the work found. */
    async tick(): Promise<number> {
      return (await fanOut()) + (await deliverDue());
    },
    /** Waits for the attempts in progress to be sent and recorded. */
    async drain(): Promise<void> {
      while (inFlight.size > 0) await Promise.all([...inFlight]);
    },
  };
}
