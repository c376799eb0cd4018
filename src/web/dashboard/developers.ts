/** Developers: API keys (issued per environment, shown once, revoked), webhook endpoints, the request log. */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../core/errors.ts';
import { html } from '../../lib/html.ts';
import { EVENT_TYPES } from '../../modules/events/outbox.ts';
import { createProjectService } from '../../modules/projects/service.ts';
import { createRequestLogService } from '../../modules/request-log/service.ts';
import { webActor } from '../../modules/web-users/service.ts';
import { createWebhookService } from '../../modules/webhooks/service.ts';
import { csrfField } from '../kit/csrf.ts';
import { badge, dateTime, notice, secretBox, when } from '../kit/parts.ts';
import { pageOf, pager, table } from '../kit/table.ts';
import { EnvIdParams, EnvParams, tenantOf } from './frame.ts';
import type { Render } from './render.ts';

const Csrf = { _csrf: Type.Optional(Type.String({ maxLength: 64 })) };
/** The events worth ticking: a test event reaches an endpoint when asked for, whatever it subscribes to. */
const SUBSCRIBABLE = EVENT_TYPES.filter((type) => type !== 'webhook_endpoint.test');

export function registerDeveloperPages(app: FastifyInstance, ctx: AppContext, render: Render) {
  const projects = createProjectService(ctx);
  const webhooks = createWebhookService(ctx);
  const requestLog = createRequestLogService(ctx);

  // ---- API keys
  async function keysPage(request: Parameters<Render>[0], issued?: { key: string; name: string | null }) {
    const tenant = tenantOf(request);
    const session = request.session!;
    const keys = await projects.listApiKeys(tenant.projectId, tenant.environment);
    const canWrite = session.user.role !== 'viewer';
    const done = (request.query as { done?: string }).done === 'revoked' ? 'The key was revoked.' : undefined;
    return html`${notice(done)}
${when(issued, () => secretBox('new-key', `New ${tenant.environment} key${issued!.name ? ` "${issued!.name}"` : ''}.`, issued!.key))}
${when(
  canWrite,
  () => html`<section class="panel" aria-labelledby="create-key"><h2 id="create-key">Create a ${tenant.environment} key</h2>
<form method="post" action="/${tenant.environment}/api-keys">${csrfField(session.csrfToken)}
<div class="formrow"><div class="field"><label for="key-name">Name <span class="hint">(optional)</span></label>
<input id="key-name" name="name" maxlength="200" placeholder="e.g. checkout server"></div>
<div class="field"><button type="submit">Create key</button></div></div></form></section>`,
)}
<h2>Keys</h2>
${table(
  ['Name', 'Key', 'Created', 'Status', ''],
  keys.map(
    (
      key,
    ) => html`<tr><td>${key.name ?? '—'}</td><td><code>${key.prefix}…</code></td><td>${dateTime(key.createdAt)}</td>
<td>${key.revokedAt ? html`${badge('revoked')} ${dateTime(key.revokedAt)}` : badge('ACTIVE')}</td>
<td>${when(
      canWrite && !key.revokedAt,
      () =>
        html`<form class="inline" method="post" action="/${tenant.environment}/api-keys/${key.id}/revoke" data-confirm="Revoke this key? Requests with it will be refused.">${csrfField(session.csrfToken)}<button type="submit" class="danger" aria-label="Revoke key ${key.prefix}">Revoke</button></form>`,
    )}</td></tr>`,
  ),
  `No ${tenant.environment} keys yet.`,
)}`;
  }

  app.get('/:env/api-keys', { schema: { params: EnvParams } }, async (request, reply) =>
    render(request, reply, 'API keys', await keysPage(request)),
  );

  app.post(
    '/:env/api-keys',
    {
      config: { access: 'developer' },
      schema: {
        params: EnvParams,
        body: Type.Object({ ...Csrf, name: Type.Optional(Type.String({ maxLength: 200 })) }),
      },
    },
    async (request, reply) => {
      const tenant = tenantOf(request);
      const name = (request.body as { name?: string }).name?.trim() || null;
      const issued = await projects.issueApiKey(
        webActor(request.session!.user),
        tenant.projectId,
        tenant.environment,
        name,
      );
      reply.header('cache-control', 'no-store');
      return render(request, reply, 'API keys', await keysPage(request, { key: issued.key, name }), 201);
    },
  );

  app.post(
    '/:env/api-keys/:id/revoke',
    { config: { access: 'developer' }, schema: { params: EnvIdParams, body: Type.Object(Csrf) } },
    async (request, reply) => {
      const tenant = tenantOf(request);
      await projects.revokeApiKey(
        webActor(request.session!.user),
        (request.params as { id: string }).id,
        tenant,
      );
      return reply.redirect(`/${tenant.environment}/api-keys?done=revoked`, 303);
    },
  );

  // ---- Webhooks
  /** The endpoints and the form to add one; `refused` shows a refused addition in the form, as typed. */
  async function endpointsPage(
    request: Parameters<Render>[0],
    created?: { id: string; secret: string },
    refused?: { url: string; events: string[]; message: string },
  ) {
    const tenant = tenantOf(request);
    const session = request.session!;
    const canWrite = session.user.role !== 'viewer';
    const list = await webhooks.list(tenant, { page: 1, limit: 50, offset: 0 });
    const done =
      (request.query as { done?: string }).done === 'deleted' ? 'The endpoint was removed.' : undefined;
    return html`${notice(done)}
${when(created, () => secretBox('new-secret', 'Signing secret of the new endpoint.', created!.secret))}
${when(
  canWrite,
  () => html`<section class="panel" aria-labelledby="add-endpoint"><h2 id="add-endpoint">Add an endpoint</h2>
${notice(refused?.message, 'error')}
<form method="post" action="/${tenant.environment}/webhooks">${csrfField(session.csrfToken)}
<div class="field"><label for="url">URL</label><input id="url" name="url" type="url" required maxlength="2048" placeholder="https://example.com/webhooks/ponte" value="${refused?.url ?? ''}"${refused ? html` aria-invalid="true"` : html``}></div>
<fieldset class="field"><legend>Events <span class="hint">(none ticked: every event)</span></legend>
${SUBSCRIBABLE.map((type) => html`<label class="hint"><input type="checkbox" name="events" value="${type}"${refused?.events.includes(type) ? html` checked` : html``}> ${type}</label>`)}
</fieldset>
<button type="submit">Add endpoint</button></form></section>`,
)}
<h2>Endpoints</h2>
${table(
  ['URL', 'Events', 'Status', 'Created'],
  list.data.map(
    (
      endpoint,
    ) => html`<tr><td><a href="/${tenant.environment}/webhooks/${endpoint.id}">${endpoint.url}</a></td>
<td>${endpoint.events?.length ? endpoint.events.join(', ') : 'all'}</td><td>${badge(endpoint.status)}</td><td>${dateTime(endpoint.createdAt)}</td></tr>`,
  ),
  `No ${tenant.environment} endpoints yet.`,
)}`;
  }

  app.get('/:env/webhooks', { schema: { params: EnvParams } }, async (request, reply) =>
    render(request, reply, 'Webhooks', await endpointsPage(request)),
  );

  app.post(
    '/:env/webhooks',
    {
      config: { access: 'developer' },
      schema: {
        params: EnvParams,
        body: Type.Object({
          ...Csrf,
          url: Type.String({ maxLength: 2048 }),
          events: Type.Optional(Type.Union([Type.String(), Type.Array(Type.String(), { maxItems: 50 })])),
        }),
      },
    },
    async (request, reply) => {
      const body = request.body as { url: string; events?: string | string[] };
      const picked =
        body.events === undefined ? [] : Array.isArray(body.events) ? body.events : [body.events];
      const events = picked.filter((type): type is (typeof EVENT_TYPES)[number] =>
        (EVENT_TYPES as readonly string[]).includes(type),
      );
      let created: Awaited<ReturnType<typeof webhooks.create>>;
      try {
        created = await webhooks.create(tenantOf(request), {
          url: body.url.trim(),
          events: events.length > 0 ? events : undefined,
        });
      } catch (error) {
        if (!(error instanceof AppError) || error.status >= 500) throw error;
        const details = (error.errors ?? []).map((e) => e.message).join('; ');
        const message = `${error.message}${details ? ` (${details})` : ''}`;
        const page = await endpointsPage(request, undefined, { url: body.url, events, message });
        return render(request, reply, 'Webhooks', page, error.status);
      }
      reply.header('cache-control', 'no-store');
      return render(request, reply, 'Webhooks', await endpointsPage(request, created), 201);
    },
  );

  /** An endpoint and its deliveries; after a rotation, with the new secret shown once. */
  async function endpointPage(request: Parameters<Render>[0], rotated?: { secret: string }) {
    const tenant = tenantOf(request);
    const session = request.session!;
    const id = (request.params as { id: string }).id;
    const endpoint = await webhooks.get(tenant, id);
    const page = pageOf((request.query as { page?: string }).page);
    const deliveries = await webhooks.listDeliveries(tenant, id, page);
    const canWrite = session.user.role !== 'viewer';
    const doneKind = (request.query as { done?: string }).done;
    const done =
      doneKind === 'retried'
        ? 'The delivery will be attempted again now.'
        : doneKind === 'tested'
          ? 'A webhook_endpoint.test event is on its way to this endpoint; its delivery is listed below.'
          : undefined;
    const previousUntil = endpoint.previousSecretExpiresAt;
    const body = html`${notice(done)}
${when(rotated, () => secretBox('new-secret', 'New signing secret of this endpoint.', rotated!.secret))}
<section class="panel"><dl><dt>URL</dt><dd><code>${endpoint.url}</code></dd><dt>Status</dt><dd>${badge(endpoint.status)}</dd>
<dt>Events</dt><dd>${endpoint.events?.length ? endpoint.events.join(', ') : 'all'}</dd><dt>Created</dt><dd>${dateTime(endpoint.createdAt)}</dd>
${when(previousUntil !== null && new Date(previousUntil) > ctx.clock(), () => html`<dt>Previous secret</dt><dd>still signs, next to the new one, until ${dateTime(previousUntil!)}</dd>`)}</dl>
${when(
  canWrite,
  () => html`<div class="actions"><form class="inline" method="post" action="/${tenant.environment}/webhooks/${id}/test">${csrfField(session.csrfToken)}<button type="submit" class="secondary">Send a test event</button></form>
<form class="inline" method="post" action="/${tenant.environment}/webhooks/${id}/delete" data-confirm="Remove this endpoint?">${csrfField(session.csrfToken)}<button type="submit" class="danger">Remove endpoint</button></form></div>
<form class="inline" method="post" action="/${tenant.environment}/webhooks/${id}/rotate-secret">${csrfField(session.csrfToken)}<label for="overlap">Old secret keeps signing for</label>
<select id="overlap" name="expiresIn"><option value="3600">1 hour</option><option value="86400" selected>24 hours</option><option value="604800">7 days</option><option value="0">no time: stop now</option></select>
<button type="submit" class="secondary">Rotate secret</button></form>`,
)}
</section>
<h2>Deliveries</h2>
${table(
  ['Event', 'Status', 'Attempts', ''],
  deliveries.data.map(
    (
      delivery,
    ) => html`<tr><td><code>${delivery.eventType}</code><br><span class="hint">${dateTime(delivery.createdAt)}</span></td>
<td>${badge(delivery.status)}</td>
<td>${delivery.attempts.length === 0 ? html`<span class="hint">none yet</span>` : html`<ol>${delivery.attempts.map((attempt) => html`<li>${dateTime(attempt.at)} · ${attempt.statusCode === null ? 'no answer' : `HTTP ${attempt.statusCode}`} · ${String(attempt.latencyMs)} ms${attempt.error ? ` · ${attempt.error}` : ''}</li>`)}</ol>`}</td>
<td>${when(canWrite && delivery.status !== 'DELIVERED', () => html`<form class="inline" method="post" action="/${tenant.environment}/webhooks/${id}/deliveries/${delivery.id}/retry">${csrfField(session.csrfToken)}<button type="submit" class="secondary">Retry</button></form>`)}</td></tr>`,
  ),
  'No deliveries yet.',
)}
${pager(`/${tenant.environment}/webhooks/${id}`, {}, deliveries.pagination.page, deliveries.pagination.hasNextPage)}`;
    return body;
  }

  app.get('/:env/webhooks/:id', { schema: { params: EnvIdParams } }, async (request, reply) =>
    render(request, reply, 'Webhook endpoint', await endpointPage(request)),
  );

  app.post(
    '/:env/webhooks/:id/rotate-secret',
    {
      config: { access: 'developer' },
      schema: {
        params: EnvIdParams,
        body: Type.Object({
          ...Csrf,
          expiresIn: Type.Union([
            Type.Literal('0'),
            Type.Literal('3600'),
            Type.Literal('86400'),
            Type.Literal('604800'),
          ]),
        }),
      },
    },
    async (request, reply) => {
      const tenant = tenantOf(request);
      const { id } = request.params as { id: string };
      const { expiresIn } = request.body as { expiresIn: string };
      const rotated = await webhooks.rotateSecret(tenant, id, Number(expiresIn));
      reply.header('cache-control', 'no-store');
      return render(request, reply, 'Webhook endpoint', await endpointPage(request, rotated));
    },
  );

  app.post(
    '/:env/webhooks/:id/delete',
    { config: { access: 'developer' }, schema: { params: EnvIdParams, body: Type.Object(Csrf) } },
    async (request, reply) => {
      const tenant = tenantOf(request);
      await webhooks.remove(tenant, (request.params as { id: string }).id);
      return reply.redirect(`/${tenant.environment}/webhooks?done=deleted`, 303);
    },
  );

  app.post(
    '/:env/webhooks/:id/test',
    { config: { access: 'developer' }, schema: { params: EnvIdParams, body: Type.Object(Csrf) } },
    async (request, reply) => {
      const tenant = tenantOf(request);
      const { id } = request.params as { id: string };
      await webhooks.sendTest(tenant, id);
      return reply.redirect(`/${tenant.environment}/webhooks/${id}?done=tested`, 303);
    },
  );

  app.post(
    '/:env/webhooks/:id/deliveries/:deliveryId/retry',
    {
      config: { access: 'developer' },
      schema: {
        params: Type.Object({
          env: EnvParams.properties.env,
          id: Type.String({ format: 'uuid' }),
          deliveryId: Type.String({ format: 'uuid' }),
        }),
        body: Type.Object(Csrf),
      },
    },
    async (request, reply) => {
      const tenant = tenantOf(request);
      const { id, deliveryId } = request.params as { id: string; deliveryId: string };
      await webhooks.retry(tenant, id, deliveryId);
      return reply.redirect(`/${tenant.environment}/webhooks/${id}?done=retried`, 303);
    },
  );

  // ---- Request log
  app.get(
    '/:env/requests',
    {
      config: { access: 'developer' },
      schema: {
        params: EnvParams,
        querystring: Type.Object({
          status: Type.Optional(Type.String({ maxLength: 10 })),
          path: Type.Optional(Type.String({ maxLength: 200 })),
          page: Type.Optional(Type.String({ maxLength: 7 })),
        }),
      },
    },
    async (request, reply) => {
      const tenant = tenantOf(request);
      const query = request.query as { status?: string; path?: string; page?: string };
      const status =
        query.status === 'success' || query.status === 'failure'
          ? query.status
          : query.status && /^[1-5]\d\d$/.test(query.status)
            ? Number(query.status)
            : undefined;
      const page = pageOf(query.page, 50);
      const entries = await requestLog.list(tenant, { status, path: query.path?.trim() || undefined }, page);
      const option = (value: string, label: string) =>
        html`<option value="${value}"${query.status === value ? html` selected` : html``}>${label}</option>`;
      const body = html`<form class="panel formrow" method="get" action="/${tenant.environment}/requests" role="search">
<div class="field"><label for="status">Status</label><select id="status" name="status">${option('', 'Any')}${option('success', 'Succeeded (2xx, 3xx)')}${option('failure', 'Failed (4xx, 5xx)')}
${['400', '401', '404', '409', '422', '429', '500'].map((code) => option(code, code))}</select></div>
<div class="field"><label for="path">Path contains</label><input id="path" name="path" value="${query.path ?? ''}" placeholder="/customers"></div>
<div class="field"><button type="submit">Filter</button></div></form>
${table(
  ['Time', 'Request', 'Status', 'Latency', 'Request id'],
  entries.data.map(
    (
      entry,
    ) => html`<tr><td>${dateTime(entry.createdAt)}</td><td><a href="/${tenant.environment}/requests/${entry.id}" aria-label="Details of ${entry.method} ${entry.path} at ${entry.createdAt}"><code>${entry.method} ${entry.path}</code></a>
${when(entry.problem, () => html`<details><summary>Error body</summary><pre class="mono">${JSON.stringify(entry.problem, null, 2)}</pre></details>`)}</td>
<td>${badge(entry.status >= 400 ? `${entry.status}` : `${entry.status}`)}</td><td>${String(entry.latencyMs)} ms</td><td><code>${entry.requestId}</code></td></tr>`,
  ),
  'No requests match.',
)}
${pager(`/${tenant.environment}/requests`, { status: query.status, path: query.path }, entries.pagination.page, entries.pagination.hasNextPage)}`;
      return render(request, reply, 'Request log', body);
    },
  );

  app.get(
    '/:env/requests/:id',
    { config: { access: 'developer' }, schema: { params: EnvIdParams } },
    async (request, reply) => {
      const tenant = tenantOf(request);
      const entry = await requestLog.get(tenant, (request.params as { id: string }).id);
      const key = entry.apiKey;
      const body = html`<p><a href="/${tenant.environment}/requests">← Request log</a></p>
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
      return render(request, reply, `${entry.method} ${entry.path}`, body);
    },
  );
}

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
