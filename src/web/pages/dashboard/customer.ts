/** A customer: profile, verification, limits in force, balances, KYB, bank accounts, requests, transactions. */
import type { AppContext } from '../../../context.ts';
import type { Environment, Tenant } from '../../../lib/environment.ts';
import { type Html, html } from '../../../lib/html.ts';
import { accountNumbersFor } from '../../../modules/accounts/numbers.ts';
import type { AccountView } from '../../../modules/accounts/presenter.ts';
import { createAccountService } from '../../../modules/accounts/service.ts';
import { createAssociatedPartyService } from '../../../modules/associated-parties/service.ts';
import { createBankAccountService } from '../../../modules/bank-accounts/service.ts';
import { verificationLinkMinter } from '../../../modules/customers/link.ts';
import { createDocumentService } from '../../../modules/documents/service.ts';
import { createLimitRequestService } from '../../../modules/limit-requests/service.ts';
import { holdReasonsOfCustomer } from '../../../modules/screening/service.ts';
import { createTransactionService } from '../../../modules/transactions/read-service.ts';
import { ownershipTree } from '../../../modules/verification-review/ownership-tree.ts';
import { createBalanceService } from '../../../modules/wallets/holdings.ts';
import type { Session } from '../../../modules/web-users/sessions.ts';
import { badge, dateTime, emailIdent, when } from '../../kit/parts.ts';
import type { WebApp } from '../../kit/surface.ts';
import { table } from '../../kit/table.ts';
import { accountIdentifier, IDENTIFIER_LABEL } from '../shared/bank-account.ts';
import { holdPanel } from '../shared/screening-panels.ts';
import { customersFor, limitRequestTable, TX_COLUMNS, txRows } from './business.ts';
import { EnvIdParams, type Render, tenantOf } from './frame.ts';
import { kybSections } from './kyb.ts';

export const schema = { params: EnvIdParams };

type Deps = {
  ctx: AppContext;
  transactions: ReturnType<typeof createTransactionService>;
  limitRequests: ReturnType<typeof createLimitRequestService>;
  bankAccounts: ReturnType<typeof createBankAccountService>;
  balances: ReturnType<typeof createBalanceService>;
  documents: ReturnType<typeof createDocumentService>;
  usdAccounts: Record<Environment, ReturnType<typeof createAccountService>>;
};

export async function load(deps: Deps, tenant: Tenant, id: string) {
  const { ctx } = deps;
  const env = tenant.environment;
  const customer = await customersFor(ctx, env).get(tenant, id, { includeTransactionLimits: true });
  const all = { page: 1, limit: 50, offset: 0 };
  const parties = createAssociatedPartyService({ ...ctx, link: verificationLinkMinter(ctx, env) });
  const [accounts, usd, held, requests, recent, holds, partyPage, documentPage] = await Promise.all([
    deps.bankAccounts.list(tenant, { customerId: id }, all),
    deps.usdAccounts[env].listForCustomer(tenant, id, all),
    deps.balances.get(tenant, id),
    deps.limitRequests.list(tenant, id, { page: 1, limit: 10, offset: 0 }),
    deps.transactions.list(tenant, { customerId: id }, { page: 1, limit: 10, offset: 0 }),
    holdReasonsOfCustomer(ctx.db, tenant, id),
    parties.list(tenant, id, all),
    deps.documents.list(tenant, id, all),
  ]);
  const recentRows = await txRows(ctx, tenant, recent.data);
  const tree = customer.type === 'BUSINESS' ? await ownershipTree(ctx.db, tenant, id, []) : [];
  return {
    env,
    id,
    customer,
    accounts,
    usd,
    held,
    requests,
    recent,
    recentRows,
    holds,
    partyPage,
    tree,
    documentPage,
  };
}

/** A field of deposit instructions the customer copies into their bank's transfer form. */
function copyable(accountId: string, field: string, label: string, value: string): Html {
  const id = `usd-${accountId}-${field}`;
  return html`<dt>${label}</dt><dd><span class="idcell"><code id="${id}" data-field="${field}">${value}</code><button type="button" class="copy secondary" data-copy="${id}" aria-label="Copy ${label.toLowerCase()}">Copy</button></span></dd>`;
}

/** A USD account: its status, what its deposits convert to, and the instructions to pay into it by ACH or wire. */
function usdAccount(account: AccountView): Html {
  const d = account.depositInstructions;
  return html`<section class="panel" aria-label="USD account ${account.id}" data-account="${account.id}"><dl>
<dt>Status</dt><dd>${badge(account.status)}</dd>
<dt>Converts to</dt><dd>${account.destinationCurrency} on ${account.blockchain}</dd>
${
  d
    ? html`<dt>Rails</dt><dd data-field="rails">${d.rails.join(', ')}</dd>
${copyable(account.id, 'routing-number', 'Routing number', d.routingNumber)}
${copyable(account.id, 'account-number', 'Account number', d.accountNumber)}
${copyable(account.id, 'beneficiary', 'Beneficiary', d.beneficiaryName)}
${copyable(account.id, 'bank-name', 'Bank name', d.bankName)}
${when(d.bankAddress, () => html`<dt>Bank address</dt><dd>${d.bankAddress ?? ''}</dd>`)}`
    : html`<dt>Deposit instructions</dt><dd>${account.status === 'CLOSED' ? 'The account is closed.' : 'Not yet: the bank has not opened the account number.'}</dd>`
}
<dt>Created</dt><dd>${dateTime(account.createdAt)}</dd>
<dt>Id</dt><dd><code>${account.id}</code></dd></dl></section>`;
}

export function view(session: Session, data: Awaited<ReturnType<typeof load>>): Html {
  const {
    env,
    id,
    customer,
    accounts,
    usd,
    held,
    requests,
    recent,
    recentRows,
    holds,
    partyPage,
    tree,
    documentPage,
  } = data;
  const limits = customer.transactionLimits!;
  const fact = (term: string, value: Html | string) => html`<div><dt>${term}</dt><dd>${value}</dd></div>`;
  // The profile takes a row of its own, its facts side by side in columns wide enough for a tax id, an
  // e-mail address and an id on one line each (at a phone's width, one column).
  return html`${holdPanel(holds)}
<section class="panel" aria-labelledby="profile"><h2 id="profile">Profile</h2><dl class="facts">
${fact('Name', customer.name)}${fact('Type', customer.type)}${fact('Tax id', html`<code class="ident" data-ident="taxId">${customer.taxId}</code>`)}
${fact('Country', customer.country)}${fact('E-mail', emailIdent(customer.email))}${fact('Created', dateTime(customer.createdAt))}
${fact('Id', html`<code class="ident" data-ident="id">${customer.id}</code>`)}</dl></section>
<div class="grid">
<section class="panel" aria-labelledby="verification"><h2 id="verification">Verification</h2><dl>
<dt>Status</dt><dd>${badge(customer.verification.status)}</dd><dt>Level</dt><dd>${customer.verification.level}</dd>
<dt>Link</dt><dd><a href="${customer.verification.link}">Hosted verification page</a></dd></dl></section>
<section class="panel" aria-labelledby="limits"><h2 id="limits">Limits in force (BRL)</h2><dl>
<dt>Single</dt><dd>${limits.single.max}</dd>
<dt>Daily</dt><dd>${limits.daily.used} used of ${limits.daily.max}</dd>
<dt>Monthly</dt><dd>${limits.monthly.used} used of ${limits.monthly.max}</dd></dl>
${when(session.user.role === 'admin', () => html`<p><a href="/${env}/limit-requests/new?customerId=${id}">Request higher limits</a></p>`)}</section>
<section class="panel" aria-labelledby="balances"><h2 id="balances">Balances</h2><dl>
${held.balances.map((balance) => html`<dt>${balance.currency}</dt><dd>${balance.amount}</dd>`)}</dl></section>
</div>
${kybSections(env, customer, partyPage.data, tree, documentPage.data)}
<h2 id="usd-accounts">USD accounts</h2>
${usd.data.length === 0 ? html`<p class="empty">No USD accounts.</p>` : usd.data.map(usdAccount)}
<h2>Bank accounts</h2>
${table(
  ['Name', IDENTIFIER_LABEL, 'Holder', 'Holder check', 'Created'],
  accounts.data.map(
    (account) => html`<tr><td>${account.name}</td><td>${accountIdentifier(account)}</td>
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
${table(TX_COLUMNS, recentRows, 'No transactions.')}
${when(recent.pagination.hasNextPage, () => html`<p><a href="/${env}/transactions?customerId=${id}">All transactions of this customer</a></p>`)}`;
}

export function register(app: WebApp, ctx: AppContext, render: Render) {
  const deps = {
    ctx,
    transactions: createTransactionService(ctx),
    limitRequests: createLimitRequestService(ctx),
    bankAccounts: createBankAccountService(ctx),
    balances: createBalanceService(ctx),
    documents: createDocumentService(ctx),
    // listing reads the database only; the bank's numbers are for opening and closing accounts
    usdAccounts: {
      sandbox: createAccountService({ ...ctx, numbers: accountNumbersFor(ctx.config, 'sandbox') }),
      production: createAccountService({ ...ctx, numbers: accountNumbersFor(ctx.config, 'production') }),
    },
  };
  app.get('/:env/customers/:id', { schema }, async (request, reply) => {
    const data = await load(deps, tenantOf(request), request.params.id);
    return render(request, reply, data.customer.name, view(request.session!, data));
  });
}
