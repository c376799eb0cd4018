import type { PageRequest } from '../../core/pagination.ts';
import { pageWindow } from '../../db/page-query.ts';
import type { Executor } from '../../db/types.ts';
import type { Environment, Tenant } from '../../lib/environment.ts';

export type EndpointStatus = 'ENABLED' | 'DISABLED';
export type DeliveryStatus = 'PENDING' | 'DELIVERED' | 'FAILED';

export type EndpointRow = {
  id: string;
  project_id: string;
  environment: Environment;
  url: string;
  event_types: string[] | null;
  secret_ciphertext: string;
  /** The secret a rotation replaced, which also signs deliveries until `previous_secret_expires_at`. */
  previous_secret_ciphertext: string | null;
  previous_secret_expires_at: Date | null;
  status: EndpointStatus;
  disabled_reason: string | null;
  failing_since: Date | null;
  created_at: Date;
  updated_at: Date;
};

export type DeliveryRow = {
  id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  status: DeliveryStatus;
  next_attempt_at: Date | null;
  claim_token: string | null;
  created_at: Date;
  updated_at: Date;
};

export type AttemptRow = {
  delivery_id: string;
  attempted_at: Date;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
};

const ENDPOINT_COLUMNS = `id, project_id, environment, url, event_types, secret_ciphertext, status, disabled_reason,
       failing_since, created_at, updated_at, previous_secret_ciphertext, previous_secret_expires_at`;

export async function insertEndpoint(db: Executor, row: EndpointRow): Promise<void> {
  await db.query(
    `INSERT INTO webhook_endpoints (${ENDPOINT_COLUMNS})
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
    [
      row.id,
      row.project_id,
      row.environment,
      row.url,
      row.event_types,
      row.secret_ciphertext,
      row.status,
      row.disabled_reason,
      row.failing_since,
      row.created_at,
      row.updated_at,
      row.previous_secret_ciphertext,
      row.previous_secret_expires_at,
    ],
  );
}

/**
 * Replaces the endpoint's signing secret; the one it had becomes the previous secret until
 * `previousExpiresAt` (a previous secret still in its overlap is dropped: two secrets at most).
 */
export async function rotateSecret(
  db: Executor,
  id: string,
  secretCiphertext: string,
  previousExpiresAt: Date,
  now: Date,
): Promise<EndpointRow> {
  const rows = await db.query<EndpointRow>(
    `UPDATE webhook_endpoints
        SET previous_secret_ciphertext = secret_ciphertext, previous_secret_expires_at = $3,
            secret_ciphertext = $2, updated_at = $4
      WHERE id = $1 AND deleted_at IS NULL
     RETURNING ${ENDPOINT_COLUMNS}`,
    [id, secretCiphertext, previousExpiresAt, now],
  );
  return rows[0]!;
}

export async function findEndpoint(db: Executor, tenant: Tenant, id: string, lock = false) {
  const rows = await db.query<EndpointRow>(
    `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints
      WHERE id = $1 AND project_id = $2 AND environment = $3 AND deleted_at IS NULL${lock ? ' FOR UPDATE' : ''}`,
    [id, tenant.projectId, tenant.environment],
  );
  return rows[0];
}

export async function listEndpoints(db: Executor, tenant: Tenant, page: PageRequest) {
  const window = pageWindow(page, '', 2);
  const [rows, count] = await Promise.all([
    db.query<EndpointRow>(
      `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints
        WHERE project_id = $1 AND environment = $2 AND deleted_at IS NULL${window.and}
        ORDER BY created_at DESC, id DESC ${window.tail}`,
      [tenant.projectId, tenant.environment, ...window.params],
    ),
    db.query<{ n: bigint }>(
      `SELECT count(*) AS n FROM webhook_endpoints
        WHERE project_id = $1 AND environment = $2 AND deleted_at IS NULL`,
      [tenant.projectId, tenant.environment],
    ),
  ]);
  return { rows, total: Number(count[0]!.n) };
}

export async function markEndpointDeleted(db: Executor, id: string, at: Date): Promise<void> {
  await db.query('UPDATE webhook_endpoints SET deleted_at = $2, updated_at = $2 WHERE id = $1', [id, at]);
}

/** Ends every delivery still waiting for this endpoint (it was deleted or disabled). */
export async function failPendingDeliveries(
  db: Executor,
  endpointId: string,
  reason: string,
  at: Date,
): Promise<void> {
  await db.query(
    `UPDATE webhook_deliveries
        SET status = 'FAILED', next_attempt_at = NULL, manual = false, last_error = $2, updated_at = $3
      WHERE endpoint_id = $1 AND status = 'PENDING'`,
    [endpointId, reason, at],
  );
}

const DELIVERY_SELECT = `SELECT d.id, d.endpoint_id, d.event_id, e.type AS event_type, d.status,
       d.next_attempt_at, d.claim_token, d.created_at, d.updated_at
  FROM webhook_deliveries d JOIN events e ON e.id = d.event_id`;

export async function listDeliveries(
  db: Executor,
  tenant: Tenant,
  endpointId: string,
  status: DeliveryStatus | undefined,
  page: PageRequest,
) {
  const filter = `d.endpoint_id = $1 AND d.project_id = $2 AND d.environment = $3
    AND ($4::text IS NULL OR d.status = $4)`;
  const params = [endpointId, tenant.projectId, tenant.environment, status ?? null];
  const window = pageWindow(page, 'd', params.length);
  const rows = await db.query<DeliveryRow>(
    `${DELIVERY_SELECT} WHERE ${filter}${window.and} ORDER BY d.created_at DESC, d.id DESC ${window.tail}`,
    [...params, ...window.params],
  );
  const count = await db.query<{ n: bigint }>(
    `SELECT count(*) AS n FROM webhook_deliveries d WHERE ${filter}`,
    params,
  );
  return { rows, total: Number(count[0]!.n) };
}

export async function findDelivery(
  db: Executor,
  tenant: Tenant,
  endpointId: string,
  id: string,
  lock = false,
): Promise<DeliveryRow | undefined> {
  const rows = await db.query<DeliveryRow>(
    `${DELIVERY_SELECT}
      WHERE d.id = $1 AND d.endpoint_id = $2 AND d.project_id = $3 AND d.environment = $4
      ${lock ? 'FOR UPDATE OF d' : ''}`,
    [id, endpointId, tenant.projectId, tenant.environment],
  );
  return rows[0];
}

export async function listAttempts(db: Executor, deliveryIds: string[]): Promise<AttemptRow[]> {
  if (deliveryIds.length === 0) return [];
  return db.query<AttemptRow>(
    `SELECT delivery_id, attempted_at, status_code, latency_ms, error FROM webhook_attempts
      WHERE delivery_id = ANY($1::uuid[]) ORDER BY attempted_at, id`,
    [deliveryIds],
  );
}

/**
 * Makes a delivery due now. `retryUntil` replaces its deadline (a failed delivery gets one more attempt);
 * `manual` lets the attempt go out even while the endpoint is disabled.
 */
export async function requeueDelivery(
  db: Executor,
  id: string,
  at: Date,
  change: { retryUntil?: Date; manual: boolean },
): Promise<void> {
  await db.query(
    `UPDATE webhook_deliveries
        SET status = 'PENDING', next_attempt_at = $2, retry_until = COALESCE($3, retry_until),
            manual = $4, updated_at = $2
      WHERE id = $1`,
    [id, at, change.retryUntil ?? null, change.manual],
  );
}

/**
 * Counts the endpoints a project has in one environment, after locking the project row so that two
 * concurrent registrations cannot both pass a limit checked against this count.
 */
export async function countEndpointsLocked(tx: Executor, tenant: Tenant): Promise<number> {
  await tx.query('SELECT 1 FROM projects WHERE id = $1 FOR UPDATE', [tenant.projectId]);
  const rows = await tx.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM webhook_endpoints
      WHERE project_id = $1 AND environment = $2 AND deleted_at IS NULL`,
    [tenant.projectId, tenant.environment],
  );
  return rows[0]!.n;
}

/**
 * Queues one delivery of an event to one endpoint, due now, and marks the event fanned out so that no
 * other endpoint receives it (a test event the partner asked for). Runs in the event's transaction.
 */
export async function insertDirectDelivery(
  tx: Executor,
  input: { id: string; endpoint: EndpointRow; eventId: string; at: Date; retryUntil: Date },
): Promise<void> {
  const [event] = await tx.query<{ seq: bigint }>(
    'UPDATE events SET dispatched_at = $2 WHERE id = $1 RETURNING seq',
    [input.eventId, input.at],
  );
  await tx.query(
    `INSERT INTO webhook_deliveries (id, endpoint_id, project_id, environment, event_id, event_seq, resource_id,
                                     status, next_attempt_at, retry_until, manual, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $2, 'PENDING', $7, $8, true, $7, $7)`,
    [
      input.id,
      input.endpoint.id,
      input.endpoint.project_id,
      input.endpoint.environment,
      input.eventId,
      String(event!.seq),
      input.at,
      input.retryUntil,
    ],
  );
}
