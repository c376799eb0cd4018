/** What the pages of the partner's business data share: the customer service of an environment, and rows. */
import type { AppContext } from '../../../context.ts';
import type { AppError } from '../../../core/errors.ts';
import type { Environment, Tenant } from '../../../lib/environment.ts';
import { type Html, html } from '../../../lib/html.ts';
import { verificationLinkMinter } from '../../../modules/customers/link.ts';
import { createCustomerService } from '../../../modules/customers/service.ts';
import type { createLimitRequestService } from '../../../modules/limit-requests/service.ts';
import { requestedMoney } from '../../../modules/transactions/presenter.ts';
import type { TransactionService } from '../../../modules/transactions/read-service.ts';
import { badge, dateTime, idCell, when } from '../../kit/parts.ts';
import { table } from '../../kit/table.ts';

/** The customer service of one environment (its verification links point at that environment's page). */
export const customersFor = (ctx: AppContext, environment: Environment) =>
  createCustomerService({ ...ctx, link: verificationLinkMinter(ctx, environment) });

const amountOrDash = (value: string | null) => value ?? '—';

/** An AppError as one line: its message and each field's complaint. */
export const problemText = (error: AppError) => {
  const details = (error.errors ?? []).map((e) => `${e.pointer.split('/').pop()}: ${e.message}`).join('; ');
  return `${error.message}${details ? ` (${details})` : ''}`;
};

export const TX_COLUMNS = ['Transaction', 'Customer', 'Type', 'Status', 'Amount', 'Created'];

type TransactionRow = Awaited<ReturnType<TransactionService['list']>>['data'][number];

/** Transaction rows, each with its customer's name (read once for the page). */
export async function txRows(ctx: AppContext, tenant: Tenant, list: TransactionRow[]): Promise<Html[]> {
  const env = tenant.environment;
  const names = await customersFor(ctx, env).names(
    tenant,
    list.map((tx) => tx.customerId),
  );
  return list.map(
    (tx) => html`<tr><td>${idCell(tx.id, `/${env}/transactions/${tx.id}`)}</td>
<td><a href="/${env}/customers/${tx.customerId}">${names.get(tx.customerId) ?? tx.customerId}</a></td><td>${tx.type}</td>
<td>${badge(tx.status)}</td><td>${requestedMoney(tx).currency} ${requestedMoney(tx).amount}</td><td>${dateTime(tx.createdAt)}</td></tr>`,
  );
}

type LimitRow = Awaited<
  ReturnType<ReturnType<typeof createLimitRequestService>['listForTenant']>
>['data'][number];

export function limitRequestTable(env: string, rows: LimitRow[]): Html {
  return table(
    ['Customer', 'Requested (single / daily / monthly)', 'Approved', 'Status', 'Created'],
    rows.map(
      (r) => html`<tr><td><a href="/${env}/customers/${r.customerId}">${r.customerName}</a></td>
<td>${amountOrDash(r.requested.single)} / ${amountOrDash(r.requested.daily)} / ${amountOrDash(r.requested.monthly)}</td>
<td>${amountOrDash(r.approved.single)} / ${amountOrDash(r.approved.daily)} / ${amountOrDash(r.approved.monthly)}${when(r.reviewComment, () => html`<br><span class="hint">${r.reviewComment!}</span>`)}</td>
<td>${badge(r.status)}</td><td>${dateTime(r.createdAt)}</td></tr>`,
    ),
    'No limit requests.',
  );
}
