/**
 * Transactions across every project: searched by id, project, environment, customer (its id, or a name,
 * tax id or e-mail, as on the dashboard), status, type, dates.
 */
import { Type } from 'typebox';
import type { AppContext } from '../../../context.ts';
import { AppError } from '../../../core/errors.ts';
import { ENVIRONMENTS } from '../../../lib/environment.ts';
import { type Html, html } from '../../../lib/html.ts';
import { searchCustomersAcross } from '../../../modules/customers/service.ts';
import { createProjectService } from '../../../modules/projects/service.ts';
import { requestedMoney } from '../../../modules/transactions/presenter.ts';
import { createTransactionService } from '../../../modules/transactions/read-service.ts';
import { badge, dateTime } from '../../kit/parts.ts';
import type { WebApp } from '../../kit/surface.ts';
import { pageOf, pager, table } from '../../kit/table.ts';
import { customerInput, resolveCustomer } from '../dashboard/customer-lookup.ts';
import {
  readTransactionFilter,
  type TransactionFilterInput,
  TransactionFilterQuery,
  transactionFilterFields,
} from '../shared/transaction-search.ts';
import { sendConsole } from './frame.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const schema = {
  querystring: Type.Object({
    ...TransactionFilterQuery,
    id: Type.Optional(Type.String({ maxLength: 64 })),
    projectId: Type.Optional(Type.String({ maxLength: 64 })),
    environment: Type.Optional(Type.String({ maxLength: 20 })),
  }),
};

type Query = TransactionFilterInput & {
  id?: string | undefined;
  projectId?: string | undefined;
  environment?: string | undefined;
  page?: string | undefined;
};

type Deps = {
  db: AppContext['db'];
  transactions: ReturnType<typeof createTransactionService>;
  projects: ReturnType<typeof createProjectService>;
};

/** The search a query asks for (unknown values refused with 400, naming each field), and its results. */
export async function load({ db, transactions, projects }: Deps, q: Query) {
  const errors: { pointer: string; message: string }[] = [];
  const uuid = (name: 'id' | 'projectId') => {
    const value = q[name]?.trim() || undefined;
    if (value && !UUID.test(value)) errors.push({ pointer: `/query/${name}`, message: 'is not an id' });
    return value;
  };
  const id = uuid('id');
  const projectId = uuid('projectId');
  const typedEnvironment = q.environment?.trim() || undefined;
  const environment = ENVIRONMENTS.find((name) => name === typedEnvironment);
  if (typedEnvironment && !environment)
    errors.push({ pointer: '/query/environment', message: 'must be sandbox or production' });
  if (errors.length > 0) throw new AppError('invalid_request', 'Some filters are invalid', { errors });
  // the customer as staff know it: its id, or a name, tax id or e-mail finding one (the dashboard's search),
  // among the customers of the project and environment chosen, or of every one
  const typed = q.customerId?.trim() ?? '';
  const customerId = await resolveCustomer(
    (scope, text, page) => searchCustomersAcross(db, scope, text, page),
    { projectId, environment },
    typed,
  );
  const { filter, shown: checked } = readTransactionFilter({ ...q, customerId });
  const shown = { ...checked, customerId: typed || undefined };
  const searched = Object.values({ id, projectId, environment, ...shown }).some(Boolean);
  const [result, all] = await Promise.all([
    searched ? transactions.search({ projectId, environment }, { ...filter, id }, pageOf(q.page)) : null,
    projects.listProjects(500, 0),
  ]);
  return { id, projectId, environment, shown, result, all };
}

export function view({
  id,
  projectId,
  environment,
  shown,
  result,
  all,
}: Awaited<ReturnType<typeof load>>): Html {
  const names = new Map(all.map((p) => [p.id, p.name]));
  return html`<form class="panel formrow" method="get" action="/console/transactions" role="search" aria-label="Search transactions">
<div class="field"><label for="id">Transaction id</label><input id="id" name="id" value="${id ?? ''}" placeholder="transaction UUID"></div>
<div class="field"><label for="projectId">Project</label><select id="projectId" name="projectId"><option value="">Any</option>${all.map((p) => html`<option value="${p.id}"${p.id === projectId ? html` selected` : html``}>${p.name}</option>`)}</select></div>
<div class="field"><label for="environment">Environment</label><select id="environment" name="environment"><option value="">Any</option>${ENVIRONMENTS.map((e) => html`<option value="${e}"${e === environment ? html` selected` : html``}>${e}</option>`)}</select></div>
${transactionFilterFields(shown, html`<div class="field"><label for="customerId">Customer</label>${customerInput('customerId', shown.customerId ?? '')}</div>`)}
<div class="field"><button type="submit">Search</button></div></form>
${
  result
    ? html`${table(
        ['Transaction', 'Project', 'Customer', 'Type', 'Status', 'Amount', 'Created'],
        result.data.map(
          ({
            transaction: t,
            projectId: owner,
            environment: env,
          }) => html`<tr><td><a href="/console/transactions/${t.id}"><code>${t.id}</code></a></td>
<td><a href="/console/projects/${owner}">${names.get(owner) ?? owner}</a><br><span class="hint">${env}</span></td>
<td><code>${t.customerId}</code></td><td>${t.type}</td><td>${badge(t.status)}</td>
<td>${requestedMoney(t).currency} ${requestedMoney(t).amount}</td><td>${dateTime(t.createdAt)}</td></tr>`,
        ),
        'No transactions match.',
      )}${pager('/console/transactions', { id, projectId, environment, ...shown }, result.pagination.page, result.pagination.hasNextPage)}`
    : html`<p class="empty">Search by transaction id, project, customer (a name, tax id, e-mail or id), status, type, currency or dates, across every project.</p>`
}`;
}

export function register(app: WebApp, ctx: AppContext) {
  const deps = {
    db: ctx.db,
    transactions: createTransactionService(ctx),
    projects: createProjectService(ctx),
  };
  app.get('/console/transactions', { schema }, async (request, reply) =>
    sendConsole(request, reply, 'Transactions', view(await load(deps, request.query))),
  );
}
