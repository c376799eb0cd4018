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
import { performance } from 'node:perf_hooks';
import type { WebhookConfig } from '../../config.ts';
import type { Clock } from '../../core/clock.ts';
import { newId } from '../../core/ids.ts';
import type { Logger } from '../../core/logger.ts';
import type { Database, Transaction } from '../../db/types.ts';
import { metrics } from '../../http/metrics.ts';
import { decryptSecret } from '../../lib/sealed.ts';
import { nextAttemptAfterFailure } from './backoff.ts';
import {
  type ClaimedDelivery,
  claimDueDeliveries,
  fanOutEvents,
  insertAttempts,
  lockEndpointsHealth,
  restoreEndpointsHealth,
  type Settlement,
  setEndpointHealth,
  settleDeliveries,
  unclaimDeliveries,
} from './dispatch-repo.ts';
import { deliveryBody } from './presenter.ts';
import { failPendingDeliveries } from './repo.ts';
import { signatureHeaders, signingKey } from './secret.ts';
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

/**
 * How many times what may be sent at once a dispatcher holds claimed (the rest waits in process), and how
 * far what it holds of an endpoint (or project, or in all) goes down before it claims again: each claim
 * then brings half of what it may hold, and the deliveries waiting keep the attempts going meanwhile.
 * Small claims cost more than the attempts they fed: at 4 shares ahead (claims of 2 shares) a receiver
 * answering at once got 1,700 events/s with 460 µs of PostgreSQL and 330 µs of Node CPU per event; at
 * 16, 2,700 to 3,300 with 255 to 300 and 215 to 255 µs (`npm run bench -- webhooks`). Each claim's
 * leases follow the deliveries' places in their queues (`leaseFrom`), so holding more ahead does not
 * hold a crashed dispatcher's first deliveries longer.
 */
const AHEAD = 16;
const REFILL_AT = AHEAD / 2;

/**
 * What a claim's lease adds to the time its delivery may take in this process (its turn, then its
 * attempt): after it, a crashed dispatcher's claims are due again.
 */
const LEASE_MARGIN_MS = 60_000;

/** At most this many attempts are recorded by one transaction. */
const RECORD_BATCH = 500;

/** How long the first attempt answered waits for others to be recorded with it. */
const RECORD_GATHER_MS = 20;

/** Signing keys kept decrypted, at most (the least recently decrypted one goes first). */
const KEYS_KEPT = 1_000;

/** A 2xx answer delivers the event. */
const delivered = (result: AttemptResult) =>
  result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;

/** How a delivery delivered by the attempt made under `token` ends up. */
const deliveredSettlement = (id: string, token: string): Settlement => ({
  id,
  token,
  status: 'DELIVERED',
  nextAttemptAt: null,
  error: null,
});

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
  /** Claimed deliveries not yet recorded: waiting for room, being sent, or being recorded. */
  const inFlight = new Set<Promise<void>>();
  /** Claimed deliveries not yet answered (waiting for room or being sent), in total and per key. */
  let held = 0;
  const heldPerEndpoint = counter();
  const heldPerProject = counter();
  /** Attempts being sent: what the limits count. */
  let sending = 0;
  const sendingPerEndpoint = counter();
  const sendingPerProject = counter();
  /** When a claim last found nothing (real time: a bound on wasted reads, not on business time). */
  let fruitlessAt = Number.NEGATIVE_INFINITY;
  /** Claimed deliveries waiting for room under the limits, in claim (due) order. */
  const waiting: { delivery: ClaimedDelivery; token: string; start: (go: boolean) => void }[] = [];
  const { maxInFlightPerEndpoint, maxInFlightPerProject } = config;
  /**
   * Signing keys by endpoint and stored secret, decrypted once rather than for every attempt. Each
   * claim brings the endpoint's stored secrets, so a rotated or erased secret is never signed with again.
   */
  const keys = new Map<string, Buffer>();
  function keyFor(endpointId: string, ciphertext: string): Buffer {
    const id = `${endpointId} ${ciphertext}`;
    let key = keys.get(id);
    if (!key) {
      key = signingKey(decryptSecret(encryptionKey, ciphertext, endpointId));
      keys.set(id, key);
      if (keys.size > KEYS_KEPT) keys.delete(keys.keys().next().value!);
    }
    return key;
  }

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
        environment: delivery.environment,
        created_at: delivery.event_created_at,
        data: delivery.event_data,
      });
      const at = clock();
      const secrets = [keyFor(delivery.endpoint_id, delivery.secret_ciphertext)];
      // during a rotation's overlap the replaced secret signs too
      if (delivery.previous_secret_ciphertext && delivery.previous_secret_expires_at! > at) {
        secrets.push(keyFor(delivery.endpoint_id, delivery.previous_secret_ciphertext));
      }
      const headers = signatureHeaders(secrets, delivery.event_id, at, body);
      return await post({ url, address: target.address, headers, body, timeoutMs: config.timeoutMs });
    } catch (error) {
      log.error({ err: error, deliveryId: delivery.id }, 'webhook attempt not sent');
      return { statusCode: null, latencyMs: 0, error: 'not sent: internal error' };
    }
  }

  type Outcome = { delivery: ClaimedDelivery; token: string; at: Date; result: AttemptResult };
  const attemptsOf = (outcomes: Outcome[]) =>
    outcomes.map(({ delivery, token, at, result }) => ({ deliveryId: delivery.id, token, at, ...result }));
  type HealthState = {
    status: 'ENABLED' | 'DISABLED';
    failingSince: Date | null;
    disabledReason: string | null;
    deleted: boolean;
  };

  /**
   * Records a batch of attempts in one transaction: the attempts inserted in one statement, the deliveries
   * counted and settled in one. Where every attempt delivered, the endpoints' health can only come back:
   * the failing or disabled ones among them are enabled, and healthy ones are not even locked. Otherwise
   * the endpoints are locked first, and each one's health follows the attempts, in the order they were
   * made, that leave it.
   */
  async function recordOutcomes(tx: Transaction, outcomes: Outcome[]): Promise<void> {
    const endpointIds = [...new Set(outcomes.map((outcome) => outcome.delivery.endpoint_id))].sort();
    if (outcomes.every(({ result }) => delivered(result))) {
      // the usual case: nothing to decide from the endpoints' health, which only failing ones change
      const settledAt = clock();
      await restoreEndpointsHealth(tx, endpointIds, settledAt);
      await insertAttempts(tx, attemptsOf(outcomes));
      await settleDeliveries(
        tx,
        outcomes.map(({ delivery, token }) => deliveredSettlement(delivery.id, token)),
        settledAt,
      );
      return;
    }
    const health = new Map<string, HealthState>();
    for (const row of await lockEndpointsHealth(tx, endpointIds)) {
      health.set(row.id, {
        status: row.status,
        failingSince: row.failing_since,
        disabledReason: null,
        deleted: row.deleted,
      });
    }
    await insertAttempts(tx, attemptsOf(outcomes));
    const settledAt = clock();
    const settlements: Settlement[] = [];
    const changed = new Set<string>();
    const disabled = new Set<string>();
    const inOrder = [...outcomes].sort((a, b) => a.at.getTime() - b.at.getTime());
    for (const { delivery, token, at, result } of inOrder) {
      const endpoint = health.get(delivery.endpoint_id)!;
      if (delivered(result)) {
        settlements.push(deliveredSettlement(delivery.id, token));
        if (!endpoint.deleted && (endpoint.status === 'DISABLED' || endpoint.failingSince !== null)) {
          Object.assign(endpoint, { status: 'ENABLED', failingSince: null, disabledReason: null });
          changed.add(delivery.endpoint_id);
        }
        continue;
      }
      const error = result.error ?? `HTTP ${result.statusCode}`;
      const stopped = endpoint.deleted || endpoint.status === 'DISABLED';
      const next = stopped
        ? null
        : nextAttemptAfterFailure(at, delivery.attempt_count + 1, delivery.retry_until, schedule, random);
      settlements.push({
        id: delivery.id,
        token,
        status: next ? 'PENDING' : 'FAILED',
        nextAttemptAt: next,
        error,
      });
      if (stopped) continue;
      const failingSince = endpoint.failingSince ?? at;
      if (at.getTime() - failingSince.getTime() >= config.disableAfterMs) {
        const reason =
          `Every delivery failed for ${describeDuration(config.disableAfterMs)} ` +
          `(failing since ${failingSince.toISOString()})`;
        Object.assign(endpoint, { status: 'DISABLED', failingSince, disabledReason: reason });
        changed.add(delivery.endpoint_id);
        disabled.add(delivery.endpoint_id);
      } else if (endpoint.failingSince === null) {
        endpoint.failingSince = failingSince;
        changed.add(delivery.endpoint_id);
      }
    }
    await settleDeliveries(tx, settlements, settledAt);
    for (const id of changed) await setEndpointHealth(tx, id, health.get(id)!, settledAt);
    // after the settlements: a retry they scheduled on an endpoint now disabled ends too
    for (const id of disabled) await failPendingDeliveries(tx, id, 'endpoint disabled', settledAt);
  }

  /** Attempts waiting to be recorded; one transaction records all those that arrived meanwhile. */
  const unrecorded: { outcome: Outcome; done: () => void; failed: (err: unknown) => void }[] = [];
  let recording = false;

  async function recordWaiting(): Promise<void> {
    recording = true;
    try {
      while (unrecorded.length > 0) {
        const batch = unrecorded.splice(0, RECORD_BATCH);
        try {
          await db.transaction((tx) =>
            recordOutcomes(
              tx,
              batch.map((entry) => entry.outcome),
            ),
          );
          for (const entry of batch) entry.done();
        } catch (err) {
          for (const entry of batch) entry.failed(err);
        }
      }
    } finally {
      recording = false;
    }
  }

  function record(outcome: Outcome): Promise<void> {
    return new Promise((done, failed) => {
      unrecorded.push({ outcome, done, failed });
      if (recording) return;
      recording = true;
      // a short wait gathers the attempts answered meanwhile into the same transaction; the delivery's
      // room was freed when its answer came, so the wait delays no attempt
      setTimeout(() => void recordWaiting(), RECORD_GATHER_MS);
    });
  }

  /** Starts the waiting deliveries that the limits now leave room for, in due order. */
  function startWaiting(): void {
    for (let i = 0; i < waiting.length && sending < maxInFlight; ) {
      const { delivery, start } = waiting[i]!;
      if (
        (sendingPerEndpoint.counts.get(delivery.endpoint_id) ?? 0) >= maxInFlightPerEndpoint ||
        (sendingPerProject.counts.get(delivery.project_id) ?? 0) >= maxInFlightPerProject
      ) {
        i += 1;
        continue;
      }
      waiting.splice(i, 1);
      sending += 1;
      sendingPerEndpoint.add(delivery.endpoint_id, 1);
      sendingPerProject.add(delivery.project_id, 1);
      start(true);
    }
  }

  function releaseHeld(delivery: ClaimedDelivery): void {
    held -= 1;
    heldPerEndpoint.add(delivery.endpoint_id, -1);
    heldPerProject.add(delivery.project_id, -1);
  }

  /** Ends an attempt's hold on its endpoint's and project's share once its answer (or failure) is in. */
  function release(delivery: ClaimedDelivery): void {
    sending -= 1;
    sendingPerEndpoint.add(delivery.endpoint_id, -1);
    sendingPerProject.add(delivery.project_id, -1);
    releaseHeld(delivery);
    startWaiting();
    // Another claim once what is held for the endpoint (or project, or in total) is down to REFILL_AT
    // shares: the next claim's deliveries are then ready before the ones waiting run out.
    if (
      (heldPerEndpoint.counts.get(delivery.endpoint_id) ?? 0) === REFILL_AT * maxInFlightPerEndpoint ||
      (heldPerProject.counts.get(delivery.project_id) ?? 0) === REFILL_AT * maxInFlightPerProject ||
      held === REFILL_AT * maxInFlight
    )
      deps.onRoom?.();
  }

  async function attempt(delivery: ClaimedDelivery, token: string): Promise<void> {
    const go = await new Promise<boolean>((start) => {
      waiting.push({ delivery, token, start });
      startWaiting();
    });
    if (!go) {
      releaseHeld(delivery);
      return;
    }
    const at = clock();
    let result: AttemptResult;
    try {
      result = await send(delivery);
    } finally {
      release(delivery);
    }
    metrics.deliveryAttempts.inc({ outcome: delivered(result) ? 'delivered' : 'failed' });
    if (!delivered(result)) metrics.deliveryFailures.inc({ endpoint: delivery.endpoint_id });
    await record({ delivery, token, at, result });
  }

  /**
   * The lease of each delivery a claim takes, in claim order: a timeout for every round of attempts up
   * to and including its own, behind the deliveries held before it (of its endpoint, of its project or
   * in all, whichever queue is the longest for its limit), one timeout to spare, and the margin. The
   * first deliveries of a claim are due again soon after a crash; those far down a queue keep their
   * claim as long as their turn may take.
   */
  function leaseFrom(now: Date) {
    const perEndpoint = new Map(heldPerEndpoint.counts);
    const perProject = new Map(heldPerProject.counts);
    let total = held;
    return (delivery: { endpoint_id: string; project_id: string }): Date => {
      const endpoint = (perEndpoint.get(delivery.endpoint_id) ?? 0) + 1;
      const project = (perProject.get(delivery.project_id) ?? 0) + 1;
      total += 1;
      perEndpoint.set(delivery.endpoint_id, endpoint);
      perProject.set(delivery.project_id, project);
      const turns = Math.max(
        Math.ceil(endpoint / maxInFlightPerEndpoint),
        Math.ceil(project / maxInFlightPerProject),
        Math.ceil(total / maxInFlight),
      );
      return new Date(now.getTime() + (turns + 1) * config.timeoutMs + LEASE_MARGIN_MS);
    };
  }

  /**
   * Claims up to AHEAD times what may be sent at once (per endpoint, per project and in total): what is
   * past the limits waits in process, under its lease, and starts as soon as an attempt is answered,
   * while the next claim is made.
   */
  async function deliverDue(): Promise<number> {
    const room = Math.min(batchSize, AHEAD * maxInFlight - held);
    if (room <= 0) return 0;
    const token = newId();
    const now = clock();
    const rooms = {
      perEndpoint: AHEAD * maxInFlightPerEndpoint,
      perProject: AHEAD * maxInFlightPerProject,
      endpoints: heldPerEndpoint.rooms(AHEAD * maxInFlightPerEndpoint),
      projects: heldPerProject.rooms(AHEAD * maxInFlightPerProject),
    };
    const { claimed, more } = await claimDueDeliveries(db, now, room, leaseFrom(now), token, rooms);
    for (const delivery of claimed) {
      held += 1;
      heldPerEndpoint.add(delivery.endpoint_id, 1);
      heldPerProject.add(delivery.project_id, 1);
      const task: Promise<void> = attempt(delivery, token)
        .catch((err) => log.error({ err, deliveryId: delivery.id }, 'webhook attempt not recorded'))
        .finally(() => inFlight.delete(task));
      inFlight.add(task);
    }
    // Work found, and the loop looks again at once, only where this claim may have left some due for
    // endpoints with room. Looking again past full endpoints reads their whole backlog: after a look
    // that found nothing, the next waits a poll interval (new events still wake the loop at once).
    if (claimed.length === 0) {
      fruitlessAt = performance.now();
      return 0;
    }
    return more && performance.now() - fruitlessAt >= config.dispatchIntervalMs ? claimed.length : 0;
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
    /**
     * Gives the deliveries claimed but not started back to the due list (another process may take them
     * at once, rather than after their lease), then waits for the attempts in progress.
     */
    async stop(): Promise<void> {
      const unstarted = waiting.splice(0);
      if (unstarted.length > 0) {
        const claims = unstarted.map(({ delivery, token }) => ({ id: delivery.id, token }));
        // not given back, they are taken again when their lease ends
        await unclaimDeliveries(db, claims, clock()).catch((err) =>
          log.error({ err }, 'webhook claims not given back'),
        );
        for (const entry of unstarted) entry.start(false);
      }
      await this.drain();
    },
  };
}
