/** The customers of an environment, searched by name, tax id or e-mail. */
import { Type } from 'typebox';
import type { AppContext } from '../../../context.ts';
import type { Tenant } from '../../../lib/environment.ts';
import { type Html, html } from '../../../lib/html.ts';
import { badge, dateTime } from '../../kit/parts.ts';
import type { WebApp } from '../../kit/surface.ts';
import { pageOf, pager, table } from '../../kit/table.ts';
import { customersFor } from './business.ts';
import { EnvParams, type Render, tenantOf } from './frame.ts';

export const schema = {
  params: EnvParams,
  querystring: Type.Object({
    q: Type.Optional(Type.String({ maxLength: 200 })),
    page: Type.Optional(Type.String({ maxLength: 7 })),
  }),
};

export async function load(
  ctx: AppContext,
  tenant: Tenant,
  q: string | undefined,
  rawPage: string | undefined,
) {
  const page = pageOf(rawPage);
  const service = customersFor(ctx, tenant.environment);
  const result = q?.trim() ? await service.search(tenant, q, page) : await service.list(tenant, page);
  return { env: tenant.environment, q, result };
}

export function view({ env, q, result }: Awaited<ReturnType<typeof load>>): Html {
  return html`<form class="panel formrow" method="get" action="/${env}/customers" role="search">
<div class="field"><label for="q">Search by name, taxId or e-mail</label><input id="q" name="q" type="search" value="${q ?? ''}"></div>
<div class="field"><button type="submit">Search</button></div></form>
${table(
  ['Name', 'Type', 'Tax id', 'E-mail', 'Verification', 'Created'],
  result.data.map(
    (
      customer,
    ) => html`<tr><td><a href="/${env}/customers/${customer.id}">${customer.name}</a></td><td>${customer.type}</td>
<td><code>${customer.taxId}</code></td><td>${customer.email}</td><td>${badge(customer.verification.status)}</td><td>${dateTime(customer.createdAt)}</td></tr>`,
  ),
  q ? 'No customer matches.' : `No ${env} customers yet.`,
)}
${pager(`/${env}/customers`, { q }, result.pagination.page, result.pagination.hasNextPage)}`;
}

export function register(app: WebApp, ctx: AppContext, render: Render) {
  app.get('/:env/customers', { schema }, async (request, reply) => {
    const { q, page } = request.query;
    return render(request, reply, 'Customers', view(await load(ctx, tenantOf(request), q, page)));
  });
}
