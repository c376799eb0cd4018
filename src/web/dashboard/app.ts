/** The partner dashboard: sign-in and every page, registered on one Fastify app (bound in main.ts). */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { registerAuthRoutes } from '../auth-routes.ts';
import { registerAssets } from '../kit/layout.ts';
import { registerWebSurface } from '../kit/surface.ts';
import { registerBusinessPages } from './business.ts';
import { registerDeveloperPages } from './developers.ts';
import { registerFeePages } from './fees.ts';
import { ASSETS, BRAND, dashboardPage } from './frame.ts';
import { createRender } from './render.ts';
import { registerTeamPages } from './team.ts';

export async function registerDashboard(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const options = {
    surface: 'dashboard' as const,
    brand: BRAND,
    assets: ASSETS,
    origin: ctx.config.dashboardUrl,
    signInPath: '/sign-in',
  };
  await registerWebSurface(app, ctx, options);
  registerAssets(app, ASSETS, { root: true });
  const render = createRender(ctx);
  registerAuthRoutes(app, ctx, {
    ...options,
    prefix: '',
    home: '/sandbox',
    accountShell: (request, title, body) => dashboardPage(request, title, body, ''),
  });
  registerDeveloperPages(app, ctx, render);
  await registerBusinessPages(app, ctx, render);
  registerTeamPages(app, ctx, render);
  registerFeePages(app, ctx, render);
}
