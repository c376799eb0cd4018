/**
 * API keys of an environment: issued, listed, revoked. A new key is shown once, on the page the creating
 * form redirects to (Post/Redirect/Get), so that a reload or Back creates nothing and shows it no more.
 */
import { Type } from 'typebox';
import type { AppContext } from '../../../context.ts';
import type { Tenant } from '../../../lib/environment.ts';
import { type Html, html } from '../../../lib/html.ts';
import { createProjectService } from '../../../modules/projects/service.ts';
import { createFlashes } from '../../../modules/web-users/flashes.ts';
import { webActor } from '../../../modules/web-users/service.ts';
import type { Session } from '../../../modules/web-users/sessions.ts';
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
import { EnvIdParams, EnvParams, type Render, tenantOf } from './frame.ts';

/** The longest key name kept (the form's input stops there; a longer one is refused beside the field). */
export const MAX_KEY_NAME = 200;

export const schema = {
  params: EnvParams,
  querystring: Type.Object({ done: Type.Optional(Type.Unknown()), shown: Type.Optional(Type.Unknown()) }),
};

type Issued = { key: string; name: string | null };
/** A refused form, shown again as typed with its field's message. */
type Refused = { name: string; message: string };

export async function load(projects: ReturnType<typeof createProjectService>, tenant: Tenant) {
  return { env: tenant.environment, keys: await projects.listApiKeys(tenant.projectId, tenant.environment) };
}

export function view(
  session: Session,
  done: unknown,
  { env, keys }: Awaited<ReturnType<typeof load>>,
  shown?: { issued: Issued | null },
  refused?: Refused,
): Html {
  const canWrite = session.user.role !== 'viewer';
  const issued = shown?.issued;
  return html`${notice(done === 'revoked' ? 'The key was revoked.' : undefined)}
${shown && !issued ? shownOnce('key') : html``}
${when(issued, () => secretBox('new-key', `New ${env} key${issued!.name ? ` "${issued!.name}"` : ''}.`, issued!.key))}
${when(
  canWrite,
  () => html`<section class="panel" aria-labelledby="create-key"><h2 id="create-key">Create a ${env} key</h2>
<form method="post" action="/${env}/api-keys">${csrfField(session.csrfToken)}
<div class="formrow"><div class="field"><label for="key-name">Name <span class="hint">(optional)</span></label>
<input id="key-name" name="name" maxlength="${String(MAX_KEY_NAME)}" placeholder="e.g. checkout server" value="${refused?.name ?? ''}"${invalidAttrs('key-name', refused?.message)}>
${fieldError('key-name', refused?.message)}</div>
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
        html`<form class="inline" method="post" action="/${env}/api-keys/${key.id}/revoke" data-confirm="Revoke this key? Requests with it will be refused.">${csrfField(session.csrfToken)}<button type="submit" class="danger" aria-label="Revoke key ${key.prefix}">Revoke</button></form>`,
    )}</td></tr>`,
  ),
  `No ${env} keys yet.`,
)}`;
}

export function register(app: WebApp, ctx: AppContext, render: Render) {
  const projects = createProjectService(ctx);
  const flashes = createFlashes({ ...ctx, encryptionKey: ctx.instanceKeys.encryption });

  app.get('/:env/api-keys', { schema }, async (request, reply) => {
    const { done, shown } = request.query;
    const session = request.session!;
    const issued = shown === undefined ? undefined : await flashes.take(session, 'api-key', shown);
    const data = await load(projects, tenantOf(request));
    const once = issued === undefined ? undefined : { issued: issued as Issued | null };
    return render(request, reply, 'API keys', view(session, done, data, once));
  });

  app.post(
    '/:env/api-keys',
    {
      config: { access: 'developer' },
      schema: {
        params: EnvParams,
        // Bounded for the parser only: a name over MAX_KEY_NAME is answered beside its field.
        body: Type.Object({ ...CsrfField, name: Type.Optional(Type.String({ maxLength: 4096 })) }),
      },
    },
    async (request, reply) => {
      const tenant = tenantOf(request);
      const session = request.session!;
      const typed = request.body.name ?? '';
      const name = typed.trim() || null;
      if (name !== null && [...name].length > MAX_KEY_NAME) {
        const refused = {
          name: typed,
          message: `A name can be at most ${MAX_KEY_NAME} characters; this one has ${[...name].length}.`,
        };
        const page = view(session, undefined, await load(projects, tenant), undefined, refused);
        return render(request, reply, 'API keys', page, 400);
      }
      const issued = await projects.issueApiKey(
        webActor(session.user),
        tenant.projectId,
        tenant.environment,
        name,
      );
      const shown = await flashes.put(session, 'api-key', { key: issued.key, name });
      return reply.redirect(`/${tenant.environment}/api-keys?shown=${shown}`, 303);
    },
  );

  app.post(
    '/:env/api-keys/:id/revoke',
    { config: { access: 'developer' }, schema: { params: EnvIdParams, body: Type.Object(CsrfField) } },
    async (request, reply) => {
      const tenant = tenantOf(request);
      await projects.revokeApiKey(webActor(request.session!.user), request.params.id, tenant);
      return reply.redirect(`/${tenant.environment}/api-keys?done=revoked`, 303);
    },
  );
}
