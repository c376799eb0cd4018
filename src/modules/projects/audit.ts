/** The operators' audit log: who did what to which resource, written in the transaction of the change. */

import type { Actor } from '../../core/actor.ts';
import { newId } from '../../core/ids.ts';
import type { Executor } from '../../db/types.ts';

export type { Actor };

export type AuditEntry = {
  actor: Actor;
  action: string;
  resourceType: string;
  resourceId: string | null;
  before?: unknown;
  after?: unknown;
  at: Date;
};

export const actorLabel = (actor: Actor) => (actor.id ? `operator:${actor.id}:${actor.name}` : actor.name);

export async function recordAudit(db: Executor, entry: AuditEntry): Promise<void> {
  await db.query(
    `INSERT INTO audit_log (id, actor, action, resource_type, resource_id, before, after, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      newId(),
      actorLabel(entry.actor),
      entry.action,
      entry.resourceType,
      entry.resourceId,
      entry.before === undefined ? null : JSON.stringify(entry.before),
      entry.after === undefined ? null : JSON.stringify(entry.after),
      entry.at,
    ],
  );
}
