/** A project: its API keys (issued, shown once, revoked), its dashboard users, and its partner fees. */
import { Type } from 'typebox';
import type { AppContext } from '../../../context.ts';
import { AppError } from '../../../core/errors.ts';
import { StringEnum } from '../../../http/schemas.ts';
import { ENVIRONMENTS } from '../../../lib/environment.ts';
import { type Html, html } from '../../../lib/html.ts';
import { createPartnerFeeService } from '../../../modules/partner-fees/service.ts';
import { createProjectService } from '../../../modules/projects/service.ts';
import { createFlashes, type FlashValue } from '../../../modules/web-users/flashes.ts';
import {
  createWebUserService,
  DASHBOARD_ROLES,
  type WebUserService,
  webActor,
} from '../../../modules/web-users/service.ts';
import { CsrfField, csrfField } from '../../kit/csrf.ts';
import { badge, dateTime, notice, secretBox, shownOnce, when } from '../../kit/parts.ts';
import type { WebApp } from '../../kit/surface.ts';
import { table } from '../../kit/table.ts';
import {
  FeeBody,
  feeInput,
  feeTypeLabel,
  partnerFeeForms,
  percent,
  type RefusedFee,
  refusedFee,
} from '../shared/partner-fees.ts';
import { sendConsole } from './frame.ts';

const IdParams = Type.Object({ id: Type.String({ format: 'uuid' }) });
const MemberParams = Type.Object({
  id: Type.String({ format: 'uuid' }),
  userId: Type.String({ format: 'uuid' }),
});

export const schema = {
  params: IdParams,
  querystring: Type.Object({
    done: Type.Optional(Type.String({ maxLength: 20 })),
    key: Type.Optional(Type.Unknown()),
    invitation: Type.Optional(Type.Unknown()),
  }),
};

type Deps = {
  projects: ReturnType<typeof createProjectService>;
  users: WebUserService;
  fees: ReturnType<typeof createPartnerFeeService>;
};

export async function load({ projects, users, fees }: Deps, id: string) {
  const project = await projects.getProject(id);
  const [sandboxKeys, productionKeys, members, partnerFees] = await Promise.all([
    projects.listApiKeys(id, 'sandbox'),
    projects.listApiKeys(id, 'production'),
    users.list(id),
    fees.list(id),
  ]);
  return { id, project, keys: [...sandboxKeys, ...productionKeys], members, partnerFees };
}

export function view(
  csrf: string,
  { id, keys, members, partnerFees }: Awaited<ReturnType<typeof load>>,
  shown?: Html,
  refused?: RefusedFee,
): Html {
  return html`${shown ?? html``}
<section class="panel"><h2>API keys</h2><form method="post" action="/console/projects/${id}/api-keys">${csrfField(csrf)}<div class="formrow">
<div class="field"><label for="environment">Environment</label><select id="environment" name="environment">${ENVIRONMENTS.map((e) => html`<option value="${e}">${e}</option>`)}</select></div>
<div class="field"><label for="key-name">Name <span class="hint">(optional)</span></label><input id="key-name" name="name" maxlength="200"></div>
<div class="field"><button type="submit">Issue key</button></div></div></form>
${table(
  ['Name', 'Key', 'Environment', 'Status', ''],
  keys.map(
    (
      key,
    ) => html`<tr><td>${key.name ?? '—'}</td><td><code>${key.prefix}…</code></td><td>${key.environment}</td>
<td>${key.revokedAt ? badge('revoked') : badge('ACTIVE')}</td>
<td>${when(!key.revokedAt, () => html`<form class="inline" method="post" action="/console/projects/${id}/api-keys/${key.id}/revoke" data-confirm="Revoke this key?">${csrfField(csrf)}<button type="submit" class="danger" aria-label="Revoke key ${key.prefix}">Revoke</button></form>`)}</td></tr>`,
  ),
  'No keys.',
)}</section>
<section class="panel"><h2>Dashboard users</h2><form method="post" action="/console/projects/${id}/users">${csrfField(csrf)}<div class="formrow">
<div class="field"><label for="email">E-mail</label><input id="email" name="email" type="email" required maxlength="254"></div>
<div class="field"><label for="role">Role</label><select id="role" name="role">${DASHBOARD_ROLES.map((r) => html`<option value="${r}">${r}</option>`)}</select></div>
<div class="field"><button type="submit">Invite</button></div></div></form>
${table(
  ['E-mail', 'Role', 'Status', 'Since', ''],
  members.map(
    (m) =>
      html`<tr><td>${m.email}</td><td><form class="inline" method="post" action="/console/projects/${id}/users/${m.id}/role">${csrfField(csrf)}<select name="role" aria-label="Role of ${m.email}">${DASHBOARD_ROLES.map((r) => html`<option value="${r}"${r === m.role ? html` selected` : html``}>${r}</option>`)}</select> <button type="submit" class="secondary">Save</button></form></td><td>${badge(m.status)}</td><td>${dateTime(m.createdAt)}</td>
<td><form class="inline" method="post" action="/console/projects/${id}/users/${m.id}/remove" data-confirm="Remove ${m.email}? Their sessions end now.">${csrfField(csrf)}<button type="submit" class="danger" aria-label="Remove ${m.email}">Remove</button></form></td></tr>`,
  ),
  'No users.',
)}</section>
<section class="panel" aria-labelledby="partner-fees"><h2 id="partner-fees">Partner fees</h2>
<p class="hint">The project's own fee on top of the platform's, per transaction type, in both environments.</p>
${table(
  ['Transaction type', 'Partner fee', 'Last changed'],
  partnerFees.data.map(
    (fee) =>
      html`<tr><td>${feeTypeLabel(fee.transactionType)}</td><td>${percent(fee.bps)} + BRL ${fee.flat}</td><td>${dateTime(fee.updatedAt)}</td></tr>`,
  ),
  'No fees.',
)}
<h3>Change</h3>${partnerFeeForms(`/console/projects/${id}/partner-fees`, csrf, partnerFees.data, refused)}</section>`;
}

const DONE: Record<string, string> = {
  revoked: 'The key was revoked.',
  role: 'Role changed.',
  removed: 'User removed; their sessions have ended.',
  fee: 'Partner fee saved.',
};

export function register(app: WebApp, ctx: AppContext) {
  const projects = createProjectService(ctx);
  const users = createWebUserService({ ...ctx, encryptionKey: ctx.instanceKeys.encryption });
  const fees = createPartnerFeeService(ctx);
  const deps = { projects, users, fees };
  const flashes = createFlashes({ ...ctx, encryptionKey: ctx.instanceKeys.encryption });

  /** A new key or invitation link, shown once on the page the form redirects to. */
  const once = (value: FlashValue | null, what: string, show: (value: FlashValue) => Html) =>
    value === null ? shownOnce(what) : show(value);

  app.get('/console/projects/:id', { schema }, async (request, reply) => {
    const session = request.session!;
    const message = DONE[request.query.done ?? ''];
    const { key, invitation } = request.query;
    const data = await load(deps, request.params.id);
    let top = message ? notice(message) : undefined;
    if (key !== undefined) {
      const issued = await flashes.take(session, 'api-key', key);
      top = once(issued, 'key', (k) => secretBox('new-key', `New ${k.environment} key.`, k.key!));
    } else if (invitation !== undefined) {
      const invited = await flashes.take(session, 'invitation', invitation);
      top = once(invited, 'invitation link', (i) =>
        secretBox('invite-url', `Invitation link for ${i.email}.`, i.inviteUrl!),
      );
    }
    return sendConsole(request, reply, data.project.name, view(session.csrfToken, data, top));
  });

  app.post(
    '/console/projects/:id/api-keys',
    {
      schema: {
        params: IdParams,
        body: Type.Object({
          ...CsrfField,
          environment: StringEnum(ENVIRONMENTS),
          name: Type.Optional(Type.String({ maxLength: 200 })),
        }),
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const { body } = request;
      const issued = await projects.issueApiKey(
        webActor(request.session!.user),
        id,
        body.environment,
        body.name?.trim() || null,
      );
      const shown = await flashes.put(request.session!, 'api-key', {
        key: issued.key,
        environment: issued.environment,
      });
      return reply.redirect(`/console/projects/${id}?key=${shown}`, 303);
    },
  );

  app.post(
    '/console/projects/:id/api-keys/:keyId/revoke',
    {
      schema: {
        params: Type.Object({ id: Type.String({ format: 'uuid' }), keyId: Type.String({ format: 'uuid' }) }),
        body: Type.Object(CsrfField),
      },
    },
    async (request, reply) => {
      const { id, keyId } = request.params;
      const key = (await Promise.all(ENVIRONMENTS.map((e) => projects.listApiKeys(id, e))))
        .flat()
        .find((k) => k.id === keyId);
      await projects.revokeApiKey(
        webActor(request.session!.user),
        keyId,
        key ? { projectId: id, environment: key.environment } : { projectId: id, environment: 'sandbox' },
      );
      return reply.redirect(`/console/projects/${id}?done=revoked`, 303);
    },
  );

  app.post(
    '/console/projects/:id/users',
    {
      schema: {
        params: IdParams,
        body: Type.Object({
          ...CsrfField,
          email: Type.String({ maxLength: 254 }),
          role: StringEnum(DASHBOARD_ROLES),
        }),
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const { body } = request;
      const invited = await users.invite(
        webActor(request.session!.user),
        { surface: 'dashboard', projectId: id, role: body.role },
        body.email,
      );
      const shown = await flashes.put(request.session!, 'invitation', {
        email: invited.email,
        inviteUrl: invited.inviteUrl,
      });
      return reply.redirect(`/console/projects/${id}?invitation=${shown}`, 303);
    },
  );

  app.post(
    '/console/projects/:id/users/:userId/role',
    {
      schema: {
        params: MemberParams,
        body: Type.Object({ ...CsrfField, role: StringEnum(DASHBOARD_ROLES) }),
      },
    },
    async (request, reply) => {
      const { id, userId } = request.params;
      await users.changeRole(webActor(request.session!.user), id, userId, request.body.role);
      return reply.redirect(`/console/projects/${id}?done=role`, 303);
    },
  );

  app.post(
    '/console/projects/:id/users/:userId/remove',
    { schema: { params: MemberParams, body: Type.Object(CsrfField) } },
    async (request, reply) => {
      const { id, userId } = request.params;
      await users.remove(webActor(request.session!.user), id, userId);
      return reply.redirect(`/console/projects/${id}?done=removed`, 303);
    },
  );

  app.post(
    '/console/projects/:id/partner-fees',
    { schema: { params: IdParams, body: FeeBody } },
    async (request, reply) => {
      const { id } = request.params;
      try {
        await fees.set(webActor(request.session!.user), id, feeInput(request.body));
      } catch (error) {
        if (!(error instanceof AppError) || error.status !== 400) throw error;
        const data = await load(deps, id);
        const shown = notice('The fee was not saved: see the form below.', 'error');
        const refused = refusedFee(request.body, error);
        return sendConsole(
          request,
          reply,
          data.project.name,
          view(request.session!.csrfToken, data, shown, refused),
          400,
        );
      }
      return reply.redirect(`/console/projects/${id}?done=fee`, 303);
    },
  );
}
