/** Reading the operators' audit log: who did what to which resource, and when. Newest first. */

import { type PageRequest, type PageResult, pageResult } from '../../core/pagination.ts';
import type { Executor } from '../../db/types.ts';
import * as repo from './repo.ts';

/** The stored actor label back as an id and a name (`operator:{id}:{name}`, or a bare name). */
export function parseActor(label: string): { id: string | null; name: string } {
  const match = /^operator:([0-9a-f-]{36}):([\s\S]*)$/.exec(label);
  return match ? { id: match[1]!, name: match[2]! } : { id: null, name: label };
}

export function presentAuditEntry(row: repo.AuditRow) {
  return {
    id: row.id,
    actor: parseActor(row.actor),
    action: row.action,
    resourceType: row.resource_type,
    resourceId: row.resource_id,
    before: row.before ?? null,
    after: row.after ?? null,
    createdAt: row.created_at.toISOString(),
  };
}

export type AuditEntryView = ReturnType<typeof presentAuditEntry>;

export async function listAuditLog(
  db: Executor,
  filter: repo.AuditFilter,
  page: PageRequest,
): Promise<PageResult<AuditEntryView>> {
  const { rows, total } = await repo.listAudit(db, filter, page.limit, page.offset);
  return pageResult(page, rows.map(presentAuditEntry), total);
}
