/** The request log of an environment (developers and admins), filtered by status and path. */
import { Type } from 'typebox';
import type { AppContext } from '../../../context.ts';
import type { Tenant } from '../../../lib/environment.ts';
import { type Html, html } from '../../../lib/html.ts';
import { createRequestLogService } from '../../../modules/request-log/service.ts';
import { badge, dateTime, when } from '../../kit/parts.ts';
import type { WebApp } from '../../kit/surface.ts';
import { pageOf, pager, table } from '../../kit/table.ts';
import { EnvParams, type Render, tenantOf } from './frame.ts';

export const schema = {
  params: EnvParams,
  querystring: Type.Object({
    status: Type.Optional(Type.String({ maxLength: 10 })),
    path: Type.Optional(Type.String({ maxLength: 200 })),
    page: Type.Optional(Type.String({ maxLength: 7 })),
  }),
};

type Query = { status?: string | undefined; path?: string | undefined; page?: string | undefined };

export async function load(
  requestLog: ReturnType<typeof createRequestLogService>,
  tenant: Tenant,
  query: Query,
) {
  const status =
    query.status === 'success' || query.status === 'failure'
      ? query.status
      : query.status && /^[1-5]\d\d$/.test(query.status)
        ? Number(query.status)
        : undefined;
  const page = pageOf(query.page, 50);
  const entries = await requestLog.list(tenant, { status, path: query.path?.trim() || undefined }, page);
  return { env: tenant.environment, query, entries };
}

export function view({ env, query, entries }: Awaited<ReturnType<typeof load>>): Html {
  const option = (value: string, label: string) =>
    html`<option value="${value}"${query.status === value ? html` selected` : html``}>${label}</option>`;
  return html`<form class="panel formrow" method="get" action="/${env}/requests" role="search">
<div class="field"><label for="status">Status</label><select id="status" name="status">${option('', 'Any')}${option('success', 'Succeeded (2xx, 3xx)')}${option('failure', 'Failed (4xx, 5xx)')}
${['400', '401', '404', '409', '422', '429', '500'].map((code) => option(code, code))}</select></div>
<div class="field"><label for="path">Path contains</label><input id="path" name="path" value="${query.path ?? ''}" placeholder="/customers"></div>
<div class="field"><button type="submit">Filter</button></div></form>
${table(
  ['Time', 'Request', 'Status', 'Latency', 'Request id'],
  entries.data.map(
    (
      entry,
    ) => html`<tr><td>${dateTime(entry.createdAt)}</td><td><a href="/${env}/requests/${entry.id}" aria-label="Details of ${entry.method} ${entry.path} at ${entry.createdAt}"><code>${entry.method} ${entry.path}</code></a>
${when(entry.problem, () => html`<details><summary>Error body</summary><pre class="mono">${JSON.stringify(entry.problem, null, 2)}</pre></details>`)}</td>
<td>${badge(entry.status >= 400 ? `${entry.status}` : `${entry.status}`)}</td><td>${String(entry.latencyMs)} ms</td><td><code>${entry.requestId}</code></td></tr>`,
  ),
  'No requests match.',
)}
${pager(`/${env}/requests`, { status: query.status, path: query.path }, entries.pagination.page, entries.pagination.hasNextPage)}`;
}

export function register(app: WebApp, ctx: AppContext, render: Render) {
  const requestLog = createRequestLogService(ctx);
  app.get('/:env/requests', { config: { access: 'developer' }, schema }, async (request, reply) =>
    render(request, reply, 'Request log', view(await load(requestLog, tenantOf(request), request.query))),
  );
}
