/** The transactions of an environment, filtered; a refused filter is shown in the form, not a dead end. */
import { Type } from 'typebox';
import type { AppContext } from '../../../context.ts';
import { AppError } from '../../../core/errors.ts';
import type { Tenant } from '../../../lib/environment.ts';
import { type Html, html } from '../../../lib/html.ts';
import { createTransactionService } from '../../../modules/transactions/read-service.ts';
import { notice } from '../../kit/parts.ts';
import type { WebApp } from '../../kit/surface.ts';
import { pageOf, pager, table } from '../../kit/table.ts';
import {
  readTransactionFilter,
  type TransactionFilterInput,
  TransactionFilterQuery,
  transactionFilterFields,
} from '../shared/transaction-search.ts';
import { customersFor, problemText, TX_COLUMNS, txRows } from './business.ts';
import { customerInput, resolveCustomer } from './customer-lookup.ts';
import { EnvParams, type Render, tenantOf } from './frame.ts';

export const schema = { params: EnvParams, querystring: Type.Object(TransactionFilterQuery) };

/** The filter's fields as typed, to show back in a form whose filter was refused. */
const shownAsTyped = (query: TransactionFilterInput) => ({
  customerId: query.customerId?.trim() || undefined,
  status: query.status?.trim() || undefined,
  type: query.type?.trim() || undefined,
  currency: query.currency?.trim() || undefined,
  from: query.from?.trim() || undefined,
  to: query.to?.trim() || undefined,
});

type Deps = { ctx: AppContext; transactions: ReturnType<typeof createTransactionService> };

export async function load(
  { ctx, transactions }: Deps,
  tenant: Tenant,
  query: TransactionFilterInput & { page?: string | undefined },
) {
  const typed = query.customerId?.trim() ?? '';
  let problem: AppError | undefined;
  let found: ReturnType<typeof readTransactionFilter> | undefined;
  try {
    const customerId = await resolveCustomer(customersFor(ctx, tenant.environment).search, tenant, typed);
    found = readTransactionFilter({ ...query, customerId });
  } catch (error) {
    if (!(error instanceof AppError) || error.status >= 500) throw error;
    problem = error;
  }
  const shown = { ...(found?.shown ?? shownAsTyped(query)), customerId: typed || undefined };
  const result = found ? await transactions.list(tenant, found.filter, pageOf(query.page)) : undefined;
  const rows = result ? await txRows(ctx, tenant, result.data) : [];
  return { env: tenant.environment, typed, problem, shown, result, rows };
}

export function view({ env, typed, problem, shown, result, rows }: Awaited<ReturnType<typeof load>>): Html {
  return html`${notice(problem ? problemText(problem) : undefined, 'error')}
<form class="panel formrow" method="get" action="/${env}/transactions" role="search" aria-label="Filter transactions">
${transactionFilterFields(shown, html`<div class="field"><label for="customerId">Customer</label>${customerInput('customerId', typed)}</div>`)}
<div class="field"><button type="submit">Filter</button></div></form>
${table(TX_COLUMNS, rows, result ? 'No transactions match.' : 'Correct the filter to see transactions.')}
${result ? pager(`/${env}/transactions`, shown, result.pagination.page, result.pagination.hasNextPage) : html``}`;
}

export function register(app: WebApp, ctx: AppContext, render: Render) {
  const deps = { ctx, transactions: createTransactionService(ctx) };
  app.get('/:env/transactions', { schema }, async (request, reply) => {
    const data = await load(deps, tenantOf(request), request.query);
    return render(request, reply, 'Transactions', view(data), data.problem?.status ?? 200);
  });
}
