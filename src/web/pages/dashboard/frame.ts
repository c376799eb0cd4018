/**
 * The dashboard's frame: navigation, the environment switch, who is signed in, and the tenant of a page;
 * `render` sends a page inside it, with the signed-in user's project named in it.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../../context.ts';
import { StringEnum } from '../../../http/schemas.ts';
import { ENVIRONMENTS, type Environment, type Tenant } from '../../../lib/environment.ts';
import { type Html, html } from '../../../lib/html.ts';
import { findProject } from '../../../modules/projects/service.ts';
import type { Session } from '../../../modules/web-users/sessions.ts';
import { csrfField } from '../../kit/csrf.ts';
import { sendHtml, shell } from '../../kit/layout.ts';

export const ASSETS = '/assets';
export const BRAND = 'Ponte Dashboard';

export const EnvParams = Type.Object({ env: StringEnum(ENVIRONMENTS) });
export const EnvIdParams = Type.Object({
  env: StringEnum(ENVIRONMENTS),
  id: Type.String({ format: 'uuid' }),
});

/** The signed-in user's project in the environment the address names: every query of a page uses this. */
export function tenantOf(request: { session: Session | null; params: { env: Environment } }): Tenant {
  return { projectId: request.session!.user.project_id!, environment: request.params.env };
}

/** The environment a page's address names, when its route has one. */
function envOf(params: unknown): Environment | undefined {
  if (typeof params !== 'object' || params === null || !('env' in params)) return undefined;
  return ENVIRONMENTS.find((env) => env === params.env);
}

const NAV = (env: string) => [
  { href: `/${env}`, label: 'Overview' },
  { href: `/${env}/customers`, label: 'Customers', section: 'Business' },
  { href: `/${env}/transactions`, label: 'Transactions', section: 'Business' },
  { href: `/${env}/limit-requests`, label: 'Limit requests', section: 'Business' },
  { href: `/${env}/api-keys`, label: 'API keys', section: 'Developers' },
  { href: `/${env}/webhooks`, label: 'Webhooks', section: 'Developers' },
  { href: `/${env}/requests`, label: 'Request log', section: 'Developers' },
  { href: `/${env}/team`, label: 'Team', section: 'Settings' },
  { href: `/${env}/fees`, label: 'Fees', section: 'Settings' },
  { href: `/${env}/settings`, label: 'Display name', section: 'Settings' },
  { href: '/account', label: 'Your account', section: 'Settings' },
];

/** The same page in the other environment: the path with its first segment swapped, no query. */
function switchTo(request: FastifyRequest, env: Environment): string {
  const path = request.url.split('?')[0]!;
  const match = /^\/(sandbox|production)(\/[^/]+)?/.exec(path);
  return match ? `/${env}${match[2] ?? ''}` : `/${env}`;
}

export function dashboardPage(request: FastifyRequest, title: string, body: Html, projectName: string): Html {
  const session = request.session!;
  const env = envOf(request.params);
  const navEnv = env ?? 'sandbox';
  const path = request.url.split('?')[0]!;
  const nav = NAV(navEnv);
  const current =
    nav
      .map((item) => item.href)
      .filter((href) => path === href || path.startsWith(`${href}/`))
      .sort((a, b) => b.length - a.length)[0] ?? '';
  const envSwitch = env
    ? html`<nav class="envswitch" aria-label="Environment">${ENVIRONMENTS.map(
        (name) =>
          html`<a href="${switchTo(request, name)}" aria-current="${name === env ? 'true' : 'false'}">${name === 'sandbox' ? 'Sandbox' : 'Production'}</a>`,
      )}</nav>`
    : html`<span></span>`;
  const banner = env
    ? html`<p class="envbanner ${env}" data-environment="${env}">You are viewing <strong>${env}</strong> data${env === 'sandbox' ? ' (test mode: no real money moves)' : ''}.</p>`
    : html``;
  const top = html`<div class="topbar">${envSwitch}
<div class="user"><span>${session.user.email} · ${session.user.role}</span>
<form class="inline" method="post" action="/sign-out">${csrfField(session.csrfToken)}<button type="submit" class="secondary">Sign out</button></form></div>
</div>${banner}`;
  return shell({ title, assets: ASSETS, brand: BRAND, subtitle: projectName, nav, current, top, body });
}

export type Render = (
  request: FastifyRequest,
  reply: FastifyReply,
  title: string,
  body: Html,
  status?: number,
) => Promise<FastifyReply>;

export function createRender(ctx: AppContext): Render {
  return async (request, reply, title, body, status = 200) => {
    const project = await findProject(ctx.db, request.session!.user.project_id!);
    return sendHtml(reply, status, dashboardPage(request, title, body, project?.name ?? ''));
  };
}
