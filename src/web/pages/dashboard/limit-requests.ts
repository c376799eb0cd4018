/** The limit requests of an environment, newest first; admins start a new one from here. */
import { Type } from 'typebox';
import type { AppContext } from '../../../context.ts';
import type { Tenant } from '../../../lib/environment.ts';
import { type Html, html } from '../../../lib/html.ts';
import { createLimitRequestService } from '../../../modules/limit-requests/service.ts';
import type { Session } from '../../../modules/web-users/sessions.ts';
import { notice, when } from '../../kit/parts.ts';
import type { WebApp } from '../../kit/surface.ts';
import { pageOf, pager } from '../../kit/table.ts';
import { limitRequestTable } from './business.ts';
import { EnvParams, type Render, tenantOf } from './frame.ts';

export const schema = {
  params: EnvParams,
  querystring: Type.Object({
    page: Type.Optional(Type.String({ maxLength: 7 })),
    done: Type.Optional(Type.String({ maxLength: 20 })),
  }),
};

export async function load(
  limitRequests: ReturnType<typeof createLimitRequestService>,
  tenant: Tenant,
  page: string | undefined,
) {
  return { env: tenant.environment, result: await limitRequests.listForTenant(tenant, pageOf(page)) };
}

export function view(
  session: Session,
  done: string | undefined,
  { env, result }: Awaited<ReturnType<typeof load>>,
): Html {
  return html`${notice(done === 'created' ? 'The request was sent for review.' : undefined)}
${when(session.user.role === 'admin', () => html`<p><a class="button" href="/${env}/limit-requests/new">New limit request</a></p>`)}
${limitRequestTable(env, result.data)}
${pager(`/${env}/limit-requests`, {}, result.pagination.page, result.pagination.hasNextPage)}`;
}

export function register(app: WebApp, ctx: AppContext, render: Render) {
  const limitRequests = createLimitRequestService(ctx);
  app.get('/:env/limit-requests', { schema }, async (request, reply) => {
    const data = await load(limitRequests, tenantOf(request), request.query.page);
    return render(request, reply, 'Limit requests', view(request.session!, request.query.done, data));
  });
}
