/** One logged request: its summary and its bodies as recorded (redacted, cut to the stored size). */
import type { AppContext } from '../../../context.ts';
import type { Tenant } from '../../../lib/environment.ts';
import { type Html, html } from '../../../lib/html.ts';
import { createRequestLogService } from '../../../modules/request-log/service.ts';
import { badge, dateTime, when } from '../../kit/parts.ts';
import type { WebApp } from '../../kit/surface.ts';
import { EnvIdParams, type Render, tenantOf } from './frame.ts';

export const schema = { params: EnvIdParams };

/** A recorded body, indented when it is whole JSON (a cut or omitted body is shown as stored), escaped. */
function bodyBlock(text: string | null) {
  if (text === null) return html`<p class="empty">No body.</p>`;
  let shown = text;
  try {
    shown = JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    // cut to the stored size, or a note that it was not kept
  }
  return html`<pre class="mono" tabindex="0">${shown}</pre>`;
}

export const load = (requestLog: ReturnType<typeof createRequestLogService>, tenant: Tenant, id: string) =>
  requestLog.get(tenant, id);

type Entry = Awaited<ReturnType<typeof load>>;

export function view(env: string, entry: Entry): Html {
  const key = entry.apiKey;
  return html`<p><a href="/${env}/requests">← Request log</a></p>
<section class="panel" aria-labelledby="request-summary"><h2 id="request-summary">Summary</h2><dl>
<dt>Time</dt><dd>${dateTime(entry.createdAt)}</dd>
<dt>Status</dt><dd>${badge(String(entry.status))}</dd>
<dt>Latency</dt><dd>${String(entry.latencyMs)} ms</dd>
<dt>Request id</dt><dd><code>${entry.requestId}</code></dd>
<dt>API key</dt><dd>${key ? html`<code>${key.prefix ? `${key.prefix}…` : key.id}</code>${when(key.name, () => html` (${key.name ?? ''})`)}${when(!key.prefix, () => html` (deleted)`)}` : '—'}</dd>
<dt>Idempotency key</dt><dd>${entry.idempotencyKey ? html`<code>${entry.idempotencyKey}</code>` : '—'}</dd></dl></section>
<p class="hint">Bodies are shown as recorded: secrets, keys, tax ids and personal data (names, e-mails, birth dates, addresses, PIX keys) redacted, each cut to 16 KB.</p>
<section class="panel" aria-labelledby="request-body"><h2 id="request-body">Request body</h2>${bodyBlock(entry.requestBody)}</section>
<section class="panel" aria-labelledby="response-body"><h2 id="response-body">Response body</h2>${bodyBlock(entry.responseBody)}</section>`;
}

export function register(app: WebApp, ctx: AppContext, render: Render) {
  const requestLog = createRequestLogService(ctx);
  app.get('/:env/requests/:id', { config: { access: 'developer' }, schema }, async (request, reply) => {
    const tenant = tenantOf(request);
    const entry = await load(requestLog, tenant, request.params.id);
    return render(request, reply, `${entry.method} ${entry.path}`, view(tenant.environment, entry));
  });
}
