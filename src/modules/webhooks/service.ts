import type { Config } from '../../config.ts';
import type { Clock } from '../../core/clock.ts';
import { AppError, invalidField, notFound } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { type PageRequest, type PageResult, pageResult } from '../../core/pagination.ts';
import { notifyWork } from '../../db/notify.ts';
import type { Database, Executor } from '../../db/types.ts';
import type { Tenant } from '../../lib/environment.ts';
import type { InstanceKeys } from '../../lib/instance-keys.ts';
import { encryptSecret } from '../../lib/sealed.ts';
import { type EventType, recordEvent } from '../events/outbox.ts';
import { type DeliveryView, type EndpointView, presentDelivery, presentEndpoint } from './presenter.ts';
import * as repo from './repo.ts';
import { DEFAULT_SECRET_OVERLAP_SECONDS } from './schema.ts';
import { newSigningSecret } from './secret.ts';
import {
  privateUrlsAllowed,
  type Resolver,
  resolveTarget,
  systemResolver,
  urlShapeProblem,
} from './url-safety.ts';

export type CreateEndpointInput = { url: string; events?: EventType[] | undefined };

export function createWebhookService(deps: {
  db: Database;
  clock: Clock;
  config: Config;
  instanceKeys: InstanceKeys;
  resolve?: Resolver;
}) {
  const { db, clock, config, instanceKeys } = deps;
  const resolve = deps.resolve ?? systemResolver;

  async function checkUrl(tenant: Tenant, raw: string): Promise<string> {
    const problem = urlShapeProblem(raw);
    if (problem) throw invalidField('/body/url', problem);
    const url = new URL(raw);
    if (!privateUrlsAllowed(tenant.environment, config.webhooks)) {
      let target: Awaited<ReturnType<typeof resolveTarget>>;
      try {
        target = await resolveTarget(url, false, resolve);
      } catch {
        throw new AppError('service_unavailable', 'The URL host could not be resolved right now; try again');
      }
      if (!target.ok) throw invalidField('/body/url', `must reach a public address: ${target.reason}`);
    }
    return url.href;
  }

  async function create(
    tenant: Tenant,
    input: CreateEndpointInput,
  ): Promise<EndpointView & { secret: string }> {
    const url = await checkUrl(tenant, input.url);
    const now = clock();
    const id = newId();
    const secret = newSigningSecret();
    const row: repo.EndpointRow = {
      id,
      project_id: tenant.projectId,
      environment: tenant.environment,
      url,
      event_types: input.events ? [...new Set(input.events)] : null,
      secret_ciphertext: encryptSecret(instanceKeys.encryption, secret, id),
      status: 'ENABLED',
      disabled_reason: null,
      failing_since: null,
      created_at: now,
      updated_at: now,
      previous_secret_ciphertext: null,
      previous_secret_expires_at: null,
    };
    const max = config.webhooks.maxEndpointsPerProject;
    return db.transaction(async (tx) => {
      if ((await repo.countEndpointsLocked(tx, tenant)) >= max) {
        throw new AppError(
          'limit_exceeded',
          `A project may register at most ${max} webhook endpoints per environment; delete one first`,
        );
      }
      await repo.insertEndpoint(tx, row);
      return { ...presentEndpoint(row), secret };
    });
  }

  async function get(tenant: Tenant, id: string): Promise<EndpointView> {
    const row = await repo.findEndpoint(db, tenant, id);
    if (!row) throw notFound('Webhook endpoint');
    return presentEndpoint(row);
  }

  async function list(tenant: Tenant, page: PageRequest): Promise<PageResult<EndpointView>> {
    const { rows, total } = await repo.listEndpoints(db, tenant, page);
    return pageResult(page, rows.map(presentEndpoint), total);
  }

  /** Deletes the endpoint; deliveries still waiting for it end as FAILED. */
  async function remove(tenant: Tenant, id: string): Promise<void> {
    await db.transaction(async (tx) => {
      const row = await repo.findEndpoint(tx, tenant, id, true);
      if (!row) throw notFound('Webhook endpoint');
      const now = clock();
      await repo.markEndpointDeleted(tx, id, now);
      await repo.failPendingDeliveries(tx, id, 'endpoint deleted', now);
    });
  }

  async function present(exec: Executor, rows: repo.DeliveryRow[]): Promise<DeliveryView[]> {
    const attempts = await repo.listAttempts(
      exec,
      rows.map((row) => row.id),
    );
    return rows.map((row) =>
      presentDelivery(
        row,
        attempts.filter((attempt) => attempt.delivery_id === row.id),
      ),
    );
  }

  async function listDeliveries(
    tenant: Tenant,
    endpointId: string,
    page: PageRequest,
    status?: repo.DeliveryStatus,
  ): Promise<PageResult<DeliveryView>> {
    // One snapshot: deliveries and their attempts as a dispatcher last left them together.
    return db.transaction(
      async (tx) => {
        if (!(await repo.findEndpoint(tx, tenant, endpointId))) throw notFound('Webhook endpoint');
        const { rows, total } = await repo.listDeliveries(tx, tenant, endpointId, status, page);
        return pageResult(page, await present(tx, rows), total);
      },
      { isolation: 'repeatable read' },
    );
  }

  /**
   * Makes a pending or failed delivery due now. A failed one gets a single further attempt (it goes out
   * even if the endpoint was disabled, and a success enables the endpoint again); a delivery being
   * attempted at this moment is left to that attempt.
   */
  async function retry(tenant: Tenant, endpointId: string, deliveryId: string): Promise<DeliveryView> {
    return db.transaction(async (tx) => {
      const endpoint = await repo.findEndpoint(tx, tenant, endpointId);
      if (!endpoint) throw notFound('Webhook endpoint');
      const delivery = await repo.findDelivery(tx, tenant, endpointId, deliveryId, true);
      if (!delivery) throw notFound('Delivery');
      if (delivery.status === 'DELIVERED') {
        throw new AppError(
          'invalid_state_transition',
          'This delivery has already succeeded; only pending or failed deliveries are retried',
        );
      }
      if (delivery.claim_token === null) {
        const now = clock();
        await repo.requeueDelivery(
          tx,
          delivery.id,
          now,
          delivery.status === 'FAILED'
            ? { retryUntil: now, manual: true }
            : { manual: endpoint.status === 'DISABLED' },
        );
        // due now: the dispatcher, perhaps asleep, is told when this commits
        await notifyWork(tx);
      }
      const fresh = await repo.findDelivery(tx, tenant, endpointId, deliveryId);
      return (await present(tx, [fresh!]))[0]!;
    });
  }

  /**
   * Gives the endpoint a new signing secret, shown once in the answer. The secret it replaces keeps
   * signing every delivery alongside the new one for `expiresInSeconds`, so the partner can deploy the
   * new secret before the old one stops verifying.
   */
  async function rotateSecret(
    tenant: Tenant,
    id: string,
    expiresInSeconds = DEFAULT_SECRET_OVERLAP_SECONDS,
  ): Promise<EndpointView & { secret: string }> {
    const secret = newSigningSecret();
    const ciphertext = encryptSecret(instanceKeys.encryption, secret, id);
    return db.transaction(async (tx) => {
      if (!(await repo.findEndpoint(tx, tenant, id, true))) throw notFound('Webhook endpoint');
      const now = clock();
      const row = await repo.rotateSecret(
        tx,
        id,
        ciphertext,
        new Date(now.getTime() + expiresInSeconds * 1000),
        now,
      );
      return { ...presentEndpoint(row), secret };
    });
  }

  /**
   * Sends a `webhook_endpoint.test` event to this endpoint only: a real event in the outbox, delivered,
   * signed and retried like any other (even while the endpoint is disabled, since the partner asked).
   */
  async function sendTest(tenant: Tenant, endpointId: string): Promise<DeliveryView> {
    return db.transaction(async (tx) => {
      const endpoint = await repo.findEndpoint(tx, tenant, endpointId);
      if (!endpoint) throw notFound('Webhook endpoint');
      const now = clock();
      const eventId = await recordEvent(tx, {
        tenant,
        type: 'webhook_endpoint.test',
        resourceType: 'webhook_endpoint',
        resourceId: endpoint.id,
        data: presentEndpoint(endpoint),
        at: now,
      });
      const id = newId();
      await repo.insertDirectDelivery(tx, {
        id,
        endpoint,
        eventId,
        at: now,
        retryUntil: new Date(now.getTime() + config.webhooks.retryHorizonMs),
      });
      const created = await repo.findDelivery(tx, tenant, endpointId, id);
      return (await present(tx, [created!]))[0]!;
    });
  }

  return { create, get, list, remove, listDeliveries, retry, sendTest, rotateSecret };
}
