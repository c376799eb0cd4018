/**
 * SQL of the dispatcher: turning outbox events into deliveries, claiming due deliveries, and recording
 * what each attempt did. Every step is safe with several dispatchers on one database.
 */

import { newId } from '../../core/ids.ts';
import type { Executor } from '../../db/types.ts';
import type { Environment } from '../../lib/environment.ts';

type PendingEvent = {
  seq: bigint;
  id: string;
  project_id: string;
  environment: Environment;
  type: string;
  resource_id: string;
  created_at: Date;
};

type FanOutEndpoint = {
  id: string;
  project_id: string;
  environment: Environment;
  event_types: string[] | null;
  created_at: Date;
};

/**
 * Takes the oldest events not yet fanned out (skipping those another dispatcher holds), creates one
 * delivery per matching enabled endpoint of the same project and environment that existed when the event
 * happened, and marks the events fanned out. Returns how many events it handled.
 */
export async function fanOutEvents(tx: Executor, now: Date, batch: number, retryHorizonMs: number) {
  const events = await tx.query<PendingEvent>(
    `SELECT seq, id, project_id, environment, type, resource_id, created_at FROM events
      WHERE dispatched_at IS NULL ORDER BY seq LIMIT $1 FOR UPDATE SKIP LOCKED`,
    [batch],
  );
  if (events.length === 0) return 0;
  // FOR SHARE: an endpoint being deleted waits for this fan-out, then ends what it created.
  const endpoints = await tx.query<FanOutEndpoint>(
    `SELECT id, project_id, environment, event_types, created_at FROM webhook_endpoints
      WHERE project_id = ANY($1::uuid[]) AND deleted_at IS NULL AND status = 'ENABLED'
      FOR SHARE`,
    [[...new Set(events.map((event) => event.project_id))]],
  );
  const values: unknown[] = [];
  const tuples: string[] = [];
  for (const event of events) {
    for (const endpoint of endpoints) {
      if (endpoint.project_id !== event.project_id || endpoint.environment !== event.environment) continue;
      if (endpoint.event_types && !endpoint.event_types.includes(event.type)) continue;
      if (endpoint.created_at.getTime() > event.created_at.getTime()) continue;
      const base = values.length;
      tuples.push(
        `(${Array.from({ length: 10 }, (_, i) => `$${base + i + 1}`).join(', ')}, 'PENDING', $${base + 11})`,
      );
      values.push(
        newId(),
        endpoint.id,
        event.project_id,
        event.environment,
        event.id,
        String(event.seq),
        event.resource_id,
        now,
        new Date(event.created_at.getTime() + retryHorizonMs),
        now,
        now,
      );
    }
  }
  if (tuples.length > 0) {
    await tx.query(
      `INSERT INTO webhook_deliveries (id, endpoint_id, project_id, environment, event_id, event_seq,
                                       resource_id, next_attempt_at, retry_until, created_at, status,
                                       updated_at)
       VALUES ${tuples.join(', ')}
       ON CONFLICT (endpoint_id, event_id) DO NOTHING`,
      values,
    );
  }
  await tx.query('UPDATE events SET dispatched_at = $1 WHERE id = ANY($2::uuid[])', [
    now,
    events.map((event) => event.id),
  ]);
  return events.length;
}

export type ClaimedDelivery = {
  id: string;
  endpoint_id: string;
  project_id: string;
  environment: Environment;
  url: string;
  secret_ciphertext: string;
  previous_secret_ciphertext: string | null;
  previous_secret_expires_at: Date | null;
  attempt_count: number;
  retry_until: Date;
  event_id: string;
  event_type: string;
  event_created_at: Date;
  event_data: unknown;
};

/** How many more attempts may start now, per endpoint and per project, where fewer than the default. */
export type ClaimRooms = {
  perEndpoint: number;
  perProject: number;
  endpoints: Map<string, number>;
  projects: Map<string, number>;
};

/** How far down the due list one claim looks (the rows are then capped per endpoint and project). */
const CANDIDATE_WINDOW = 1000;

/**
 * Claims up to `batch` due deliveries for `leaseMs` under a fresh token. A delivery is due when its time
 * has come, its endpoint is enabled (or a partner asked for this attempt), and no earlier event of the same
 * resource is still waiting for that endpoint or still being fanned out: per resource and endpoint, events
 * go out one at a time, in order.
 *
 * Fairness: at most `rooms.perEndpoint` deliveries of one endpoint and `rooms.perProject` of one project
 * are claimed (less where this process already has attempts in flight for them), and endpoints or
 * projects without room are not even looked at, so a project whose receivers hang holds only its own
 * share of the dispatcher, never another project's.
 */
export async function claimDueDeliveries(
  tx: Executor,
  now: Date,
  batch: number,
  leaseMs: number,
  token: string,
  rooms: ClaimRooms,
): Promise<ClaimedDelivery[]> {
  const endpointRooms = [...rooms.endpoints];
  const projectRooms = [...rooms.projects];
  return tx.query<ClaimedDelivery>(
    `WITH endpoint_room AS (SELECT * FROM unnest($5::uuid[], $6::int[]) AS r (id, room)),
          project_room AS (SELECT * FROM unnest($7::uuid[], $8::int[]) AS r (id, room)),
          candidates AS (
       SELECT d.id, d.endpoint_id, d.project_id, d.next_attempt_at, d.event_seq
         FROM webhook_deliveries d
         JOIN webhook_endpoints ep ON ep.id = d.endpoint_id
        WHERE d.status = 'PENDING' AND d.next_attempt_at <= $1
          AND ep.deleted_at IS NULL AND (ep.status = 'ENABLED' OR d.manual)
          AND NOT EXISTS (SELECT 1 FROM endpoint_room r WHERE r.id = d.endpoint_id AND r.room <= 0)
          AND NOT EXISTS (SELECT 1 FROM project_room r WHERE r.id = d.project_id AND r.room <= 0)
          AND NOT EXISTS (
                SELECT 1 FROM webhook_deliveries p
                 WHERE p.endpoint_id = d.endpoint_id AND p.resource_id = d.resource_id
                   AND p.status = 'PENDING' AND p.event_seq < d.event_seq)
          -- through the resource's own events (events_resource), not the index of undispatched events:
          -- right after a fan-out that index is full of entries just made dead, and scanning them once
          -- per candidate was most of the claim's cost
          AND (SELECT bool_or(e.dispatched_at IS NULL) FROM events e
                WHERE e.resource_id = d.resource_id AND e.seq < d.event_seq) IS NOT TRUE
        ORDER BY d.next_attempt_at, d.event_seq
        LIMIT ${CANDIDATE_WINDOW}),
          ranked AS (
       SELECT c.*,
              row_number() OVER (PARTITION BY c.endpoint_id ORDER BY c.next_attempt_at, c.event_seq) AS endpoint_rank,
              row_number() OVER (PARTITION BY c.project_id ORDER BY c.next_attempt_at, c.event_seq) AS project_rank
         FROM candidates c),
          due AS (
       SELECT d.id FROM webhook_deliveries d
         JOIN ranked c ON c.id = d.id
        -- checked again on the locked row: a delivery another dispatcher claimed since this statement's
        -- snapshot was taken comes back with its lease in the future and is passed over, not sent twice
        WHERE d.status = 'PENDING' AND d.next_attempt_at <= $1
          AND c.endpoint_rank <= COALESCE((SELECT r.room FROM endpoint_room r WHERE r.id = c.endpoint_id), $9)
          AND c.project_rank <= COALESCE((SELECT r.room FROM project_room r WHERE r.id = c.project_id), $10)
        ORDER BY c.next_attempt_at, c.event_seq
        LIMIT $2
        FOR UPDATE OF d SKIP LOCKED)
     UPDATE webhook_deliveries w
        SET next_attempt_at = $3, claim_token = $4, updated_at = $1
       FROM due, webhook_endpoints ep, events e
      WHERE w.id = due.id AND ep.id = w.endpoint_id AND e.id = w.event_id
     RETURNING w.id, w.endpoint_id, w.project_id, w.environment, ep.url, ep.secret_ciphertext,
               ep.previous_secret_ciphertext, ep.previous_secret_expires_at, w.attempt_count,
               w.retry_until, e.id AS event_id, e.type AS event_type, e.created_at AS event_created_at,
               e.data AS event_data`,
    [
      now,
      batch,
      new Date(now.getTime() + leaseMs),
      token,
      endpointRooms.map(([id]) => id),
      endpointRooms.map(([, room]) => room),
      projectRooms.map(([id]) => id),
      projectRooms.map(([, room]) => room),
      rooms.perEndpoint,
      rooms.perProject,
    ],
  );
}

export async function insertAttempt(
  tx: Executor,
  attempt: {
    deliveryId: string;
    at: Date;
    statusCode: number | null;
    latencyMs: number;
    error: string | null;
  },
): Promise<void> {
  await tx.query(
    `INSERT INTO webhook_attempts (id, delivery_id, attempted_at, status_code, latency_ms, error)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [newId(), attempt.deliveryId, attempt.at, attempt.statusCode, attempt.latencyMs, attempt.error],
  );
  await tx.query('UPDATE webhook_deliveries SET attempt_count = attempt_count + 1 WHERE id = $1', [
    attempt.deliveryId,
  ]);
}

export type EndpointHealth = { status: 'ENABLED' | 'DISABLED'; failing_since: Date | null; deleted: boolean };

/** Locks the endpoint first, so concurrent results for one endpoint settle its health one at a time. */
export async function lockEndpointHealth(tx: Executor, endpointId: string): Promise<EndpointHealth> {
  const rows = await tx.query<EndpointHealth>(
    `SELECT status, failing_since, deleted_at IS NOT NULL AS deleted FROM webhook_endpoints
      WHERE id = $1 FOR UPDATE`,
    [endpointId],
  );
  return rows[0]!;
}

/**
 * Settles a claimed delivery: DELIVERED, FAILED, or PENDING again at `nextAttemptAt`. Applies only while
 * the claim is still this dispatcher's; returns whether it did.
 */
export async function settleDelivery(
  tx: Executor,
  settlement: {
    id: string;
    token: string;
    status: 'PENDING' | 'DELIVERED' | 'FAILED';
    nextAttemptAt: Date | null;
    error: string | null;
    at: Date;
  },
): Promise<boolean> {
  const rows = await tx.query<{ id: string }>(
    `UPDATE webhook_deliveries
        SET status = $3, next_attempt_at = $4, last_error = $5, claim_token = NULL, manual = false,
            updated_at = $6
      WHERE id = $1 AND claim_token = $2
     RETURNING id`,
    [
      settlement.id,
      settlement.token,
      settlement.status,
      settlement.nextAttemptAt,
      settlement.error,
      settlement.at,
    ],
  );
  return rows.length > 0;
}

export async function setEndpointHealth(
  tx: Executor,
  endpointId: string,
  health: { status: 'ENABLED' | 'DISABLED'; failingSince: Date | null; disabledReason: string | null },
  at: Date,
): Promise<void> {
  await tx.query(
    `UPDATE webhook_endpoints
        SET status = $2, failing_since = $3, disabled_reason = $4,
            updated_at = CASE WHEN status = $2 THEN updated_at ELSE $5 END
      WHERE id = $1`,
    [endpointId, health.status, health.failingSince, health.disabledReason, at],
  );
}
