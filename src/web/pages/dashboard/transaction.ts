/** A transaction of the project: why it is held (if it is), its Travel Rule data, and its detail. */
import type { AppContext } from '../../../context.ts';
import type { Tenant } from '../../../lib/environment.ts';
import { type Html, html } from '../../../lib/html.ts';
import { quoteReference } from '../../../modules/pricing/service.ts';
import { holdReasons } from '../../../modules/screening/service.ts';
import { createTransactionService } from '../../../modules/transactions/read-service.ts';
import type { WebApp } from '../../kit/surface.ts';
import { holdPanel, travelRulePanel } from '../shared/screening-panels.ts';
import { transactionDetail } from '../shared/transaction-detail.ts';
import { customersFor } from './business.ts';
import { EnvIdParams, type Render, tenantOf } from './frame.ts';

export const schema = { params: EnvIdParams };

type Deps = { ctx: AppContext; transactions: ReturnType<typeof createTransactionService> };

export async function load({ ctx, transactions }: Deps, tenant: Tenant, id: string) {
  const tx = await transactions.get(tenant, id);
  const names = await customersFor(ctx, tenant.environment).names(tenant, [tx.customerId]);
  const name = names.get(tx.customerId);
  // The customer by name, linked to their page; the id beside it (what the API and support name).
  const customer = html`<a href="/${tenant.environment}/customers/${tx.customerId}">${name ?? tx.customerId}</a>${
    name ? html`<br><code class="hint">${tx.customerId}</code>` : html``
  }`;
  const detail = await transactionDetail(tx, {
    customer,
    partnerFeeLabel: 'Your fee',
    reference: await quoteReference(
      ctx.db,
      tenant,
      'exchangeRateId' in tx.request ? tx.request.exchangeRateId : null,
    ),
  });
  return { tx, detail, holds: await holdReasons(ctx.db, tenant, [tx.id]) };
}

export function view({ tx, detail, holds }: Awaited<ReturnType<typeof load>>): Html {
  return html`${holdPanel(holds)}${travelRulePanel(tx)}${detail}`;
}

export function register(app: WebApp, ctx: AppContext, render: Render) {
  const deps = { ctx, transactions: createTransactionService(ctx) };
  app.get('/:env/transactions/:id', { schema }, async (request, reply) => {
    const data = await load(deps, tenantOf(request), request.params.id);
    return render(request, reply, `Transaction ${data.tx.id.slice(0, 8)}`, view(data));
  });
}
