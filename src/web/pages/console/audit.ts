/** The audit log: every recorded change, filtered by action and resource. */
import { Type } from 'typebox';
import type { AppContext } from '../../../context.ts';
import { type Html, html } from '../../../lib/html.ts';
import { listAuditLog } from '../../../modules/operators/audit-log.ts';
import { dateTime, when } from '../../kit/parts.ts';
import type { WebApp } from '../../kit/surface.ts';
import { pageOf, pager, table } from '../../kit/table.ts';
import { sendConsole } from './frame.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const schema = {
  querystring: Type.Object({
    action: Type.Optional(Type.String({ maxLength: 100 })),
    resourceId: Type.Optional(Type.String({ maxLength: 64 })),
    page: Type.Optional(Type.String({ maxLength: 7 })),
  }),
};

type Query = { action?: string | undefined; resourceId?: string | undefined; page?: string | undefined };

export async function load(ctx: AppContext, q: Query) {
  const action = q.action?.trim() || undefined;
  const resourceId = q.resourceId?.trim() && UUID.test(q.resourceId.trim()) ? q.resourceId.trim() : undefined;
  const entries = await listAuditLog(ctx.db, { action, resourceId }, pageOf(q.page, 50));
  return { action, resourceId, entries };
}

export function view({ action, resourceId, entries }: Awaited<ReturnType<typeof load>>): Html {
  return html`<form class="panel formrow" method="get" action="/console/audit" role="search">
<div class="field"><label for="action">Action</label><input id="action" name="action" value="${action ?? ''}" placeholder="limit_request.reviewed"></div>
<div class="field"><label for="resourceId">Resource id</label><input id="resourceId" name="resourceId" value="${resourceId ?? ''}"></div>
<div class="field"><button type="submit">Filter</button></div></form>
${table(
  ['When', 'Who', 'Action', 'Resource', 'Change'],
  entries.data.map(
    (e) => html`<tr><td>${dateTime(e.createdAt)}</td><td>${e.actor.name}</td><td><code>${e.action}</code></td>
<td>${e.resourceType}<br><code>${e.resourceId ?? ''}</code></td>
<td>${when(e.after ?? e.before, () => html`<details><summary>Details</summary><pre class="mono">${JSON.stringify({ before: e.before, after: e.after }, null, 2)}</pre></details>`)}</td></tr>`,
  ),
  'No entries.',
)}${pager('/console/audit', { action, resourceId }, entries.pagination.page, entries.pagination.hasNextPage)}`;
}

export function register(app: WebApp, ctx: AppContext) {
  app.get('/console/audit', { schema }, async (request, reply) =>
    sendConsole(request, reply, 'Audit log', view(await load(ctx, request.query))),
  );
}
