/** The partner's business data: overview, customers, transactions and limit requests. */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../core/errors.ts';
import type { Environment, Tenant } from '../../lib/environment.ts';
import { createAssociatedPartyService } from '../../modules/associated-parties/service.ts';
import { createBankAccountService } from '../../modules/bank-accounts/service.ts';
import { verificationLinkMinter } from '../../modules/customers/link.ts';
import { createCustomerService } from '../../modules/customers/service.ts';
import { readUpload, registerUploads } from '../../modules/documents/multipart.ts';
import { createDocumentService } from '../../modules/documents/service.ts';
import { SUPPORTING_DOCUMENT_TYPES } from '../../modules/limit-requests/rules.ts';
import { createLimitRequestService } from '../../modules/limit-requests/service.ts';
import { holdReasons, holdReasonsOfCustomer } from '../../modules/screening/service.ts';
import { requestedMoney } from '../../modules/transactions/presenter.ts';
import { createTransactionService } from '../../modules/transactions/read-service.ts';
import { createBalanceService } from '../../modules/wallets/holdings.ts';
import { badge, csrfField, dateTime, type Html, html, idCell, notice, pager, table, when } from '../html.ts';
import { holdPanel, travelRulePanel } from '../screening-panels.ts';
import { checkCsrf } from '../session.ts';
import { transactionDetail } from '../transaction-detail.ts';
import {
  readTransactionFilter,
  type TransactionFilterInput,
  TransactionFilterQuery,
  transactionFilterFields,
} from '../transaction-search.ts';
import { customerInput, resolveCustomer } from './customer-lookup.ts';
import { EnvIdParams, EnvParams, tenantOf } from './frame.ts';
import { kybSections } from './kyb.ts';
import { pageOf, type Render } from './render.ts';

const amountOrDash = (value: string | null) => value ?? '—';

/** An AppError as one line: its message and each field's complaint. */
const problemText = (error: AppError) => {
  const details = (error.errors ?? []).map((e) => `${e.pointer.split('/').pop()}: ${e.message}`).join('; ');
  return `${error.message}${details ? ` (${details})` : ''}`;
};

/** The filter's fields as typed, to show back in a form whose filter was refused. */
const shownAsTyped = (query: TransactionFilterInput) => ({
  customerId: query.customerId?.trim() || undefined,
  status: query.status?.trim() || undefined,
  type: query.type?.trim() || undefined,
  currency: query.currency?.trim() || undefined,
  from: query.from?.trim() || undefined,
  to: query.to?.trim() || undefined,
});

export async function registerBusinessPages(app: FastifyInstance, ctx: AppContext, render: Render) {
  const customersFor = (environment: Environment) =>
    createCustomerService({ ...ctx, link: verificationLinkMinter(ctx, environment) });
  const transactions = createTransactionService(ctx);
  const limitRequests = createLimitRequestService(ctx);
  const bankAccounts = createBankAccountService(ctx);
  const balances = createBalanceService(ctx);
  const documents = createDocumentService(ctx);
  await registerUploads(app);

  /** Transaction rows, each with its customer's name (read once for the page). */
  const txRows = async (tenant: Tenant, list: Awaited<ReturnType<typeof transactions.list>>['data']) => {
    const env = tenant.environment;
    const names = await customersFor(env).names(
      tenant,
      list.map((tx) => tx.customerId),
    );
    return list.map(
      (tx) => html`<tr><td>${idCell(tx.id, `/${env}/transactions/${tx.id}`)}</td>
<td><a href="/${env}/customers/${tx.customerId}">${names.get(tx.customerId) ?? tx.customerId}</a></td><td>${tx.type}</td>
<td>${badge(tx.status)}</td><td>${requestedMoney(tx).currency} ${requestedMoney(tx).amount}</td><td>${dateTime(tx.createdAt)}</td></tr>`,
    );
  };
  const TX_COLUMNS = ['Transaction', 'Customer', 'Type', 'Status', 'Amount', 'Created'];

  // ---- Overview
  app.get('/', async (_request, reply) => reply.redirect('/sandbox', 303));
  app.get('/:env', { schema: { params: EnvParams } }, async (request, reply) => {
    const tenant = tenantOf(request);
    const env = tenant.environment;
    const first = { page: 1, limit: 5, offset: 0 };
    const [customers, recent, requests] = await Promise.all([
      customersFor(env).list(tenant, first),
      transactions.list(tenant, {}, first),
      limitRequests.listForTenant(tenant, first),
    ]);
    const recentRows = await txRows(tenant, recent.data);
    const body = html`<div class="grid">
<section class="panel"><h2>Customers</h2><p class="stat">${String(customers.pagination.total)}</p><a href="/${env}/customers">See customers</a></section>
<section class="panel"><h2>Transactions</h2><p class="stat">${String(recent.pagination.total)}</p><a href="/${env}/transactions">See transactions</a></section>
<section class="panel"><h2>Limit requests</h2><p class="stat">${String(requests.pagination.total)}</p><a href="/${env}/limit-requests">See limit requests</a></section>
</div>
<h2>Recent transactions</h2>
${table(TX_COLUMNS, recentRows, 'No transactions yet.')}`;
    return render(request, reply, 'Overview', body);
  });

  // ---- Customers
  app.get(
    '/:env/customers',
    {
      schema: {
        params: EnvParams,
        querystring: Type.Object({
          q: Type.Optional(Type.String({ maxLength: 200 })),
          page: Type.Optional(Type.String({ maxLength: 7 })),
        }),
      },
    },
    async (request, reply) => {
      const tenant = tenantOf(request);
      const env = tenant.environment;
      const { q, page: rawPage } = request.query as { q?: string; page?: string };
      const page = pageOf(rawPage);
      const service = customersFor(env);
      const result = q?.trim() ? await service.search(tenant, q, page) : await service.list(tenant, page);
      const body = html`<form class="panel formrow" method="get" action="/${env}/customers" role="search">
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
      return render(request, reply, 'Customers', body);
    },
  );

  app.get('/:env/customers/:id', { schema: { params: EnvIdParams } }, async (request, reply) => {
    const tenant = tenantOf(request);
    const env = tenant.environment;
    const id = (request.params as { id: string }).id;
    const customer = await customersFor(env).get(tenant, id, { includeTransactionLimits: true });
    const all = { page: 1, limit: 50, offset: 0 };
    const parties = createAssociatedPartyService({ ...ctx, link: verificationLinkMinter(ctx, env) });
    const [accounts, held, requests, recent, holds, partyPage, documentPage] = await Promise.all([
      bankAccounts.list(tenant, { customerId: id }, all),
      balances.get(tenant, id),
      limitRequests.list(tenant, id, { page: 1, limit: 10, offset: 0 }),
      transactions.list(tenant, { customerId: id }, { page: 1, limit: 10, offset: 0 }),
      holdReasonsOfCustomer(ctx.db, tenant, id),
      parties.list(tenant, id, all),
      documents.list(tenant, id, all),
    ]);
    const limits = customer.transactionLimits!;
    const body = html`${holdPanel(holds)}<div class="grid">
<section class="panel" aria-labelledby="profile"><h2 id="profile">Profile</h2><dl>
<dt>Name</dt><dd>${customer.name}</dd><dt>Type</dt><dd>${customer.type}</dd><dt>Tax id</dt><dd><code>${customer.taxId}</code></dd>
<dt>Country</dt><dd>${customer.country}</dd><dt>E-mail</dt><dd>${customer.email}</dd><dt>Created</dt><dd>${dateTime(customer.createdAt)}</dd><dt>Id</dt><dd><code>${customer.id}</code></dd></dl></section>
<section class="panel" aria-labelledby="verification"><h2 id="verification">Verification</h2><dl>
<dt>Status</dt><dd>${badge(customer.verification.status)}</dd><dt>Level</dt><dd>${customer.verification.level}</dd>
<dt>Link</dt><dd><a href="${customer.verification.link}">Hosted verification page</a></dd></dl></section>
<section class="panel" aria-labelledby="limits"><h2 id="limits">Limits in force (BRL)</h2><dl>
<dt>Single</dt><dd>${limits.single.max}</dd>
<dt>Daily</dt><dd>${limits.daily.used} used of ${limits.daily.max}</dd>
<dt>Monthly</dt><dd>${limits.monthly.used} used of ${limits.monthly.max}</dd></dl>
${when(request.session!.user.role === 'admin', () => html`<p><a href="/${env}/limit-requests/new?customerId=${id}">Request higher limits</a></p>`)}</section>
<section class="panel" aria-labelledby="balances"><h2 id="balances">Balances</h2><dl>
${held.balances.map((balance) => html`<dt>${balance.currency}</dt><dd>${balance.amount}</dd>`)}</dl></section>
</div>
${kybSections(env, customer, partyPage.data, documentPage.data)}
<h2>Bank accounts</h2>
${table(
  ['Name', 'PIX key', 'Holder', 'Holder check', 'Created'],
  accounts.data.map(
    (
      account,
    ) => html`<tr><td>${account.name}</td><td><code>${account.identifier.keyType} ${account.identifier.keyValue}</code></td>
<td>${account.holder.legalName} (${account.holder.relationship})</td><td>${badge(account.holder.verification.status)}</td><td>${dateTime(account.createdAt)}</td></tr>`,
  ),
  'No bank accounts.',
)}
<h2>Limit requests</h2>
${limitRequestTable(
  env,
  requests.data.map((r) => ({ ...r, customerName: customer.name })),
)}
<h2>Transactions</h2>
${table(TX_COLUMNS, await txRows(tenant, recent.data), 'No transactions.')}
${when(recent.pagination.hasNextPage, () => html`<p><a href="/${env}/transactions?customerId=${id}">All transactions of this customer</a></p>`)}`;
    return render(request, reply, customer.name, body);
  });

  // ---- Transactions
  app.get(
    '/:env/transactions',
    { schema: { params: EnvParams, querystring: Type.Object(TransactionFilterQuery) } },
    async (request, reply) => {
      const tenant = tenantOf(request);
      const env = tenant.environment;
      const query = request.query as TransactionFilterInput & { page?: string };
      const typed = query.customerId?.trim() ?? '';
      // A refused filter is shown in the form, with what was typed, above an empty list: not a dead end.
      let problem: AppError | undefined;
      let found: ReturnType<typeof readTransactionFilter> | undefined;
      try {
        const customerId = await resolveCustomer(customersFor(env).search, tenant, typed);
        found = readTransactionFilter({ ...query, customerId });
      } catch (error) {
        if (!(error instanceof AppError) || error.status >= 500) throw error;
        problem = error;
      }
      const shown = { ...(found?.shown ?? shownAsTyped(query)), customerId: typed || undefined };
      const result = found ? await transactions.list(tenant, found.filter, pageOf(query.page)) : undefined;
      const body = html`${notice(problem ? problemText(problem) : undefined, 'error')}
<form class="panel formrow" method="get" action="/${env}/transactions" role="search" aria-label="Filter transactions">
${transactionFilterFields(shown, html`<div class="field"><label for="customerId">Customer</label>${customerInput('customerId', typed)}</div>`)}
<div class="field"><button type="submit">Filter</button></div></form>
${table(TX_COLUMNS, result ? await txRows(tenant, result.data) : [], result ? 'No transactions match.' : 'Correct the filter to see transactions.')}
${result ? pager(`/${env}/transactions`, shown, result.pagination.page, result.pagination.hasNextPage) : html``}`;
      return render(request, reply, 'Transactions', body, problem?.status ?? 200);
    },
  );

  app.get('/:env/transactions/:id', { schema: { params: EnvIdParams } }, async (request, reply) => {
    const tenant = tenantOf(request);
    const tx = await transactions.get(tenant, (request.params as { id: string }).id);
    const detail = await transactionDetail(tx, {
      customer: html`<a href="/${tenant.environment}/customers/${tx.customerId}">${tx.customerId}</a>`,
      partnerFeeLabel: 'Your fee',
    });
    const body = html`${holdPanel(await holdReasons(ctx.db, tenant, [tx.id]))}${travelRulePanel(tx)}${detail}`;
    return render(request, reply, `Transaction ${tx.id.slice(0, 8)}`, body);
  });

  // ---- Limit requests
  type LimitRow = Awaited<ReturnType<typeof limitRequests.listForTenant>>['data'][number];
  function limitRequestTable(env: string, rows: LimitRow[]): Html {
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

  app.get(
    '/:env/limit-requests',
    {
      schema: {
        params: EnvParams,
        querystring: Type.Object({
          page: Type.Optional(Type.String({ maxLength: 7 })),
          done: Type.Optional(Type.String({ maxLength: 20 })),
        }),
      },
    },
    async (request, reply) => {
      const tenant = tenantOf(request);
      const env = tenant.environment;
      const query = request.query as { page?: string; done?: string };
      const result = await limitRequests.listForTenant(tenant, pageOf(query.page));
      const body = html`${notice(query.done === 'created' ? 'The request was sent for review.' : undefined)}
${when(request.session!.user.role === 'admin', () => html`<p><a class="button" href="/${env}/limit-requests/new">New limit request</a></p>`)}
${limitRequestTable(env, result.data)}
${pager(`/${env}/limit-requests`, {}, result.pagination.page, result.pagination.hasNextPage)}`;
      return render(request, reply, 'Limit requests', body);
    },
  );

  type RequestFormValues = { customerId: string; single?: string; daily?: string; monthly?: string };
  const newRequestForm = (
    env: string,
    csrf: string,
    values: RequestFormValues,
    message?: string,
  ) => html`${notice(message, 'error')}
<form class="panel" method="post" action="/${env}/limit-requests" enctype="multipart/form-data">${csrfField(csrf)}
<div class="field"><label for="customerId">Customer</label>${customerInput('customerId', values.customerId, { required: true })}</div>
<fieldset><legend>Requested limits in BRL <span class="hint">(at least one)</span></legend><div class="formrow">
<div class="field"><label for="single">Per transaction</label><input id="single" name="single" inputmode="decimal" placeholder="20000.00" value="${values.single ?? ''}"></div>
<div class="field"><label for="daily">Daily</label><input id="daily" name="daily" inputmode="decimal" value="${values.daily ?? ''}"></div>
<div class="field"><label for="monthly">Monthly</label><input id="monthly" name="monthly" inputmode="decimal" value="${values.monthly ?? ''}"></div></div></fieldset>
<div class="field"><label for="document">Bank statement <span class="hint">(optional; PDF, JPG or PNG, up to 3 MB${message ? '; choose it again' : ''})</span></label>
<input id="document" name="document" type="file" accept="application/pdf,image/jpeg,image/png"></div>
<button type="submit">Send for review</button></form>`;

  app.get(
    '/:env/limit-requests/new',
    {
      config: { access: 'admin' },
      schema: {
        params: EnvParams,
        querystring: Type.Object({ customerId: Type.Optional(Type.String({ maxLength: 64 })) }),
      },
    },
    async (request, reply) => {
      const tenant = tenantOf(request);
      const customerId = (request.query as { customerId?: string }).customerId ?? '';
      return render(
        request,
        reply,
        'New limit request',
        newRequestForm(tenant.environment, request.session!.csrfToken, { customerId }),
      );
    },
  );

  app.post(
    '/:env/limit-requests',
    { config: { access: 'admin', multipartCsrf: true }, schema: { params: EnvParams } },
    async (request, reply) => {
      const tenant = tenantOf(request);
      const upload = await readUpload(request, {
        files: [],
        optionalFiles: ['document'],
        fields: ['_csrf', 'customerId', 'single', 'daily', 'monthly'],
      });
      checkCsrf(request, upload.fields.get('_csrf'));
      const amount = (name: string) => upload.fields.get(name)?.trim() || undefined;
      const values: RequestFormValues = {
        customerId: upload.fields.get('customerId')?.trim() ?? '',
        single: amount('single'),
        daily: amount('daily'),
        monthly: amount('monthly'),
      };
      const file = upload.files.get('document');
      // Refused input is shown in the form, above what was typed (a file must be chosen again: browsers
      // never prefill a file input).
      const retry = (message: string, status = 400) =>
        render(
          request,
          reply,
          'New limit request',
          newRequestForm(tenant.environment, request.session!.csrfToken, values, message),
          status,
        );
      try {
        const customerId = await resolveCustomer(
          customersFor(tenant.environment).search,
          tenant,
          values.customerId,
        );
        if (!customerId)
          return retry('Choose the customer: its id, or a name, tax id or e-mail that finds it.');
        values.customerId = customerId;
        await documents.assertCustomer(tenant, customerId);
        const document = file
          ? await documents.upload(tenant, customerId, { type: SUPPORTING_DOCUMENT_TYPES[0], file })
          : undefined;
        await limitRequests.create(tenant, customerId, {
          requested: { single: values.single, daily: values.daily, monthly: values.monthly },
          ...(document
            ? { supportingDocumentType: SUPPORTING_DOCUMENT_TYPES[0], supportingDocumentId: document.id }
            : {}),
        });
      } catch (error) {
        if (!(error instanceof AppError) || error.status >= 500) throw error;
        return retry(problemText(error), error.status);
      }
      return reply.redirect(`/${tenant.environment}/limit-requests?done=created`, 303);
    },
  );
}
