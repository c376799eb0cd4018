/** Team: who can sign in to the project's dashboard, and with which role. Changes are for admins. */
import { Type } from 'typebox';
import type { AppContext } from '../../../context.ts';
import { AppError } from '../../../core/errors.ts';
import { StringEnum } from '../../../http/schemas.ts';
import { type Html, html } from '../../../lib/html.ts';
import { createFlashes } from '../../../modules/web-users/flashes.ts';
import {
  createWebUserService,
  DASHBOARD_ROLES,
  type WebUserService,
  webActor,
} from '../../../modules/web-users/service.ts';
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

const ROLE_HELP = 'admin: everything · developer: keys, webhooks, request log · viewer: read only';

export const schema = {
  params: EnvParams,
  querystring: Type.Object({ done: Type.Optional(Type.Unknown()), shown: Type.Optional(Type.Unknown()) }),
};

const DONE: Record<string, string> = {
  role: 'Role changed.',
  removed: 'User removed; their sessions have ended.',
};

export const load = (users: WebUserService, projectId: string) => users.list(projectId);

/** An invitation refused, shown again as typed with the message beside the e-mail field. */
type Refused = { email: string; role: string; message: string };

/** The person's words for why an invitation was refused; undefined for a fault the page cannot explain. */
function refusal(error: unknown): string | undefined {
  if (!(error instanceof AppError)) return undefined;
  if (error.code === 'conflict')
    return 'Someone with this e-mail address already has a user; invite another address.';
  if (error.code === 'invalid_request') return 'Enter an e-mail address, such as ana@partner.example.';
  return undefined;
}

export function view(
  session: Session,
  env: string,
  done: unknown,
  members: Awaited<ReturnType<typeof load>>,
  invited?: { email: string; inviteUrl: string } | null,
  refused?: Refused,
): Html {
  const admin = session.user.role === 'admin';
  const roleSelect = (id: string, current: string, label: string) =>
    html`<select id="${id}" name="role" aria-label="${label}">${DASHBOARD_ROLES.map(
      (role) => html`<option value="${role}"${role === current ? html` selected` : html``}>${role}</option>`,
    )}</select>`;
  return html`${notice(DONE[typeof done === 'string' ? done : ''])}
${invited === null ? shownOnce('invitation link') : html``}
${when(invited, () => secretBox('invite-url', `Invitation link for ${invited!.email} (single use, valid 7 days).`, invited!.inviteUrl))}
${when(
  admin,
  () => html`<section class="panel" aria-labelledby="invite"><h2 id="invite">Invite someone</h2>
<form method="post" action="/${env}/team">${csrfField(session.csrfToken)}<div class="formrow">
<div class="field"><label for="invite-email">E-mail</label><input id="invite-email" name="email" type="email" required maxlength="254" value="${refused?.email ?? ''}"${invalidAttrs('invite-email', refused?.message)}>
${fieldError('invite-email', refused?.message)}</div>
<div class="field"><label for="invite-role">Role</label>${roleSelect('invite-role', refused?.role ?? 'developer', 'Role of the invited person')}</div>
<div class="field"><button type="submit">Create invitation</button></div></div>
<p class="hint">${ROLE_HELP}</p></form></section>`,
)}
${table(
  ['E-mail', 'Role', 'Status', 'Since', ''],
  members.map(
    (member) => html`<tr><td>${member.email}${member.id === session.user.id ? ' (you)' : ''}</td>
<td>${
      admin && member.id !== session.user.id
        ? html`<form class="inline" method="post" action="/${env}/team/${member.id}/role">${csrfField(session.csrfToken)}${roleSelect(`role-${member.id}`, member.role, `Role of ${member.email}`)} <button type="submit" class="secondary">Save</button></form>`
        : html`${member.role}`
    }</td>
<td>${badge(member.status)}${member.totpEnabled ? ' · 2-step' : ''}</td><td>${dateTime(member.createdAt)}</td>
<td>${when(
      admin && member.id !== session.user.id,
      () =>
        html`<form class="inline" method="post" action="/${env}/team/${member.id}/remove" data-confirm="Remove ${member.email}?">${csrfField(session.csrfToken)}<button type="submit" class="danger" aria-label="Remove ${member.email}">Remove</button></form>`,
    )}</td></tr>`,
  ),
  'No users.',
)}`;
}

export function register(app: WebApp, ctx: AppContext, render: Render) {
  const users = createWebUserService({ ...ctx, encryptionKey: ctx.instanceKeys.encryption });

  const flashes = createFlashes({ ...ctx, encryptionKey: ctx.instanceKeys.encryption });

  app.get('/:env/team', { schema }, async (request, reply) => {
    const { projectId, environment } = tenantOf(request);
    const { done, shown } = request.query;
    const session = request.session!;
    const invited = shown === undefined ? undefined : await flashes.take(session, 'invitation', shown);
    const members = await load(users, projectId);
    const page = view(session, environment, done, members, invited as { email: string; inviteUrl: string });
    return render(request, reply, 'Team', page);
  });

  app.post(
    '/:env/team',
    {
      config: { access: 'admin' },
      schema: {
        params: EnvParams,
        body: Type.Object({
          ...CsrfField,
          email: Type.String({ maxLength: 254 }),
          role: StringEnum(DASHBOARD_ROLES),
        }),
      },
    },
    async (request, reply) => {
      const { projectId, environment } = tenantOf(request);
      const { body } = request;
      let invited: Awaited<ReturnType<WebUserService['invite']>>;
      try {
        invited = await users.invite(
          webActor(request.session!.user),
          { surface: 'dashboard', projectId, role: body.role },
          body.email,
        );
      } catch (error) {
        const message = refusal(error);
        if (message === undefined) throw error;
        const refused = { email: body.email, role: body.role, message };
        const page = view(
          request.session!,
          environment,
          undefined,
          await load(users, projectId),
          undefined,
          refused,
        );
        return render(request, reply, 'Team', page, 400);
      }
      const shown = await flashes.put(request.session!, 'invitation', {
        email: invited.email,
        inviteUrl: invited.inviteUrl,
      });
      return reply.redirect(`/${environment}/team?shown=${shown}`, 303);
    },
  );

  app.post(
    '/:env/team/:id/role',
    {
      config: { access: 'admin' },
      schema: { params: EnvIdParams, body: Type.Object({ ...CsrfField, role: StringEnum(DASHBOARD_ROLES) }) },
    },
    async (request, reply) => {
      const { projectId, environment } = tenantOf(request);
      await users.changeRole(
        webActor(request.session!.user),
        projectId,
        request.params.id,
        request.body.role,
      );
      return reply.redirect(`/${environment}/team?done=role`, 303);
    },
  );

  app.post(
    '/:env/team/:id/remove',
    { config: { access: 'admin' }, schema: { params: EnvIdParams, body: Type.Object(CsrfField) } },
    async (request, reply) => {
      const { projectId, environment } = tenantOf(request);
      await users.remove(webActor(request.session!.user), projectId, request.params.id);
      return reply.redirect(`/${environment}/team?done=removed`, 303);
    },
  );
}
