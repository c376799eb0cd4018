/** The overview of an environment: counts of customers, transactions and limit requests, and the latest. */
import type { AppContext } from '../../../context.ts';
import type { Tenant } from '../../../lib/environment.ts';
import { type Html, html } from '../../../lib/html.ts';
import { createLimitRequestService } from '../../../modules/limit-requests/service.ts';
import { createTransactionService } from '../../../modules/transactions/read-service.ts';
import type { WebApp } from '../../kit/surface.ts';
import { table } from '../../kit/table.ts';
import { customersFor, TX_COLUMNS, txRows } from './business.ts';
import { EnvParams, type Render, tenantOf } from './frame.ts';

export const schema = { params: EnvParams };

type Deps = {
  ctx: AppContext;
  transactions: ReturnType<typeof createTransactionService>;
  limitRequests: ReturnType<typeof createLimitRequestService>;
};

export async function load({ ctx, transactions, limitRequests }: Deps, tenant: Tenant) {
  const first = { page: 1, limit: 5, offset: 0 };
  const [customers, recent, requests] = await Promise.all([
    customersFor(ctx, tenant.environment).list(tenant, first),
    transactions.list(tenant, {}, first),
    limitRequests.listForTenant(tenant, first),
  ]);
  return {
    env: tenant.environment,
    customers: customers.pagination.total,
    transactions: recent.pagination.total,
    requests: requests.pagination.total,
    recentRows: await txRows(ctx, tenant, recent.data),
  };
}

export function view(data: Awaited<ReturnType<typeof load>>): Html {
  const { env } = data;
  return html`<div class="grid">
<section class="panel"><h2>Customers</h2><p class="stat">${String(data.customers)}</p><a href="/${env}/customers">See customers</a></section>
<section class="panel"><h2>Transactions</h2><p class="stat">${String(data.transactions)}</p><a href="/${env}/transactions">See transactions</a></section>
<section class="panel"><h2>Limit requests</h2><p class="stat">${String(data.requests)}</p><a href="/${env}/limit-requests">See limit requests</a></section>
</div>
<h2>Recent transactions</h2>
${table(TX_COLUMNS, data.recentRows, 'No transactions yet.')}`;
}

export function register(app: WebApp, ctx: AppContext, render: Render) {
  const deps = {
    ctx,
    transactions: createTransactionService(ctx),
    limitRequests: createLimitRequestService(ctx),
  };
  app.get('/', async (_request, reply) => reply.redirect('/sandbox', 303));
  app.get('/:env', { schema }, async (request, reply) =>
    render(request, reply, 'Overview', view(await load(deps, tenantOf(request)))),
  );
}
