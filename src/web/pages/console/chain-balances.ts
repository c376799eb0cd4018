/**
 * Chain balances in the console: every watched address whose token balance on chain differs from the
 * ledger (an alert on every console page while one is open), and the operator's tools to resolve each:
 * reverse a credited deposit the chain no longer holds, credit a transfer the watcher missed, or accept the
 * difference with a note. Each audited.
 */
import { Type } from 'typebox';
import type { AppContext } from '../../../context.ts';
import { formatDecimal } from '../../../core/decimal.ts';
import { StringEnum } from '../../../http/schemas.ts';
import { type Html, html } from '../../../lib/html.ts';
import {
  createReconciliationService,
  type DifferenceRow,
} from '../../../modules/wallets/reconcile-resolve.ts';
import { webActor } from '../../../modules/web-users/service.ts';
import { CsrfField, csrfField } from '../../kit/csrf.ts';
import { badge, dateTime, notice, when } from '../../kit/parts.ts';
import type { WebApp } from '../../kit/surface.ts';
import { pageOf, pager, table } from '../../kit/table.ts';
import { sendConsole, setChainAlert } from './frame.ts';

const IdParams = Type.Object({ id: Type.String({ format: 'uuid' }) });
const STATUSES = ['OPEN', 'CLEARED', 'RESOLVED'] as const;
const Note = Type.String({ maxLength: 1000 });

const units = (text: string) => formatDecimal(BigInt(text), 6);

type Service = ReturnType<typeof createReconciliationService>;
type Deposit = Awaited<ReturnType<Service['creditedDeposits']>>[number];

export const schema = {
  querystring: Type.Object({
    status: Type.Optional(StringEnum(STATUSES)),
    done: Type.Optional(Type.String({ maxLength: 20 })),
    page: Type.Optional(Type.String({ maxLength: 7 })),
  }),
};

type Query = {
  status?: (typeof STATUSES)[number] | undefined;
  done?: string | undefined;
  page?: string | undefined;
};

/** A page of differences, each open one with the credited deposits its tools may reverse. */
export async function load(ctx: AppContext, service: Service, q: Query) {
  const page = pageOf(q.page, 50);
  const rows = await service.list(q.status ?? null, page.limit + 1, page.offset);
  const shown = await Promise.all(
    rows.slice(0, page.limit).map(async (row) => ({
      row,
      deposits: row.status === 'OPEN' ? await service.creditedDeposits(ctx.db, row) : [],
    })),
  );
  return { q, page, shown, hasNext: rows.length > page.limit };
}

function tools(row: DifferenceRow, csrf: string, credited: Deposit[]): Html {
  const deposits = credited.filter((d) => !d.reversed);
  const label = `${row.blockchain} ${row.currency} ${row.address.slice(0, 10)}`;
  return html`<details><summary>Resolve</summary>
${when(
  deposits.length > 0,
  () => html`<form method="post" action="/console/chain-balances/${row.id}/reverse" data-confirm="Take this deposit back from the customer's wallet?">${csrfField(csrf)}
<div class="field"><label for="deposit-${row.id}">Credited deposit the chain no longer holds</label><select id="deposit-${row.id}" name="depositId">${deposits.map(
    (d) =>
      html`<option value="${d.id}">${formatDecimal(BigInt(d.amount), 6)} ${row.currency} · ${d.transaction_hash.slice(0, 18)}… · block ${String(d.block_number ?? '')}</option>`,
  )}</select></div>
<div class="field"><label for="reverse-note-${row.id}">Why</label><input id="reverse-note-${row.id}" name="note" required maxlength="500"></div>
<button type="submit" class="danger" aria-label="Reverse deposit (${label})">Reverse deposit</button></form>`,
)}
${when(
  BigInt(row.on_chain) > BigInt(row.ledger),
  () => html`<form method="post" action="/console/chain-balances/${row.id}/credit">${csrfField(csrf)}
<div class="field"><label for="credit-hash-${row.id}">Transaction hash of a transfer the watcher missed</label><input id="credit-hash-${row.id}" name="transactionHash" required maxlength="66" pattern="0x[0-9a-fA-F]{64}" class="mono"></div>
<div class="field"><label for="credit-note-${row.id}">Why</label><input id="credit-note-${row.id}" name="note" required maxlength="500"></div>
<button type="submit" aria-label="Credit transfer (${label})">Credit transfer</button></form>`,
)}
<form method="post" action="/console/chain-balances/${row.id}/accept">${csrfField(csrf)}
<div class="field"><label for="accept-note-${row.id}">Explanation</label><input id="accept-note-${row.id}" name="note" required maxlength="500"></div>
<button type="submit" class="secondary" aria-label="Accept with note (${label})">Accept with note</button></form></details>`;
}

const MESSAGES: Record<string, string> = {
  reversed: 'The deposit was reversed.',
  credited: 'The transfer was credited.',
  accepted: 'The difference was accepted.',
};

export function view(csrf: string, { q, page, shown, hasNext }: Awaited<ReturnType<typeof load>>): Html {
  const cells = shown.map(
    ({
      row,
      deposits,
    }) => html`<tr><td>${row.blockchain}<br>${row.currency}</td><td><code>${row.address}</code><br><a href="/console/transactions?customerId=${row.customer_id}">customer’s transactions</a></td>
<td>${units(row.on_chain)}</td><td>${units(row.ledger)}</td><td><strong>${units((BigInt(row.on_chain) - BigInt(row.ledger)).toString())}</strong></td>
<td>${String(row.block_number)}<br><span class="hint">${dateTime(row.checked_at.toISOString())}</span></td><td>${badge(row.status)}${when(row.resolution, () => html`<br><span class="hint">${row.resolution ?? ''}</span>`)}</td>
<td>${row.status === 'OPEN' ? tools(row, csrf, deposits) : html``}</td></tr>`,
  );
  return html`${notice(MESSAGES[q.done ?? ''])}
<p class="hint">Each watched address’s token balance at the chain’s last final block against what the ledger says arrived there (credited deposits and confirmed on-ramp deliveries).</p>
<form class="panel formrow" method="get" action="/console/chain-balances" role="search" aria-label="Filter differences">
<div class="field"><label for="status">Status</label><select id="status" name="status"><option value="">Any</option>${STATUSES.map((s) => html`<option value="${s}"${s === q.status ? html` selected` : html``}>${s}</option>`)}</select></div>
<div class="field"><button type="submit">Filter</button></div></form>
${table(['Chain', 'Address', 'On chain', 'Ledger', 'Difference', 'Block', 'Status', ''], cells, 'No differences: every watched balance matches the ledger.')}
${pager('/console/chain-balances', { status: q.status }, page.page, hasNext)}`;
}

export function register(app: WebApp, ctx: AppContext) {
  const service = createReconciliationService(ctx);

  // after the surface's sign-in check: an operator's every page carries the alert
  app.addHook('preHandler', async (request) => {
    if (request.session?.user.role !== 'operator' || !request.url.startsWith('/console')) return;
    if (request.url.startsWith('/console/assets')) return;
    const counts = await service.openCounts();
    setChainAlert(
      request,
      counts.reduce((sum, row) => sum + Number(row.n), 0),
    );
  });

  app.get('/console/chain-balances', { schema }, async (request, reply) => {
    const data = await load(ctx, service, request.query);
    return sendConsole(request, reply, 'Chain balances', view(request.session!.csrfToken, data));
  });

  app.post(
    '/console/chain-balances/:id/reverse',
    {
      schema: {
        params: IdParams,
        body: Type.Object({ ...CsrfField, depositId: Type.String({ format: 'uuid' }), note: Note }),
      },
    },
    async (request, reply) => {
      const { body } = request;
      await service.reverseDeposit(
        webActor(request.session!.user),
        request.params.id,
        body.depositId,
        body.note,
      );
      return reply.redirect('/console/chain-balances?done=reversed', 303);
    },
  );

  app.post(
    '/console/chain-balances/:id/credit',
    {
      schema: {
        params: IdParams,
        body: Type.Object({ ...CsrfField, transactionHash: Type.String({ maxLength: 100 }), note: Note }),
      },
    },
    async (request, reply) => {
      const { body } = request;
      await service.creditMissed(
        webActor(request.session!.user),
        request.params.id,
        body.transactionHash,
        body.note,
      );
      return reply.redirect('/console/chain-balances?done=credited', 303);
    },
  );

  app.post(
    '/console/chain-balances/:id/accept',
    { schema: { params: IdParams, body: Type.Object({ ...CsrfField, note: Note }) } },
    async (request, reply) => {
      await service.accept(webActor(request.session!.user), request.params.id, request.body.note);
      return reply.redirect('/console/chain-balances?done=accepted', 303);
    },
  );
}
