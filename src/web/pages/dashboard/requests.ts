/**
 * The request log of an environment (developers and admins), filtered by status and path. A filter that
 * cannot be applied is refused in the page, next to the form as typed (as the transactions' filters are),
 * never ignored: a list that silently drops a filter misleads.
 */
import { Type } from 'typebox';
import type { AppContext } from '../../../context.ts';
import type { Tenant } from '../../../lib/environment.ts';
import { type Html, html } from '../../../lib/html.ts';
import { createRequestLogService } from '../../../modules/request-log/service.ts';
import { badge, dateTime, notice, when } from '../../kit/parts.ts';
import type { WebApp } from '../../kit/surface.ts';
import { pageOf, pager, table } from '../../kit/table.ts';
import { EnvParams, type Render, tenantOf } from './frame.ts';

export const schema = {
  params: EnvParams,
  querystring: Type.Object({
    // Bounded for the parser only: what the filter accepts is checked in `readFilter`, in the page.
    status: Type.Optional(Type.String({ maxLength: 2048 })),
    path: Type.Optional(Type.String({ maxLength: 2048 })),
    page: Type.Optional(Type.String({ maxLength: 7 })),
  }),
};

type Query = { status?: string | undefined; path?: string | undefined; page?: string | undefined };

const MAX_PATH_FILTER = 200;
const LISTED_CODES = ['400', '401', '404', '409', '422', '429', '500'];

/** The filter a query asks for, or the problems that keep it from being applied (each in people's words). */
export function readFilter(query: Query) {
  const problems: string[] = [];
  const typed = query.status?.trim() ?? '';
  let status: 'success' | 'failure' | number | undefined;
  if (typed === 'success' || typed === 'failure') status = typed;
  else if (/^[1-5]\d\d$/.test(typed)) status = Number(typed);
  else if (typed !== '')
    problems.push(
      `Status "${typed.slice(0, 40)}" is not one the log records: choose one from the list, or give an HTTP status from 100 to 599.`,
    );
  const path = query.path?.trim() || undefined;
  if (path !== undefined && path.length > MAX_PATH_FILTER)
    problems.push(`"Path contains" can be at most ${MAX_PATH_FILTER} characters; it has ${path.length}.`);
  return { filter: { status, path }, problems };
}

export async function load(
  requestLog: ReturnType<typeof createRequestLogService>,
  tenant: Tenant,
  query: Query,
) {
  const { filter, problems } = readFilter(query);
  const page = pageOf(query.page, 50);
  const entries = problems.length === 0 ? await requestLog.list(tenant, filter, page) : undefined;
  return { env: tenant.environment, query, problems, entries };
}

export function view({ env, query, problems, entries }: Awaited<ReturnType<typeof load>>): Html {
  const chosen = query.status?.trim() ?? '';
  const option = (value: string, label: string) =>
    html`<option value="${value}"${chosen === value ? html` selected` : html``}>${label}</option>`;
  const listed = ['', 'success', 'failure', ...LISTED_CODES];
  const statusInvalid = problems.length > 0 && chosen !== '' && !/^(success|failure|[1-5]\d\d)$/.test(chosen);
  return html`${notice(problems.length > 0 ? `The filter was not applied. ${problems.join(' ')}` : undefined, 'error')}
<form class="panel formrow" method="get" action="/${env}/requests" role="search" aria-label="Filter requests">
<div class="field"><label for="status">Status</label><select id="status" name="status"${statusInvalid ? html` aria-invalid="true"` : html``}>${option('', 'Any')}${option('success', 'Succeeded (2xx, 3xx)')}${option('failure', 'Failed (4xx, 5xx)')}
${LISTED_CODES.map((code) => option(code, code))}${when(!listed.includes(chosen), () => option(chosen, chosen.slice(0, 40)))}</select></div>
<div class="field"><label for="path">Path contains</label><input id="path" name="path" value="${query.path ?? ''}" placeholder="/customers"></div>
<div class="field"><button type="submit">Filter</button></div></form>
${when(!entries, () => html`<p class="empty">Correct the filter to see requests.</p>`)}
${when(entries, () => requestTable(env, query, entries!))}`;
}

function requestTable(
  env: string,
  query: Query,
  entries: Awaited<ReturnType<ReturnType<typeof createRequestLogService>['list']>>,
): Html {
  return html`${table(
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
  app.get('/:env/requests', { config: { access: 'developer' }, schema }, async (request, reply) => {
    const data = await load(requestLog, tenantOf(request), request.query);
    return render(request, reply, 'Request log', view(data), data.problems.length > 0 ? 400 : 200);
  });
}
