/** Platform pages of the console: projects with their keys and dashboard users, rates, transactions, audit log. */
import type { FastifyInstance } from 'fastify';
import { type Static, Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { AppError, invalidField, notFound } from '../../core/errors.ts';
import { StringEnum } from '../../http/schemas.ts';
import { ENVIRONMENTS, type Environment } from '../../lib/environment.ts';
import { listAuditLog } from '../../modules/operators/audit-log.ts';
import { createPartnerFeeService } from '../../modules/partner-fees/service.ts';
import { createProjectService } from '../../modules/projects/service.ts';
import { PAIRS, type Pair } from '../../modules/rates/repo.ts';
import { createRateService } from '../../modules/rates/service.ts';
import { requestedMoney } from '../../modules/transactions/presenter.ts';
import { createTransactionService } from '../../modules/transactions/read-service.ts';
import { createWebUserService, DASHBOARD_ROLES, webActor } from '../../modules/web-users/service.ts';
import { FeeBody, feeInput, feeTypeLabel, partnerFeeForms, percent, problemLine } from '../dashboard/fees.ts';
import { pageOf } from '../dashboard/render.ts';
import {
  badge,
  csrfField,
  dateTime,
  type Html,
  html,
  notice,
  pager,
  secretBox,
  table,
  when,
} from '../html.ts';
import { transactionDetail } from '../transaction-detail.ts';
import {
  readTransactionFilter,
  type TransactionFilterInput,
  TransactionFilterQuery,
  transactionFilterFields,
} from '../transaction-search.ts';
import { sendConsole } from './frame.ts';

const Csrf = { _csrf: Type.Optional(Type.String({ maxLength: 64 })) };
const IdParams = Type.Object({ id: Type.String({ format: 'uuid' }) });
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function registerPlatformPages(app: FastifyInstance, ctx: AppContext) {
  const projects = createProjectService(ctx);
  const users = createWebUserService({ ...ctx, encryptionKey: ctx.instanceKeys.encryption });
  const rates = createRateService(ctx);
  const transactions = createTransactionService(ctx);
  const fees = createPartnerFeeService(ctx);

  // ---- Projects
  app.get(
    '/console/projects',
    { schema: { querystring: Type.Object({ page: Type.Optional(Type.String({ maxLength: 7 })) }) } },
    async (request, reply) => {
      const page = pageOf((request.query as { page?: string }).page, 50);
      const list = await projects.listProjects(page.limit + 1, page.offset);
      const csrf = request.session!.csrfToken;
      const body = html`<section class="panel"><h2>New project</h2><form method="post" action="/console/projects">${csrfField(csrf)}<div class="formrow">
<div class="field"><label for="name">Partner name</label><input id="name" name="name" required maxlength="200"></div>
<div class="field"><button type="submit">Create project</button></div></div></form></section>
${table(
  ['Name', 'Id', 'Created'],
  list
    .slice(0, page.limit)
    .map(
      (p) =>
        html`<tr><td><a href="/console/projects/${p.id}">${p.name}</a></td><td><code>${p.id}</code></td><td>${dateTime(p.createdAt)}</td></tr>`,
    ),
  'No projects.',
)}${pager('/console/projects', {}, page.page, list.length > page.limit)}`;
      return sendConsole(request, reply, 'Projects', body);
    },
  );

  app.post(
    '/console/projects',
    { schema: { body: Type.Object({ ...Csrf, name: Type.String({ minLength: 1, maxLength: 200 }) }) } },
    async (request, reply) => {
      const name = (request.body as { name: string }).name.trim();
      if (!name) throw invalidField('/body/name', 'must not be blank');
      const project = await projects.createProject(webActor(request.session!.user), name);
      return reply.redirect(`/console/projects/${project.id}`, 303);
    },
  );

  async function projectPage(id: string, csrf: string, shown?: Html): Promise<{ title: string; body: Html }> {
    const project = await projects.getProject(id);
    const [sandboxKeys, productionKeys, members, partnerFees] = await Promise.all([
      projects.listApiKeys(id, 'sandbox'),
      projects.listApiKeys(id, 'production'),
      users.list(id),
      fees.list(id),
    ]);
    const keys = [...sandboxKeys, ...productionKeys];
    const body = html`${shown ?? html``}
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
<h3>Change</h3>${partnerFeeForms(`/console/projects/${id}/partner-fees`, csrf, partnerFees.data)}</section>`;
    return { title: project.name, body };
  }

  app.get(
    '/console/projects/:id',
    {
      schema: {
        params: IdParams,
        querystring: Type.Object({ done: Type.Optional(Type.String({ maxLength: 20 })) }),
      },
    },
    async (request, reply) => {
      const message = {
        revoked: 'The key was revoked.',
        role: 'Role changed.',
        removed: 'User removed; their sessions have ended.',
        fee: 'Partner fee saved.',
      }[(request.query as { done?: string }).done ?? ''];
      const done = message ? notice(message) : undefined;
      const { title, body } = await projectPage(
        (request.params as { id: string }).id,
        request.session!.csrfToken,
        done,
      );
      return sendConsole(request, reply, title, body);
    },
  );

  app.post(
    '/console/projects/:id/api-keys',
    {
      schema: {
        params: IdParams,
        body: Type.Object({
          ...Csrf,
          environment: StringEnum(ENVIRONMENTS),
          name: Type.Optional(Type.String({ maxLength: 200 })),
        }),
      },
    },
    async (request, reply) => {
      const id = (request.params as { id: string }).id;
      const body = request.body as { environment: Environment; name?: string };
      const issued = await projects.issueApiKey(
        webActor(request.session!.user),
        id,
        body.environment,
        body.name?.trim() || null,
      );
      const page = await projectPage(
        id,
        request.session!.csrfToken,
        secretBox('new-key', `New ${issued.environment} key.`, issued.key),
      );
      return sendConsole(request, reply, page.title, page.body, 201);
    },
  );

  app.post(
    '/console/projects/:id/api-keys/:keyId/revoke',
    {
      schema: {
        params: Type.Object({ id: Type.String({ format: 'uuid' }), keyId: Type.String({ format: 'uuid' }) }),
        body: Type.Object(Csrf),
      },
    },
    async (request, reply) => {
      const { id, keyId } = request.params as { id: string; keyId: string };
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
          ...Csrf,
          email: Type.String({ maxLength: 254 }),
          role: StringEnum(DASHBOARD_ROLES),
        }),
      },
    },
    async (request, reply) => {
      const id = (request.params as { id: string }).id;
      const body = request.body as { email: string; role: (typeof DASHBOARD_ROLES)[number] };
      const invited = await users.invite(
        webActor(request.session!.user),
        { surface: 'dashboard', projectId: id, role: body.role },
        body.email,
      );
      const page = await projectPage(
        id,
        request.session!.csrfToken,
        secretBox('invite-url', `Invitation link for ${invited.email}.`, invited.inviteUrl),
      );
      return sendConsole(request, reply, page.title, page.body, 201);
    },
  );

  const MemberParams = Type.Object({
    id: Type.String({ format: 'uuid' }),
    userId: Type.String({ format: 'uuid' }),
  });

  app.post(
    '/console/projects/:id/users/:userId/role',
    {
      schema: {
        params: MemberParams,
        body: Type.Object({ ...Csrf, role: StringEnum(DASHBOARD_ROLES) }),
      },
    },
    async (request, reply) => {
      const { id, userId } = request.params as { id: string; userId: string };
      const { role } = request.body as { role: (typeof DASHBOARD_ROLES)[number] };
      await users.changeRole(webActor(request.session!.user), id, userId, role);
      return reply.redirect(`/console/projects/${id}?done=role`, 303);
    },
  );

  app.post(
    '/console/projects/:id/users/:userId/remove',
    { schema: { params: MemberParams, body: Type.Object(Csrf) } },
    async (request, reply) => {
      const { id, userId } = request.params as { id: string; userId: string };
      await users.remove(webActor(request.session!.user), id, userId);
      return reply.redirect(`/console/projects/${id}?done=removed`, 303);
    },
  );

  app.post(
    '/console/projects/:id/partner-fees',
    { schema: { params: IdParams, body: FeeBody } },
    async (request, reply) => {
      const id = (request.params as { id: string }).id;
      try {
        await fees.set(webActor(request.session!.user), id, feeInput(request.body as Static<typeof FeeBody>));
      } catch (error) {
        if (!(error instanceof AppError) || error.status !== 400) throw error;
        const page = await projectPage(id, request.session!.csrfToken, notice(problemLine(error), 'error'));
        return sendConsole(request, reply, page.title, page.body, 400);
      }
      return reply.redirect(`/console/projects/${id}?done=fee`, 303);
    },
  );

  // ---- Rates
  app.get(
    '/console/rates',
    { schema: { querystring: Type.Object({ done: Type.Optional(Type.String({ maxLength: 20 })) }) } },
    async (request, reply) => {
      const current = await rates.list();
      const csrf = request.session!.csrfToken;
      const body = html`${notice((request.query as { done?: string }).done ? 'Rate set.' : undefined)}
${table(
  ['Pair', 'Rate', 'Set by', 'Since'],
  current.data.map(
    (r) =>
      html`<tr><td>${r.pair}</td><td><code>${r.rate}</code></td><td>${r.setBy}</td><td>${dateTime(r.setAt)}</td></tr>`,
  ),
  'No rates set.',
)}
<section class="panel"><h2>Set a rate</h2><form method="post" action="/console/rates">${csrfField(csrf)}<div class="formrow">
<div class="field"><label for="pair">Pair</label><select id="pair" name="pair">${PAIRS.map((p) => html`<option value="${p}">${p}</option>`)}</select></div>
<div class="field"><label for="rate">Stablecoin per BRL</label><input id="rate" name="rate" required inputmode="decimal" placeholder="0.18"></div>
<div class="field"><button type="submit">Set rate</button></div></div></form></section>`;
      return sendConsole(request, reply, 'Rates', body);
    },
  );

  app.post(
    '/console/rates',
    {
      schema: {
        body: Type.Object({ ...Csrf, pair: StringEnum(PAIRS), rate: Type.String({ maxLength: 40 }) }),
      },
    },
    async (request, reply) => {
      const body = request.body as { pair: Pair; rate: string };
      await rates.set(webActor(request.session!.user), body.pair, body.rate.trim());
      return reply.redirect('/console/rates?done=1', 303);
    },
  );

  // ---- Transactions
  app.get(
    '/console/transactions',
    {
      schema: {
        querystring: Type.Object({
          ...TransactionFilterQuery,
          id: Type.Optional(Type.String({ maxLength: 64 })),
          projectId: Type.Optional(Type.String({ maxLength: 64 })),
          environment: Type.Optional(Type.String({ maxLength: 20 })),
        }),
      },
    },
    async (request, reply) => {
      const q = request.query as TransactionFilterInput & {
        id?: string;
        projectId?: string;
        environment?: string;
        page?: string;
      };
      const errors: { pointer: string; message: string }[] = [];
      const uuid = (name: 'id' | 'projectId') => {
        const value = q[name]?.trim() || undefined;
        if (value && !UUID.test(value)) errors.push({ pointer: `/query/${name}`, message: 'is not an id' });
        return value;
      };
      const id = uuid('id');
      const projectId = uuid('projectId');
      const environment = q.environment?.trim() || undefined;
      if (environment && !(ENVIRONMENTS as readonly string[]).includes(environment))
        errors.push({ pointer: '/query/environment', message: 'must be sandbox or production' });
      if (errors.length > 0) throw new AppError('invalid_request', 'Some filters are invalid', { errors });
      const { filter, shown } = readTransactionFilter(q);
      const searched = Object.values({ id, projectId, environment, ...shown }).some(Boolean);
      const [result, all] = await Promise.all([
        searched
          ? transactions.search(
              { projectId, environment: environment as Environment | undefined },
              { ...filter, id },
              pageOf(q.page),
            )
          : null,
        projects.listProjects(500, 0),
      ]);
      const names = new Map(all.map((p) => [p.id, p.name]));
      const body = html`<form class="panel formrow" method="get" action="/console/transactions" role="search" aria-label="Search transactions">
<div class="field"><label for="id">Transaction id</label><input id="id" name="id" value="${id ?? ''}" placeholder="transaction UUID"></div>
<div class="field"><label for="projectId">Project</label><select id="projectId" name="projectId"><option value="">Any</option>${all.map((p) => html`<option value="${p.id}"${p.id === projectId ? html` selected` : html``}>${p.name}</option>`)}</select></div>
<div class="field"><label for="environment">Environment</label><select id="environment" name="environment"><option value="">Any</option>${ENVIRONMENTS.map((e) => html`<option value="${e}"${e === environment ? html` selected` : html``}>${e}</option>`)}</select></div>
${transactionFilterFields(shown)}
<div class="field"><button type="submit">Search</button></div></form>
${
  result
    ? html`${table(
        ['Transaction', 'Project', 'Customer', 'Type', 'Status', 'Amount', 'Created'],
        result.data.map(
          ({
            transaction: t,
            projectId: owner,
            environment: env,
          }) => html`<tr><td><a href="/console/transactions/${t.id}"><code>${t.id}</code></a></td>
<td><a href="/console/projects/${owner}">${names.get(owner) ?? owner}</a><br><span class="hint">${env}</span></td>
<td><code>${t.customerId}</code></td><td>${t.type}</td><td>${badge(t.status)}</td>
<td>${requestedMoney(t).currency} ${requestedMoney(t).amount}</td><td>${dateTime(t.createdAt)}</td></tr>`,
        ),
        'No transactions match.',
      )}${pager('/console/transactions', { id, projectId, environment, ...shown }, result.pagination.page, result.pagination.hasNextPage)}`
    : html`<p class="empty">Search by transaction id, project, customer, status, type, currency or dates, across every project.</p>`
}`;
      return sendConsole(request, reply, 'Transactions', body);
    },
  );

  app.get('/console/transactions/:id', { schema: { params: IdParams } }, async (request, reply) => {
    const id = (request.params as { id: string }).id;
    const [found] = (await transactions.search({}, { id }, { page: 1, limit: 1, offset: 0 })).data;
    if (!found) throw notFound('Transaction');
    const project = await projects.getProject(found.projectId);
    const tx = found.transaction;
    const body = await transactionDetail(tx, {
      customer: html`<code>${tx.customerId}</code> <a href="/console/transactions?customerId=${tx.customerId}">(its transactions)</a>`,
      partnerFeeLabel: 'Partner fee',
      extra: html`<dt>Project</dt><dd><a href="/console/projects/${project.id}">${project.name}</a></dd><dt>Environment</dt><dd>${found.environment}</dd>`,
    });
    return sendConsole(request, reply, `Transaction ${tx.id.slice(0, 8)}`, body);
  });

  // ---- Audit log
  app.get(
    '/console/audit',
    {
      schema: {
        querystring: Type.Object({
          action: Type.Optional(Type.String({ maxLength: 100 })),
          resourceId: Type.Optional(Type.String({ maxLength: 64 })),
          page: Type.Optional(Type.String({ maxLength: 7 })),
        }),
      },
    },
    async (request, reply) => {
      const q = request.query as { action?: string; resourceId?: string; page?: string };
      const action = q.action?.trim() || undefined;
      const resourceId =
        q.resourceId?.trim() && UUID.test(q.resourceId.trim()) ? q.resourceId.trim() : undefined;
      const entries = await listAuditLog(ctx.db, { action, resourceId }, pageOf(q.page, 50));
      const body = html`<form class="panel formrow" method="get" action="/console/audit" role="search">
<div class="field"><label for="action">Action</label><input id="action" name="action" value="${action ?? ''}" placeholder="limit_request.reviewed"></div>
<div class="field"><label for="resourceId">Resource id</label><input id="resourceId" name="resourceId" value="${resourceId ?? ''}"></div>
<div class="field"><button type="submit">Filter</button></div></form>
${table(
  ['When', 'Who', 'Action', 'Resource', 'Change'],
  entries.data.map(
    (e) => html`<tr><td>${dateTime(e.createdAt)}</td><td>${e.actor.name}</td><td><code>${e.action}</code></td>
<td>${e.resourceType}<br><code>${e.resourceId ?? ''}</code></td>
<td>${when(e.after ?? e.before, () => html`<details><summary>Details</summary><pre class="mono">${JSON.stringify({ before: e.before, after: e.after }, null, 2)}</pre></details>`)}</td></tr>`,
  ),
  'No entries.',
)}${pager('/console/audit', { action, resourceId }, entries.pagination.page, entries.pagination.hasNextPage)}`;
      return sendConsole(request, reply, 'Audit log', body);
    },
  );
}
