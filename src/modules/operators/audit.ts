/** The operators' audit log: who did what to which resource, written in the transaction of the change. */

import type { Actor } from '../../core/actor.ts';
import { newId } from '../../core/ids.ts';
import type { Executor } from '../../db/types.ts';
import * as repo from './repo.ts';

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
  await repo.insertAudit(db, {
    id: newId(),
    actor: actorLabel(entry.actor),
    action: entry.action,
    resource_type: entry.resourceType,
    resource_id: entry.resourceId,
    before: entry.before === undefined ? null : JSON.stringify(entry.before),
    after: entry.after === undefined ? null : JSON.stringify(entry.after),
    created_at: entry.at,
  });
}
