/**
 * The events of a project environment, read back: the outbox the webhooks deliver from, so that a
 * partner can recover events its endpoint missed, with the same bodies.
 */
import { notFound } from '../../core/errors.ts';
import { type PageRequest, type PageResult, pageResult } from '../../core/pagination.ts';
import type { Database } from '../../db/types.ts';
import type { Tenant } from '../../lib/environment.ts';
import { type EventView, presentEvent } from './presenter.ts';
import * as repo from './repo.ts';

export function createEventService(deps: { db: Database }) {
  const { db } = deps;

  async function get(tenant: Tenant, id: string): Promise<EventView> {
    const row = await repo.findEvent(db, tenant, id);
    if (!row) throw notFound('Event');
    return presentEvent(row);
  }

  async function list(
    tenant: Tenant,
    type: string | undefined,
    page: PageRequest,
  ): Promise<PageResult<EventView>> {
    const { rows, total } = await repo.listEvents(db, tenant, type, page);
    return pageResult(page, rows.map(presentEvent), total, (event) => ({
      createdAt: new Date(event.createdAt),
      id: event.eventId,
    }));
  }

  return { get, list };
}
