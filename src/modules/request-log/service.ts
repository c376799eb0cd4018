/** The partner's view of the request log, and its retention job. */
import type { Clock } from '../../core/clock.ts';
import { notFound } from '../../core/errors.ts';
import { type PageRequest, type PageResult, pageResult } from '../../core/pagination.ts';
import type { Database } from '../../db/types.ts';
import type { Tenant } from '../../lib/environment.ts';
import * as repo from './repo.ts';

export type RequestLogView = {
  id: string;
  method: string;
  path: string;
  status: number;
  latencyMs: number;
  requestId: string;
  problem: unknown;
  createdAt: string;
};

/** One entry in full: the key that made it, its idempotency key, and its bodies as redacted when written. */
export type RequestLogDetail = RequestLogView & {
  apiKey: { id: string; prefix: string | null; name: string | null } | null;
  idempotencyKey: string | null;
  requestBody: string | null;
  responseBody: string | null;
};

const present = (row: repo.RequestLogRow): RequestLogView => ({
  id: row.id,
  method: row.method,
  path: row.path,
  status: row.status,
  latencyMs: row.latency_ms,
  requestId: row.request_id,
  problem: row.problem ?? null,
  createdAt: row.created_at.toISOString(),
});

export function createRequestLogService(deps: { db: Database }) {
  async function list(
    tenant: Tenant,
    filter: repo.RequestLogFilter,
    page: PageRequest,
  ): Promise<PageResult<RequestLogView>> {
    const { rows, total } = await repo.listEntries(deps.db, tenant, filter, page.limit, page.offset);
    return pageResult(page, rows.map(present), total);
  }

  /** One entry of the tenant; another project's or environment's answers not found. */
  async function get(tenant: Tenant, id: string): Promise<RequestLogDetail> {
    const row = await repo.findEntry(deps.db, tenant, id);
    if (!row) throw notFound('Request log entry');
    return {
      ...present(row),
      apiKey: row.api_key_id
        ? { id: row.api_key_id, prefix: row.api_key_prefix, name: row.api_key_name }
        : null,
      idempotencyKey: row.idempotency_key,
      requestBody: row.request_body,
      responseBody: row.response_body,
    };
  }
  return { list, get };
}

/** Deletes entries past the retention period, a batch per call; safe on several processes at once. */
export function pruneRequestLog(db: Database, clock: Clock, retentionMs: number): Promise<number> {
  return repo.deleteOlderThan(db, new Date(clock().getTime() - retentionMs), 5_000);
}
