/**
 * Settings: the name the project's customers see on the hosted pages (terms, verification), in place of
 * the project's internal name; left empty, the pages speak of "the service that sent you here". Every
 * signed-in user reads it; the project's admins change it (enforced on the server, and audited).
 */
import { Type } from 'typebox';
import type { AppContext } from '../../../context.ts';
import { AppError } from '../../../core/errors.ts';
import { type Html, html } from '../../../lib/html.ts';
import { createProjectService } from '../../../modules/projects/service.ts';
import { webActor } from '../../../modules/web-users/service.ts';
import type { Session } from '../../../modules/web-users/sessions.ts';
import { csrfField } from '../../kit/csrf.ts';
import { notice } from '../../kit/parts.ts';
import type { WebApp } from '../../kit/surface.ts';
import { EnvParams, type Render, tenantOf } from './frame.ts';

export const schema = {
  params: EnvParams,
  querystring: Type.Object({ done: Type.Optional(Type.String({ maxLength: 20 })) }),
};

const Body = Type.Object({
  _csrf: Type.Optional(Type.String({ maxLength: 64 })),
  displayName: Type.String({ maxLength: 1024 }),
});

type Message = { text: string; tone: 'ok' | 'error' };

export function view(
  session: Session,
  env: string,
  displayName: string | null,
  message?: Message,
  typed?: string,
): Html {
  const shown = typed ?? displayName ?? '';
  const isAdmin = session.user.role === 'admin';
  return html`${notice(message?.text, message?.tone)}
<section class="panel" aria-labelledby="display-name"><h2 id="display-name">Name your customers see</h2>
<p>The hosted pages your customers open (terms of service, identity and company verification) say
"<strong>${displayName ?? 'The service that sent you here'}</strong> works with Ponte". Set the name your customers
know you by; left empty, the pages use that neutral wording. The same name serves sandbox and production.</p>
${
  isAdmin
    ? html`<form method="post" action="/${env}/settings">${csrfField(session.csrfToken)}
<div class="field"><label for="displayName">Name shown to customers</label>
<input id="displayName" name="displayName" value="${shown}" maxlength="80" autocomplete="organization"></div>
<button type="submit">Save</button></form>`
    : html`<p class="hint">Only the project's admins can change it.</p>`
}
</section>`;
}

export function register(app: WebApp, ctx: AppContext, render: Render) {
  const projects = createProjectService(ctx);

  app.get('/:env/settings', { schema }, async (request, reply) => {
    const tenant = tenantOf(request);
    const message: Message | undefined =
      request.query.done === 'saved' ? { text: 'The name was saved.', tone: 'ok' } : undefined;
    const name = await projects.displayName(tenant.projectId);
    return render(request, reply, 'Settings', view(request.session!, tenant.environment, name, message));
  });

  app.post(
    '/:env/settings',
    { config: { access: 'admin' }, schema: { params: EnvParams, body: Body } },
    async (request, reply) => {
      const tenant = tenantOf(request);
      try {
        await projects.setDisplayName(
          webActor(request.session!.user),
          tenant.projectId,
          request.body.displayName,
        );
      } catch (error) {
        if (!(error instanceof AppError) || error.status !== 400) throw error;
        const name = await projects.displayName(tenant.projectId);
        const text = `Not saved: the name ${error.errors?.[0]?.message ?? error.message}.`;
        const body = view(
          request.session!,
          tenant.environment,
          name,
          { text, tone: 'error' },
          request.body.displayName,
        );
        return render(request, reply, 'Settings', body, 400);
      }
      return reply.redirect(`/${tenant.environment}/settings?done=saved`, 303);
    },
  );
}
