/** The partner's view of the request log, and its retention job. */
import type { Clock } from '../../core/clock.ts';
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
  return { list };
}

/** Deletes entries past the retention period, a batch per call; safe on several processes at once. */
export function pruneRequestLog(db: Database, clock: Clock, retentionMs: number): Promise<number> {
  return repo.deleteOlderThan(db, new Date(clock().getTime() - retentionMs), 5_000);
}
