/**
 * SQL of the dispatcher: turning outbox events into deliveries, claiming due deliveries, and recording
 * what each attempt did. Every step is safe with several dispatchers on one database.
 */

import { newId } from '../../core/ids.ts';
import type { Database, Executor } from '../../db/types.ts';
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
  const deliveries: { endpoint: FanOutEndpoint; event: PendingEvent }[] = [];
  for (const event of events) {
    for (const endpoint of endpoints) {
      if (endpoint.project_id !== event.project_id || endpoint.environment !== event.environment) continue;
      if (endpoint.event_types && !endpoint.event_types.includes(event.type)) continue;
      if (endpoint.created_at.getTime() > event.created_at.getTime()) continue;
      deliveries.push({ endpoint, event });
    }
  }
  if (deliveries.length > 0) {
    // one statement text whatever the count (arrays, not a VALUES list): prepared once per connection
    await tx.query(
      `INSERT INTO webhook_deliveries (id, endpoint_id, project_id, environment, event_id, event_seq,
                                       resource_id, next_attempt_at, retry_until, created_at, status,
                                       updated_at)
       SELECT d.id, d.endpoint_id, d.project_id, d.environment, d.event_id, d.event_seq, d.resource_id,
              $1, d.retry_until, $1, 'PENDING', $1
         FROM unnest($2::uuid[], $3::uuid[], $4::uuid[], $5::text[], $6::uuid[], $7::bigint[], $8::uuid[],
                     $9::timestamptz[])
              AS d (id, endpoint_id, project_id, environment, event_id, event_seq, resource_id, retry_until)
       ON CONFLICT (endpoint_id, event_id) DO NOTHING`,
      [
        now,
        deliveries.map(() => newId()),
        deliveries.map(({ endpoint }) => endpoint.id),
        deliveries.map(({ event }) => event.project_id),
        deliveries.map(({ event }) => event.environment),
        deliveries.map(({ event }) => event.id),
        deliveries.map(({ event }) => String(event.seq)),
        deliveries.map(({ event }) => event.resource_id),
        deliveries.map(({ event }) => new Date(event.created_at.getTime() + retryHorizonMs)),
      ],
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

export type Candidate = { id: string; endpoint_id: string; project_id: string };

/**
 * How far down the due list one claim looks at most. A claim reads as many due deliveries as it may
 * claim (each read checks the delivery's order among its resource's), rounded up to a power of two; where
 * the caps pass over some, it says more may be due and the next claim follows at once. Reading four
 * times as many, to fill a claim past the capped ones in one go, cost 60 µs of PostgreSQL CPU per
 * delivered event when one endpoint takes all the traffic (`npm run bench -- webhooks`).
 */
const MAX_WINDOW = 1024;

/**
 * Claims up to `batch` due deliveries under a fresh token, each until `leaseUntil` says (asked in claim
 * order), and tells whether more may be due for endpoints and projects with room left (a claim made at
 * once then looks past the full ones). A delivery is due when its time
 * has come, its endpoint is enabled (or a partner asked for this attempt), and no earlier event of the same
 * resource is still waiting for that endpoint or still being fanned out: per resource and endpoint, events
 * go out one at a time, in order.
 *
 * Fairness: at most `rooms.perEndpoint` deliveries of one endpoint and `rooms.perProject` of one project
 * are claimed (less where this process already has attempts in flight for them), and endpoints or
 * projects without room are not even looked at, so a project whose receivers hang holds only its own
 * share of the dispatcher, never another project's.
 *
 * Two plain statements, each cheap to plan and reading the due list in index order: the first reads a
 * window of due deliveries (no lock), the caps are applied here, and the second claims the chosen ones,
 * checking each again on its locked row (a delivery another dispatcher claimed meanwhile comes back with
 * its lease in the future and is passed over, not sent twice).
 */
export async function claimDueDeliveries(
  db: Database,
  now: Date,
  batch: number,
  leaseUntil: (candidate: Candidate) => Date,
  token: string,
  rooms: ClaimRooms,
): Promise<{ claimed: ClaimedDelivery[]; more: boolean }> {
  const full = (map: Map<string, number>) => [...map].filter(([, room]) => room <= 0).map(([id]) => id);
  // a power of two written into the text (a handful of prepared statements): with LIMIT a parameter,
  // the plan PostgreSQL keeps for a prepared statement guesses the limit and sorts the whole due list
  const window = Math.min(MAX_WINDOW, 2 ** Math.ceil(Math.log2(batch)));
  return db.transaction(async (tx) => {
    // The due list is long while deliveries pile up, so PostgreSQL would compile this plan (JIT) on every
    // call, for ten times the cost of running it: the claim reads only its window.
    await tx.query('SET LOCAL jit = off');
    const candidates = await tx.query<Candidate>(
      `SELECT d.id, d.endpoint_id, d.project_id
       FROM webhook_deliveries d
      WHERE d.status = 'PENDING' AND d.next_attempt_at <= $1
        -- compared as text, which has no statistics: with the only endpoint left out, the planner would
        -- otherwise expect no row to pass and sort the whole due list rather than read it in order
        AND d.endpoint_id::text <> ALL($2::text[]) AND d.project_id::text <> ALL($3::text[])
        -- OFFSET 0 keeps each check a filter on the rows read in due order: turned into anti-joins, they
        -- made the planner expect a handful of rows and sort every due delivery
        AND NOT EXISTS (
              SELECT 1 FROM webhook_deliveries p
               WHERE p.endpoint_id = d.endpoint_id AND p.resource_id = d.resource_id
                 AND p.status = 'PENDING' AND p.event_seq < d.event_seq
              OFFSET 0)
        -- through the resource's own events (events_resource), not the index of undispatched events:
        -- right after a fan-out that index is full of entries just made dead
        AND (SELECT bool_or(e.dispatched_at IS NULL) FROM events e
              WHERE e.resource_id = d.resource_id AND e.seq < d.event_seq) IS NOT TRUE
      ORDER BY d.next_attempt_at, d.event_seq
      LIMIT ${window}`,
      [now, full(rooms.endpoints), full(rooms.projects)],
    );
    const endpointRoom = new Map(rooms.endpoints);
    const projectRoom = new Map(rooms.projects);
    const chosen: string[] = [];
    const leases: Date[] = [];
    // more may be due than this claim saw: past its window, or behind deliveries passed over for the caps
    let more = candidates.length === window;
    for (const candidate of candidates) {
      if (chosen.length >= batch) break;
      const endpointLeft = endpointRoom.get(candidate.endpoint_id) ?? rooms.perEndpoint;
      const projectLeft = projectRoom.get(candidate.project_id) ?? rooms.perProject;
      if (endpointLeft <= 0 || projectLeft <= 0) {
        more = true;
        continue;
      }
      endpointRoom.set(candidate.endpoint_id, endpointLeft - 1);
      projectRoom.set(candidate.project_id, projectLeft - 1);
      chosen.push(candidate.id);
      leases.push(leaseUntil(candidate));
    }
    if (chosen.length === 0) return { claimed: [], more: false };
    const claimed = await tx.query<ClaimedDelivery>(
      `UPDATE webhook_deliveries w
        SET next_attempt_at = due.lease, claim_token = $4, updated_at = $1
       -- by id, through the primary key (a condition on the due index would read the whole due list)
       FROM (SELECT d.id, c.lease FROM unnest($2::uuid[], $3::timestamptz[]) AS c (id, lease)
               JOIN webhook_deliveries d ON d.id = c.id
              WHERE d.status = 'PENDING' AND d.next_attempt_at <= $1
              FOR UPDATE OF d SKIP LOCKED) due,
            webhook_endpoints ep, events e
      WHERE w.id = due.id AND ep.id = w.endpoint_id AND e.id = w.event_id
        AND ep.deleted_at IS NULL AND (ep.status = 'ENABLED' OR w.manual)
     RETURNING w.id, w.endpoint_id, w.project_id, w.environment, ep.url, ep.secret_ciphertext,
               ep.previous_secret_ciphertext, ep.previous_secret_expires_at, w.attempt_count,
               w.retry_until, e.id AS event_id, e.type AS event_type, e.created_at AS event_created_at,
               e.data AS event_data`,
      [now, chosen, leases, token],
    );
    return { claimed, more };
  });
}

/**
 * Gives claimed deliveries back to the due list at once, for any dispatcher (only those still under the
 * claim given back).
 */
export async function unclaimDeliveries(
  db: Executor,
  claims: { id: string; token: string }[],
  at: Date,
): Promise<void> {
  await db.query(
    `UPDATE webhook_deliveries d SET next_attempt_at = $3, claim_token = NULL, updated_at = $3
       FROM unnest($1::uuid[], $2::uuid[]) AS c (id, token)
      WHERE d.id = c.id AND d.claim_token = c.token AND d.status = 'PENDING'`,
    [claims.map((claim) => claim.id), claims.map((claim) => claim.token), at],
  );
}

/** What one attempt did, as recorded. */
export type AttemptRecord = {
  deliveryId: string;
  token: string;
  at: Date;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
};

/** How a claimed delivery ends up after an attempt: DELIVERED, FAILED, or PENDING again at `nextAttemptAt`. */
export type Settlement = {
  id: string;
  token: string;
  status: 'PENDING' | 'DELIVERED' | 'FAILED';
  nextAttemptAt: Date | null;
  error: string | null;
};

/** Inserts the attempts in one statement. */
export async function insertAttempts(tx: Executor, attempts: AttemptRecord[]): Promise<void> {
  await tx.query(
    `INSERT INTO webhook_attempts (id, delivery_id, attempted_at, status_code, latency_ms, error)
     SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::timestamptz[], $4::int[], $5::int[], $6::text[])`,
    [
      attempts.map(() => newId()),
      attempts.map((a) => a.deliveryId),
      attempts.map((a) => a.at),
      attempts.map((a) => a.statusCode),
      attempts.map((a) => a.latencyMs),
      attempts.map((a) => a.error),
    ],
  );
}

/**
 * Counts one attempt on each delivery and settles it, in one statement. A settlement applies only while
 * the claim is still the one that made the attempt (a delivery claimed again after its lease expired is
 * the new claim's to settle).
 */
export async function settleDeliveries(tx: Executor, settlements: Settlement[], at: Date): Promise<void> {
  await tx.query(
    `UPDATE webhook_deliveries d
        SET attempt_count = d.attempt_count + 1,
            status = CASE WHEN d.claim_token = s.token THEN s.status ELSE d.status END,
            next_attempt_at = CASE WHEN d.claim_token = s.token THEN s.next_attempt_at ELSE d.next_attempt_at END,
            last_error = CASE WHEN d.claim_token = s.token THEN s.error ELSE d.last_error END,
            manual = CASE WHEN d.claim_token = s.token THEN false ELSE d.manual END,
            updated_at = CASE WHEN d.claim_token = s.token THEN $6 ELSE d.updated_at END,
            claim_token = CASE WHEN d.claim_token = s.token THEN NULL ELSE d.claim_token END
       FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::timestamptz[], $5::text[])
            AS s (id, token, status, next_attempt_at, error)
      WHERE d.id = s.id`,
    [
      settlements.map((s) => s.id),
      settlements.map((s) => s.token),
      settlements.map((s) => s.status),
      settlements.map((s) => s.nextAttemptAt),
      settlements.map((s) => s.error),
      at,
    ],
  );
}

/**
 * Brings back to health the endpoints among `endpointIds` that were failing or disabled, after attempts
 * that all delivered. Healthy endpoints are not even locked: concurrent recordings of deliveries to a
 * healthy endpoint never wait for one another, and a recording of failures that locks the endpoint
 * meanwhile is simply ordered after this one. Same lock order as `lockEndpointsHealth` (endpoints first,
 * by id), so the two never deadlock.
 */
export async function restoreEndpointsHealth(tx: Executor, endpointIds: string[], at: Date): Promise<void> {
  await tx.query(
    `UPDATE webhook_endpoints e
        SET status = 'ENABLED', failing_since = NULL, disabled_reason = NULL,
            updated_at = CASE WHEN e.status = 'ENABLED' THEN e.updated_at ELSE $2 END
       FROM (SELECT id FROM webhook_endpoints
              WHERE id = ANY($1::uuid[]) AND deleted_at IS NULL
                AND (status = 'DISABLED' OR failing_since IS NOT NULL)
              ORDER BY id FOR UPDATE) unhealthy
      WHERE e.id = unhealthy.id`,
    [endpointIds, at],
  );
}

export type EndpointHealth = {
  id: string;
  status: 'ENABLED' | 'DISABLED';
  failing_since: Date | null;
  deleted: boolean;
};

/**
 * Locks the endpoints (in id order, so two dispatchers recording for the same endpoints never deadlock):
 * concurrent results for one endpoint settle its health one batch at a time.
 */
export async function lockEndpointsHealth(tx: Executor, endpointIds: string[]): Promise<EndpointHealth[]> {
  return tx.query<EndpointHealth>(
    `SELECT id, status, failing_since, deleted_at IS NOT NULL AS deleted FROM webhook_endpoints
      WHERE id = ANY($1::uuid[]) ORDER BY id FOR UPDATE`,
    [endpointIds],
  );
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
