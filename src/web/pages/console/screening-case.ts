/**
 * A possible sanctions match: what was screened beside each list entry it matched, and the clear or
 * confirm decision the operator API takes (through the same service, which audits it).
 */
import { Type } from 'typebox';
import type { AppContext } from '../../../context.ts';
import { StringEnum } from '../../../http/schemas.ts';
import { type Html, html } from '../../../lib/html.ts';
import { createScreeningReviewService } from '../../../modules/screening/review.ts';
import { webActor } from '../../../modules/web-users/service.ts';
import { CsrfField, csrfField } from '../../kit/csrf.ts';
import { badge, dateTime } from '../../kit/parts.ts';
import type { WebApp } from '../../kit/surface.ts';
import { table } from '../../kit/table.ts';
import { sendConsole } from './frame.ts';

export const schema = { params: Type.Object({ id: Type.String({ format: 'uuid' }) }) };

const list = (values: readonly string[]) => (values.length > 0 ? values.join(', ') : '—');

export const load = (review: ReturnType<typeof createScreeningReviewService>, id: string) => review.get(id);

export function view(csrf: string, c: Awaited<ReturnType<typeof load>>): Html {
  const screened = c.screened as Record<string, string | null | undefined>;
  const subject = html`<section class="panel"><h2>Screened ${c.subjectType.replaceAll('_', ' ').toLowerCase()}</h2><dl>
${screened.name ? html`<dt>Name</dt><dd>${screened.name}</dd>` : html``}
${screened.address ? html`<dt>Address</dt><dd><code>${screened.address}</code></dd>` : html``}
<dt>Date of birth</dt><dd>${screened.birthDate ?? '—'}</dd><dt>Country</dt><dd>${screened.country ?? '—'}</dd>
<dt>Customer</dt><dd><code>${c.customerId}</code></dd><dt>Reason</dt><dd>${c.reason.replaceAll('_', ' ')}</dd><dt>Status</dt><dd>${badge(c.status)}</dd></dl></section>`;
  const run = structuringRun(c);
  const entries = c.entries.map((entry) => {
    const match = c.matches.find((m) => m.entryId === entry.id);
    return html`<section class="panel"><h2>${entry.primaryName}</h2><dl>
<dt>List</dt><dd>${entry.source} ${entry.sourceUid} · ${list(entry.programs)}</dd><dt>Kind</dt><dd>${entry.kind}</dd>
<dt>Matched name</dt><dd>${match?.matchedName ?? '—'} (score ${String(match?.score ?? '—')}; name ${String(match?.nameScore ?? '—')})</dd>
<dt>What moved the score</dt><dd>${list(match?.factors ?? [])}</dd>
<dt>Names</dt><dd>${list(entry.names.map((n) => n.name))}</dd><dt>Dates of birth</dt><dd>${list(entry.birthDates)}</dd>
<dt>Countries</dt><dd>${list(entry.countries)}</dd><dt>Chain addresses</dt><dd>${list(entry.addresses.map((a) => `${a.currency} ${a.address}`))}</dd>
<dt>Remarks</dt><dd>${entry.remarks ?? '—'}</dd></dl></section>`;
  });
  const decision =
    c.status === 'OPEN'
      ? html`<section class="panel"><h2>Decision</h2><form method="post" action="/console/screening/cases/${c.id}">${csrfField(csrf)}
<div class="field"><label for="decision">Outcome</label><select id="decision" name="decision">${
          c.reason === 'STRUCTURING'
            ? html`<option value="CLEAR">Clear: no structuring, send the transfer</option><option value="CONFIRM">Confirm: refuse the transfer, amount back in the wallet</option>`
            : html`<option value="CLEAR">Clear: not the listed party, lift the hold</option><option value="CONFIRM">Confirm: the match stands</option>`
        }</select></div>
<div class="field"><label for="comment">Why</label><textarea id="comment" name="comment" required maxlength="2000" rows="3"></textarea></div>
<button type="submit">Record decision</button></form></section>`
      : html`<section class="panel"><h2>Decision</h2><p>${c.status} by ${c.decidedBy ?? '—'}: ${c.decisionComment ?? ''}</p></section>`;
  return html`<div class="grid">${subject}${run}${entries}</div>${decision}`;
}

type RunTransfer = { id: string; amount: string; at: string };

/** A STRUCTURING case: the transfers to the counterparty within the window, each below the threshold. */
function structuringRun(c: Awaited<ReturnType<typeof load>>): Html {
  if (c.reason !== 'STRUCTURING') return html``;
  const screened = c.screened as {
    transfers?: RunTransfer[];
    total?: string;
    threshold?: string;
    windowHours?: number;
  };
  const transfers = screened.transfers ?? [];
  return html`<section class="panel"><h2>Transfers split under the Travel Rule threshold</h2>
<p>${String(transfers.length)} transfers to this address within ${String(screened.windowHours ?? 24)} hours, each below the threshold of ${screened.threshold ?? '—'} USD, add up to ${screened.total ?? '—'} USD.</p>
${table(
  ['Transfer', 'Amount', 'At'],
  transfers.map(
    (t) =>
      html`<tr><td><a href="/console/transactions/${t.id}"><code>${t.id}</code></a></td><td>${t.amount}</td><td>${dateTime(t.at)}</td></tr>`,
  ),
  'No transfer.',
)}</section>`;
}

export function register(app: WebApp, ctx: AppContext) {
  const review = createScreeningReviewService(ctx);

  app.get('/console/screening/cases/:id', { schema }, async (request, reply) => {
    const c = await load(review, request.params.id);
    return sendConsole(request, reply, 'Screening match', view(request.session!.csrfToken, c));
  });

  app.post(
    '/console/screening/cases/:id',
    {
      schema: {
        ...schema,
        body: Type.Object({
          ...CsrfField,
          decision: StringEnum(['CLEAR', 'CONFIRM']),
          comment: Type.String({ minLength: 1, maxLength: 2000 }),
        }),
      },
    },
    async (request, reply) => {
      await review.decide(webActor(request.session!.user), request.params.id, request.body);
      return reply.redirect('/console/screening/cases?done=1', 303);
    },
  );
}
