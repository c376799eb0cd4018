/** Projects: every partner's project, and a new one. */
import { Type } from 'typebox';
import type { AppContext } from '../../../context.ts';
import { invalidField } from '../../../core/errors.ts';
import { type Html, html } from '../../../lib/html.ts';
import { createProjectService } from '../../../modules/projects/service.ts';
import { webActor } from '../../../modules/web-users/service.ts';
import { CsrfField, csrfField } from '../../kit/csrf.ts';
import { dateTime } from '../../kit/parts.ts';
import type { WebApp } from '../../kit/surface.ts';
import { pageOf, pager, table } from '../../kit/table.ts';
import { sendConsole } from './frame.ts';

export const schema = { querystring: Type.Object({ page: Type.Optional(Type.String({ maxLength: 7 })) }) };

export async function load(projects: ReturnType<typeof createProjectService>, rawPage: string | undefined) {
  const page = pageOf(rawPage, 50);
  return { page, list: await projects.listProjects(page.limit + 1, page.offset) };
}

export function view(csrf: string, { page, list }: Awaited<ReturnType<typeof load>>): Html {
  return html`<section class="panel"><h2>New project</h2><form method="post" action="/console/projects">${csrfField(csrf)}<div class="formrow">
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
}

export function register(app: WebApp, ctx: AppContext) {
  const projects = createProjectService(ctx);

  app.get('/console/projects', { schema }, async (request, reply) => {
    const data = await load(projects, request.query.page);
    return sendConsole(request, reply, 'Projects', view(request.session!.csrfToken, data));
  });

  app.post(
    '/console/projects',
    { schema: { body: Type.Object({ ...CsrfField, name: Type.String({ minLength: 1, maxLength: 200 }) }) } },
    async (request, reply) => {
      const name = request.body.name.trim();
      if (!name) throw invalidField('/body/name', 'must not be blank');
      const project = await projects.createProject(webActor(request.session!.user), name);
      return reply.redirect(`/console/projects/${project.id}`, 303);
    },
  );
}
