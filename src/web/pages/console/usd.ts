/**
 * The USD rail in the console, per environment. Dollars in at the US bank: where the last sweep of
 * inbound transfers got to, the transfers returned whose return the bank has not accepted yet (oldest
 * first: the sweep retries them until the bank does), the transfers received most recently with their
 * outcome, and counts by rail and outcome. Dollars out: payouts by rail and status, and the payouts made
 * most recently with their failure or their Nacha return code.
 */
import type { AppContext } from '../../../context.ts';
import { type Html, html } from '../../../lib/html.ts';
import {
  type BankPayout,
  createUsdRailOperationsService,
  type InboundTransfer,
  type UsdRailOverview,
} from '../../../modules/us-bank/operations.ts';
import { badge, dateTime, idCell } from '../../kit/parts.ts';
import type { WebApp } from '../../kit/surface.ts';
import { table } from '../../kit/table.ts';
import { sendConsole } from './frame.ts';

const iso = (at: Date | null) => at?.toISOString() ?? null;

function transfers(rail: UsdRailOverview, rows: InboundTransfer[], empty: string, kind: string): Html {
  return table(
    ['Received', 'Rail', 'Bank transfer', 'Account', 'Amount', 'Outcome', 'Transaction', 'Return reason'],
    rows.map(
      (t) =>
        html`<tr data-list="${kind}" data-transfer="${t.bankTransferId}"><td>${dateTime(iso(t.receivedAt))}</td><td>${t.rail}</td><td><code>${t.bankTransferId}</code></td>
<td>${t.accountId ? html`<code>${t.accountId}</code>` : html`—`}</td><td>${t.amount} USD</td><td>${badge(t.outcome)}</td>
<td>${t.transactionId ? idCell(t.transactionId, `/console/transactions?id=${t.transactionId}&environment=${rail.environment}`) : html`—`}</td>
<td>${t.returnReason ?? '—'}${t.outcome === 'RETURNED' && t.returnedAt ? html` (accepted ${dateTime(iso(t.returnedAt))})` : html``}</td></tr>`,
    ),
    empty,
  );
}

function payouts(rail: UsdRailOverview, rows: BankPayout[]): Html {
  return table(
    ['Made', 'Rail', 'Transaction', 'Amount', 'Status', 'Attempts', 'Failure or return'],
    rows.map(
      (p) =>
        html`<tr data-list="payout" data-payout="${p.key}"><td>${dateTime(iso(p.createdAt))}</td><td>${p.rail}</td>
<td>${idCell(p.transactionId, `/console/transactions?id=${p.transactionId}&environment=${rail.environment}`)}</td>
<td>${p.amount} USD</td><td>${badge(p.status)}</td><td>${String(p.attempts)}</td>
<td>${p.returnCode ? html`<code>${p.returnCode}</code> ` : html``}${p.failureReason ?? '—'}</td></tr>`,
    ),
    'No USD payout yet.',
  );
}

function section(rail: UsdRailOverview): Html {
  const id = `usd-${rail.environment}`;
  const sweep = rail.lastSweep;
  const failures = rail.counts.filter((c) => c.outcome !== 'APPLIED');
  return html`<section aria-labelledby="${id}"><h2 id="${id}">${rail.environment === 'production' ? 'Production' : 'Sandbox'}</h2>
<h3>Last complete sweep</h3>
${
  sweep
    ? html`<dl class="panel" aria-label="Last complete sweep (${rail.environment})">
<dt>Completed</dt><dd data-field="swept-at">${dateTime(iso(sweep.sweptAt))}</dd>
<dt>Read through</dt><dd data-field="swept-through">${dateTime(iso(sweep.sweptThrough))}</dd></dl>`
    : html`<p class="empty panel">No complete sweep yet.</p>`
}
<h3>Pending returns (oldest first)</h3>
${transfers(rail, rail.pendingReturns, 'Every transfer returned has been accepted by the bank.', 'pending-return')}
<h3>Transfers received by rail and outcome</h3>
${table(
  ['Rail', 'Outcome', 'Transfers'],
  rail.counts.map(
    (c) =>
      html`<tr data-count="${c.rail}-${c.outcome}"><td>${c.rail}</td><td>${badge(c.outcome)}</td><td>${String(c.count)}</td></tr>`,
  ),
  'No transfer received yet.',
)}
<p data-field="failures">Not applied (held or returned): ${String(failures.reduce((n, c) => n + c.count, 0))}</p>
<h3>Received recently (newest first)</h3>
${transfers(rail, rail.recent, 'No transfer received yet.', 'transfer')}
<h3>Payouts by rail and status</h3>
${table(
  ['Rail', 'Status', 'Payouts'],
  rail.payoutCounts.map(
    (c) =>
      html`<tr data-count="payout-${c.rail}-${c.status}"><td>${c.rail}</td><td>${badge(c.status)}</td><td>${String(c.count)}</td></tr>`,
  ),
  'No USD payout yet.',
)}
<h3>Payouts made recently (newest first)</h3>
${payouts(rail, rail.payouts)}</section>`;
}

export function view(environments: UsdRailOverview[]): Html {
  return html`<p class="hint">Dollars at the US bank (ACH and wire). In: where the sweep of inbound transfers got to, the transfers Ponte returned that the bank has not accepted yet, and what was received. Out: the payouts to customers' US bank accounts, with their failures and return codes.</p>
${environments.map(section)}`;
}

export function register(app: WebApp, ctx: AppContext) {
  const operations = createUsdRailOperationsService(ctx);
  app.get('/console/usd', async (request, reply) =>
    sendConsole(request, reply, 'USD rail', view(await operations.overview())),
  );
}
