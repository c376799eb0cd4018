/** A webhook endpoint and its deliveries: test it, rotate its secret (shown once), remove it, retry one. */
import { Type } from 'typebox';
import type { AppContext } from '../../../context.ts';
import type { Tenant } from '../../../lib/environment.ts';
import { type Html, html } from '../../../lib/html.ts';
import { createFlashes } from '../../../modules/web-users/flashes.ts';
import type { Session } from '../../../modules/web-users/sessions.ts';
import { createWebhookService } from '../../../modules/webhooks/service.ts';
import { CsrfField, csrfField } from '../../kit/csrf.ts';
import { badge, dateTime, notice, secretBox, shownOnce, when } from '../../kit/parts.ts';
import type { WebApp } from '../../kit/surface.ts';
import { pageOf, pager, table } from '../../kit/table.ts';
import { EnvIdParams, EnvParams, type Render, tenantOf } from './frame.ts';

export const schema = {
  params: EnvIdParams,
  querystring: Type.Object({
    page: Type.Optional(Type.Unknown()),
    done: Type.Optional(Type.Unknown()),
    shown: Type.Optional(Type.Unknown()),
  }),
};

export async function load(
  webhooks: ReturnType<typeof createWebhookService>,
  tenant: Tenant,
  id: string,
  page: unknown,
) {
  const endpoint = await webhooks.get(tenant, id);
  const deliveries = await webhooks.listDeliveries(tenant, id, pageOf(page));
  return { env: tenant.environment, id, endpoint, deliveries };
}

const DONE: Record<string, string> = {
  retried: 'The delivery will be attempted again now.',
  tested: 'A webhook_endpoint.test event is on its way to this endpoint; its delivery is listed below.',
};

export function view(
  session: Session,
  clock: () => Date,
  done: unknown,
  { env, id, endpoint, deliveries }: Awaited<ReturnType<typeof load>>,
  rotated?: { secret: string } | null,
): Html {
  const canWrite = session.user.role !== 'viewer';
  const previousUntil = endpoint.previousSecretExpiresAt;
  return html`${notice(done === 'retried' || done === 'tested' ? DONE[done] : undefined)}
${rotated === null ? shownOnce('new signing secret') : html``}
${when(rotated, () => secretBox('new-secret', 'New signing secret of this endpoint.', rotated!.secret))}
<section class="panel"><dl><dt>URL</dt><dd><code>${endpoint.url}</code></dd><dt>Status</dt><dd>${badge(endpoint.status)}</dd>
<dt>Events</dt><dd>${endpoint.events?.length ? endpoint.events.join(', ') : 'all'}</dd><dt>Created</dt><dd>${dateTime(endpoint.createdAt)}</dd>
${when(previousUntil !== null && new Date(previousUntil) > clock(), () => html`<dt>Previous secret</dt><dd>still signs, next to the new one, until ${dateTime(previousUntil!)}</dd>`)}</dl>
${when(
  canWrite,
  () => html`<div class="actions"><form class="inline" method="post" action="/${env}/webhooks/${id}/test">${csrfField(session.csrfToken)}<button type="submit" class="secondary">Send a test event</button></form>
<form class="inline" method="post" action="/${env}/webhooks/${id}/delete" data-confirm="Remove this endpoint?">${csrfField(session.csrfToken)}<button type="submit" class="danger">Remove endpoint</button></form></div>
<form class="inline" method="post" action="/${env}/webhooks/${id}/rotate-secret">${csrfField(session.csrfToken)}<label for="overlap">Old secret keeps signing for</label>
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
<td>${when(canWrite && delivery.status !== 'DELIVERED', () => html`<form class="inline" method="post" action="/${env}/webhooks/${id}/deliveries/${delivery.id}/retry">${csrfField(session.csrfToken)}<button type="submit" class="secondary">Retry</button></form>`)}</td></tr>`,
  ),
  'No deliveries yet.',
)}
${pager(`/${env}/webhooks/${id}`, {}, deliveries.pagination.page, deliveries.pagination.hasNextPage)}`;
}

export function register(app: WebApp, ctx: AppContext, render: Render) {
  const webhooks = createWebhookService(ctx);
  const flashes = createFlashes({ ...ctx, encryptionKey: ctx.instanceKeys.encryption });

  app.get('/:env/webhooks/:id', { schema }, async (request, reply) => {
    const { page, done, shown } = request.query;
    const session = request.session!;
    const data = await load(webhooks, tenantOf(request), request.params.id, page);
    const rotated = shown === undefined ? undefined : await flashes.take(session, 'webhook-secret', shown);
    const body = view(session, ctx.clock, done, data, rotated as { secret: string } | null | undefined);
    return render(request, reply, 'Webhook endpoint', body);
  });

  app.post(
    '/:env/webhooks/:id/rotate-secret',
    {
      config: { access: 'developer' },
      schema: {
        params: EnvIdParams,
        body: Type.Object({
          ...CsrfField,
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
      const { id } = request.params;
      const rotated = await webhooks.rotateSecret(tenant, id, Number(request.body.expiresIn));
      const shown = await flashes.put(request.session!, 'webhook-secret', { secret: rotated.secret });
      return reply.redirect(`/${tenant.environment}/webhooks/${id}?shown=${shown}`, 303);
    },
  );

  app.post(
    '/:env/webhooks/:id/delete',
    { config: { access: 'developer' }, schema: { params: EnvIdParams, body: Type.Object(CsrfField) } },
    async (request, reply) => {
      const tenant = tenantOf(request);
      await webhooks.remove(tenant, request.params.id);
      return reply.redirect(`/${tenant.environment}/webhooks?done=deleted`, 303);
    },
  );

  app.post(
    '/:env/webhooks/:id/test',
    { config: { access: 'developer' }, schema: { params: EnvIdParams, body: Type.Object(CsrfField) } },
    async (request, reply) => {
      const tenant = tenantOf(request);
      const { id } = request.params;
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
        body: Type.Object(CsrfField),
      },
    },
    async (request, reply) => {
      const tenant = tenantOf(request);
      const { id, deliveryId } = request.params;
      await webhooks.retry(tenant, id, deliveryId);
      return reply.redirect(`/${tenant.environment}/webhooks/${id}?done=retried`, 303);
    },
  );
}
