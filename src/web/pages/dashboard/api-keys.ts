/** API keys of an environment: issued (the key shown once), listed, revoked. */
import { Type } from 'typebox';
import type { AppContext } from '../../../context.ts';
import type { Tenant } from '../../../lib/environment.ts';
import { type Html, html } from '../../../lib/html.ts';
import { createProjectService } from '../../../modules/projects/service.ts';
import { webActor } from '../../../modules/web-users/service.ts';
import type { Session } from '../../../modules/web-users/sessions.ts';
import { CsrfField, csrfField } from '../../kit/csrf.ts';
import { badge, dateTime, notice, secretBox, when } from '../../kit/parts.ts';
import type { WebApp } from '../../kit/surface.ts';
import { table } from '../../kit/table.ts';
import { EnvIdParams, EnvParams, type Render, tenantOf } from './frame.ts';

export const schema = {
  params: EnvParams,
  querystring: Type.Object({ done: Type.Optional(Type.Unknown()) }),
};

type Issued = { key: string; name: string | null };

export async function load(projects: ReturnType<typeof createProjectService>, tenant: Tenant) {
  return { env: tenant.environment, keys: await projects.listApiKeys(tenant.projectId, tenant.environment) };
}

export function view(
  session: Session,
  done: unknown,
  { env, keys }: Awaited<ReturnType<typeof load>>,
  issued?: Issued,
): Html {
  const canWrite = session.user.role !== 'viewer';
  return html`${notice(done === 'revoked' ? 'The key was revoked.' : undefined)}
${when(issued, () => secretBox('new-key', `New ${env} key${issued!.name ? ` "${issued!.name}"` : ''}.`, issued!.key))}
${when(
  canWrite,
  () => html`<section class="panel" aria-labelledby="create-key"><h2 id="create-key">Create a ${env} key</h2>
<form method="post" action="/${env}/api-keys">${csrfField(session.csrfToken)}
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
        html`<form class="inline" method="post" action="/${env}/api-keys/${key.id}/revoke" data-confirm="Revoke this key? Requests with it will be refused.">${csrfField(session.csrfToken)}<button type="submit" class="danger" aria-label="Revoke key ${key.prefix}">Revoke</button></form>`,
    )}</td></tr>`,
  ),
  `No ${env} keys yet.`,
)}`;
}

export function register(app: WebApp, ctx: AppContext, render: Render) {
  const projects = createProjectService(ctx);

  app.get('/:env/api-keys', { schema }, async (request, reply) => {
    const data = await load(projects, tenantOf(request));
    return render(request, reply, 'API keys', view(request.session!, request.query.done, data));
  });

  app.post(
    '/:env/api-keys',
    {
      config: { access: 'developer' },
      schema: {
        ...schema,
        body: Type.Object({ ...CsrfField, name: Type.Optional(Type.String({ maxLength: 200 })) }),
      },
    },
    async (request, reply) => {
      const tenant = tenantOf(request);
      const name = request.body.name?.trim() || null;
      const issued = await projects.issueApiKey(
        webActor(request.session!.user),
        tenant.projectId,
        tenant.environment,
        name,
      );
      reply.header('cache-control', 'no-store');
      const page = view(request.session!, request.query.done, await load(projects, tenant), {
        key: issued.key,
        name,
      });
      return render(request, reply, 'API keys', page, 201);
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
