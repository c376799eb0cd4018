/**
 * The PIX rail in the console, per environment: the last complete reconciliation sweep (when it finished,
 * the window it read, the PSP listing pages and the items listed), the sends awaiting their result at the
 * PSP (off-ramp payouts and refunds, oldest first, with the idEnvio they were sent under), the items
 * that could not be applied or read with the reason (newest first), and whether the PSP accepted the
 * webhook of the key (payouts wait until it does).
 */
import type { AppContext } from '../../../context.ts';
import type { Environment } from '../../../lib/environment.ts';
import { type Html, html } from '../../../lib/html.ts';
import { createPixOperationsService, type RailOverview } from '../../../modules/pix/operations.ts';
import { badge, dateTime, idCell, when } from '../../kit/parts.ts';
import type { WebApp } from '../../kit/surface.ts';
import { table } from '../../kit/table.ts';
import { sendConsole } from './frame.ts';

const iso = (at: Date | null) => at?.toISOString() ?? null;

function failuresTable(failures: RailOverview['failures'], empty: string): Html {
  return table(
    ['Received', 'Source', 'Item', 'Reason'],
    failures.map(
      (f) =>
        html`<tr><td>${dateTime(iso(f.at))}</td><td>${f.source}</td><td><code>${f.item}</code></td><td>${f.reason}</td></tr>`,
    ),
    empty,
  );
}

type Registration = ReturnType<AppContext['pix']['webhookRegistration']>;

function webhookPanel(environment: Environment, registration: Registration): Html {
  if (!registration) return html``;
  if (registration.registered) {
    return html`<p data-field="webhook">Webhook: ${badge('REGISTERED')} the PSP accepted the webhook of the key.</p>`;
  }
  return html`<div class="notice error" role="alert" data-field="webhook">Webhook: ${badge('NOT_REGISTERED')} the PSP has not accepted the webhook of the ${environment} key${registration.lastError ? html` (${registration.attempts} attempts; last: ${registration.lastError})` : html``}. Payouts wait until it does; check the TLS terminator and run <code>npm run pix:check</code>.</div>`;
}

function section(rail: RailOverview & { webhook: Registration }): Html {
  const id = `pix-${rail.environment}`;
  const sweep = rail.lastCompleteSweep;
  const sweepPanel = sweep
    ? html`<dl class="panel" aria-label="Last complete sweep (${rail.environment})">
<dt>Completed</dt><dd data-field="completed">${dateTime(iso(sweep.completedAt))}</dd>
<dt>Window</dt><dd data-field="window">${dateTime(iso(sweep.from))} to ${dateTime(iso(sweep.to))}</dd>
<dt>PSP calls (listing pages)</dt><dd data-field="calls">${String(sweep.calls)}</dd>
<dt>Items listed</dt><dd data-field="items">${String(sweep.items)}</dd>
<dt>Items applied</dt><dd data-field="applied">${String(sweep.applied)}</dd>
<dt>Next sweep due</dt><dd>${dateTime(iso(rail.nextSweepAt))}</dd></dl>`
    : html`<p class="empty">No complete sweep yet.</p>`;
  return html`<section aria-labelledby="${id}"><h2 id="${id}">${rail.environment === 'production' ? 'Production' : 'Sandbox'}</h2>
${webhookPanel(rail.environment, rail.webhook)}
<h3>Last complete sweep</h3>${sweepPanel}
${when(rail.lastSweepError, () => html`<div class="notice error" role="alert">The last sweep did not complete: ${rail.lastSweepError ?? ''}</div>`)}
<h3>Sends awaiting the PSP (oldest first)</h3>
${table(
  ['Since', 'Kind', 'idEnvio', 'Transaction', 'Amount', 'State', 'Attempts', 'PSP end-to-end id'],
  rail.awaitingSends.map(
    (s) =>
      html`<tr><td>${dateTime(iso(s.since))}</td><td>${s.kind === 'OFF_RAMP' ? 'Off-ramp payout' : 'Refund'}</td><td><code data-field="send-id">${s.sendId}</code></td>
<td>${idCell(s.transactionId, `/console/transactions?id=${s.transactionId}&environment=${rail.environment}`)}</td><td>${s.amount} BRL</td><td>${badge(s.status)}</td><td>${String(s.attempts)}</td><td>${s.pspEndToEndId ? html`<code>${s.pspEndToEndId}</code>` : html`—`}</td></tr>`,
  ),
  'No send is awaiting the PSP.',
)}
<h3>Items not applied (newest first)</h3>
${failuresTable(rail.failures, 'Every item received was applied.')}</section>`;
}

export async function load(
  operations: ReturnType<typeof createPixOperationsService>,
  pix: AppContext['pix'],
) {
  const overview = await operations.overview();
  return {
    ...overview,
    environments: overview.environments.map((rail) => ({
      ...rail,
      webhook: pix.webhookRegistration(rail.environment),
    })),
  };
}

export function view({ environments, unattributedFailures }: Awaited<ReturnType<typeof load>>): Html {
  return html`<p class="hint">What the PSP reconciliation sweep last read completely, the payments sent through the PSP whose result is not known yet, and the PSP items Ponte could not apply.</p>
${environments.map(section)}
${when(
  unattributedFailures.length > 0,
  () =>
    html`<section aria-labelledby="pix-unattributed"><h2 id="pix-unattributed">Items not applied, environment not recorded</h2>${failuresTable(unattributedFailures, '')}</section>`,
)}`;
}

export function register(app: WebApp, ctx: AppContext) {
  const operations = createPixOperationsService(ctx);
  app.get('/console/pix', async (request, reply) =>
    sendConsole(request, reply, 'PIX rail', view(await load(operations, ctx.pix))),
  );
}
