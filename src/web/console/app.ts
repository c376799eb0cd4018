/** The operator console on the operator listener, under /console: sign-in, review queues, platform pages. */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { registerAuthRoutes } from '../auth-routes.ts';
import { registerAssets } from '../kit/layout.ts';
import { registerWebSurface } from '../kit/surface.ts';
import { registerChainBalancePages } from './chain-balances.ts';
import { CONSOLE_ASSETS, CONSOLE_BRAND, consolePage } from './frame.ts';
import { registerPixPages } from './pix.ts';
import { registerPlatformPages } from './platform.ts';
import { registerReviewPages } from './reviews.ts';
import { registerScreeningPages } from './screening.ts';

export async function registerConsole(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const options = {
    surface: 'console' as const,
    brand: CONSOLE_BRAND,
    assets: CONSOLE_ASSETS,
    origin: ctx.config.operatorUrl,
    signInPath: '/console/sign-in',
  };
  await registerWebSurface(app, ctx, options);
  registerAssets(app, CONSOLE_ASSETS);
  registerAuthRoutes(app, ctx, {
    ...options,
    prefix: '/console',
    home: '/console',
    accountShell: consolePage,
  });
  registerReviewPages(app, ctx);
  registerPlatformPages(app, ctx);
  registerChainBalancePages(app, ctx);
  registerScreeningPages(app, ctx);
  registerPixPages(app, ctx);
}
