/**
 * Webhook endpoints of an environment: listed, and added (the signing secret shown once, on the page the
 * form redirects to, so a reload adds nothing).
 */
import { Type } from 'typebox';
import type { AppContext } from '../../../context.ts';
import { AppError } from '../../../core/errors.ts';
import type { Tenant } from '../../../lib/environment.ts';
import { type Html, html } from '../../../lib/html.ts';
import { EVENT_TYPES } from '../../../modules/events/outbox.ts';
import { createFlashes } from '../../../modules/web-users/flashes.ts';
import type { Session } from '../../../modules/web-users/sessions.ts';
import { createWebhookService } from '../../../modules/webhooks/service.ts';
import { CsrfField, csrfField } from '../../kit/csrf.ts';
import {
  badge,
  dateTime,
  fieldError,
  invalidAttrs,
  notice,
  secretBox,
  shownOnce,
  when,
} from '../../kit/parts.ts';
import type { WebApp } from '../../kit/surface.ts';
import { table } from '../../kit/table.ts';
import { EnvParams, type Render, tenantOf } from './frame.ts';

/** The events worth ticking: a test event reaches an endpoint when asked for, whatever it subscribes to. */
const SUBSCRIBABLE = EVENT_TYPES.filter((type) => type !== 'webhook_endpoint.test');

export const schema = {
  params: EnvParams,
  querystring: Type.Object({ done: Type.Optional(Type.Unknown()), shown: Type.Optional(Type.Unknown()) }),
};

/** The secret of an endpoint just added; null when the address names one already shown. */
type Created = { secret: string } | null;
/** A refused addition, shown in the form as typed: a message beside the URL, or one above the form. */
type Refused = { url: string; events: string[]; urlMessage?: string; message?: string };

/** What the API says of a refused URL, said for the person who typed it. */
export function urlMessageFor(apiMessage: string, url: string): string {
  let host = '';
  try {
    host = new URL(url).hostname;
  } catch {}
  if (apiMessage === 'must be an absolute http or https URL' || apiMessage === 'must name a host')
    return 'Enter the full address of your endpoint, starting with https://, for example https://example.com/webhooks/ponte.';
  if (apiMessage === 'must use https or http')
    return 'The address must start with https:// (or http://): Ponte delivers events over HTTPS.';
  if (apiMessage === 'must not contain credentials')
    return 'Leave the user name and password out of the address: your endpoint checks each delivery by its signature instead.';
  if (apiMessage.endsWith('host not found'))
    return `No server named ${host || 'in this address'} could be found: check the address for typing mistakes.`;
  if (apiMessage.includes('address not allowed'))
    return `${host || 'This address'} is on a private network, which Ponte cannot deliver to: use an address reachable from the internet.`;
  return 'This address cannot receive events: check it and try again.';
}

export async function load(webhooks: ReturnType<typeof createWebhookService>, tenant: Tenant) {
  return { env: tenant.environment, list: await webhooks.list(tenant, { page: 1, limit: 50, offset: 0 }) };
}

export function view(
  session: Session,
  done: unknown,
  { env, list }: Awaited<ReturnType<typeof load>>,
  created?: Created,
  refused?: Refused,
): Html {
  const canWrite = session.user.role !== 'viewer';
  return html`${notice(done === 'deleted' ? 'The endpoint was removed.' : undefined)}
${created === null ? shownOnce('signing secret') : html``}
${when(created, () => secretBox('new-secret', 'Signing secret of the new endpoint.', created!.secret))}
${when(
  canWrite,
  () => html`<section class="panel" aria-labelledby="add-endpoint"><h2 id="add-endpoint">Add an endpoint</h2>
${notice(refused?.message, 'error')}
<form method="post" action="/${env}/webhooks">${csrfField(session.csrfToken)}
<div class="field"><label for="url">URL</label><input id="url" name="url" type="url" required maxlength="2048" placeholder="https://example.com/webhooks/ponte" value="${refused?.url ?? ''}"${invalidAttrs('url', refused?.urlMessage)}>
${fieldError('url', refused?.urlMessage)}</div>
<fieldset class="field"><legend>Events <span class="hint">(none ticked: every event)</span></legend>
${SUBSCRIBABLE.map((type) => html`<label class="hint"><input type="checkbox" name="events" value="${type}"${refused?.events.includes(type) ? html` checked` : html``}> ${type}</label>`)}
</fieldset>
<button type="submit">Add endpoint</button></form></section>`,
)}
<h2>Endpoints</h2>
${table(
  ['URL', 'Events', 'Status', 'Created'],
  list.data.map(
    (endpoint) => html`<tr><td><a href="/${env}/webhooks/${endpoint.id}">${endpoint.url}</a></td>
<td>${endpoint.events?.length ? endpoint.events.join(', ') : 'all'}</td><td>${badge(endpoint.status)}</td><td>${dateTime(endpoint.createdAt)}</td></tr>`,
  ),
  `No ${env} endpoints yet.`,
)}`;
}

export function register(app: WebApp, ctx: AppContext, render: Render) {
  const webhooks = createWebhookService(ctx);
  const flashes = createFlashes({ ...ctx, encryptionKey: ctx.instanceKeys.encryption });

  app.get('/:env/webhooks', { schema }, async (request, reply) => {
    const { done, shown } = request.query;
    const session = request.session!;
    const created = shown === undefined ? undefined : await flashes.take(session, 'webhook-secret', shown);
    const data = await load(webhooks, tenantOf(request));
    return render(request, reply, 'Webhooks', view(session, done, data, created as Created | undefined));
  });

  app.post(
    '/:env/webhooks',
    {
      config: { access: 'developer' },
      schema: {
        ...schema,
        body: Type.Object({
          ...CsrfField,
          url: Type.String({ maxLength: 2048 }),
          events: Type.Optional(Type.Union([Type.String(), Type.Array(Type.String(), { maxItems: 50 })])),
        }),
      },
    },
    async (request, reply) => {
      const { body } = request;
      const tenant = tenantOf(request);
      const page = async (refused: Refused) =>
        view(request.session!, undefined, await load(webhooks, tenant), undefined, refused);
      const picked =
        body.events === undefined ? [] : Array.isArray(body.events) ? body.events : [body.events];
      const events = picked.filter((type): type is (typeof EVENT_TYPES)[number] =>
        (EVENT_TYPES as readonly string[]).includes(type),
      );
      let created: Awaited<ReturnType<typeof webhooks.create>>;
      try {
        created = await webhooks.create(tenant, {
          url: body.url.trim(),
          events: events.length > 0 ? events : undefined,
        });
      } catch (error) {
        if (!(error instanceof AppError) || error.status >= 500) throw error;
        const onUrl = (error.errors ?? []).find((e) => e.pointer === '/body/url');
        const refused: Refused = onUrl
          ? { url: body.url, events, urlMessage: urlMessageFor(onUrl.message, body.url.trim()) }
          : { url: body.url, events, message: error.message };
        return render(request, reply, 'Webhooks', await page(refused), error.status);
      }
      const shown = await flashes.put(request.session!, 'webhook-secret', { secret: created.secret });
      return reply.redirect(`/${tenant.environment}/webhooks?shown=${shown}`, 303);
    },
  );
}
