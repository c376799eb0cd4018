/** Team: who can sign in to the project's dashboard, and with which role. Changes are for admins. */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { StringEnum } from '../../http/schemas.ts';
import { html } from '../../lib/html.ts';
import { createWebUserService, DASHBOARD_ROLES, webActor } from '../../modules/web-users/service.ts';
import { csrfField } from '../kit/csrf.ts';
import { badge, dateTime, notice, secretBox, when } from '../kit/parts.ts';
import { table } from '../kit/table.ts';
import { EnvIdParams, EnvParams, tenantOf } from './frame.ts';
import type { Render } from './render.ts';

const Csrf = { _csrf: Type.Optional(Type.String({ maxLength: 64 })) };
const ROLE_HELP = 'admin: everything · developer: keys, webhooks, request log · viewer: read only';

export function registerTeamPages(app: FastifyInstance, ctx: AppContext, render: Render) {
  const users = createWebUserService({ ...ctx, encryptionKey: ctx.instanceKeys.encryption });

  async function teamPage(request: Parameters<Render>[0], invited?: { email: string; inviteUrl: string }) {
    const session = request.session!;
    const { projectId, environment: env } = tenantOf(request);
    const admin = session.user.role === 'admin';
    const members = await users.list(projectId);
    const done = { role: 'Role changed.', removed: 'User removed; their sessions have ended.' }[
      (request.query as { done?: string }).done ?? ''
    ];
    const roleSelect = (id: string, current: string, label: string) =>
      html`<select id="${id}" name="role" aria-label="${label}">${DASHBOARD_ROLES.map(
        (role) =>
          html`<option value="${role}"${role === current ? html` selected` : html``}>${role}</option>`,
      )}</select>`;
    return html`${notice(done)}
${when(invited, () => secretBox('invite-url', `Invitation link for ${invited!.email} (single use, valid 7 days).`, invited!.inviteUrl))}
${when(
  admin,
  () => html`<section class="panel" aria-labelledby="invite"><h2 id="invite">Invite someone</h2>
<form method="post" action="/${env}/team">${csrfField(session.csrfToken)}<div class="formrow">
<div class="field"><label for="invite-email">E-mail</label><input id="invite-email" name="email" type="email" required maxlength="254"></div>
<div class="field"><label for="invite-role">Role</label>${roleSelect('invite-role', 'developer', 'Role of the invited person')}</div>
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

  app.get('/:env/team', { schema: { params: EnvParams } }, async (request, reply) =>
    render(request, reply, 'Team', await teamPage(request)),
  );

  app.post(
    '/:env/team',
    {
      config: { access: 'admin' },
      schema: {
        params: EnvParams,
        body: Type.Object({
          ...Csrf,
          email: Type.String({ maxLength: 254 }),
          role: StringEnum(DASHBOARD_ROLES),
        }),
      },
    },
    async (request, reply) => {
      const { projectId } = tenantOf(request);
      const body = request.body as { email: string; role: (typeof DASHBOARD_ROLES)[number] };
      const invited = await users.invite(
        webActor(request.session!.user),
        { surface: 'dashboard', projectId, role: body.role },
        body.email,
      );
      reply.header('cache-control', 'no-store');
      return render(request, reply, 'Team', await teamPage(request, invited), 201);
    },
  );

  app.post(
    '/:env/team/:id/role',
    {
      config: { access: 'admin' },
      schema: { params: EnvIdParams, body: Type.Object({ ...Csrf, role: StringEnum(DASHBOARD_ROLES) }) },
    },
    async (request, reply) => {
      const { projectId, environment } = tenantOf(request);
      const id = (request.params as { id: string }).id;
      await users.changeRole(
        webActor(request.session!.user),
        projectId,
        id,
        (request.body as { role: (typeof DASHBOARD_ROLES)[number] }).role,
      );
      return reply.redirect(`/${environment}/team?done=role`, 303);
    },
  );

  app.post(
    '/:env/team/:id/remove',
    { config: { access: 'admin' }, schema: { params: EnvIdParams, body: Type.Object(Csrf) } },
    async (request, reply) => {
      const { projectId, environment } = tenantOf(request);
      await users.remove(webActor(request.session!.user), projectId, (request.params as { id: string }).id);
      return reply.redirect(`/${environment}/team?done=removed`, 303);
    },
  );
}
