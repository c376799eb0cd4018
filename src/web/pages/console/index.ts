/** The operator console on the operator listener, under /console: sign-in, review queues, platform pages. */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../context.ts';
import { registerAssets } from '../../kit/layout.ts';
import { registerWebSurface, webApp } from '../../kit/surface.ts';
import { registerAuthPages } from '../auth/index.ts';
import * as audit from './audit.ts';
import * as chainBalances from './chain-balances.ts';
import * as document from './document.ts';
import { CONSOLE_ASSETS, CONSOLE_BRAND, consolePage } from './frame.ts';
import * as holder from './holder.ts';
import * as holders from './holders.ts';
import * as limitRequest from './limit-request.ts';
import * as limitRequests from './limit-requests.ts';
import * as pix from './pix.ts';
import * as project from './project.ts';
import * as projects from './projects.ts';
import * as rates from './rates.ts';
import * as screeningCase from './screening-case.ts';
import * as screeningCases from './screening-cases.ts';
import * as screeningLists from './screening-lists.ts';
import * as transaction from './transaction.ts';
import * as transactions from './transactions.ts';
import * as usd from './usd.ts';
import * as verification from './verification.ts';
import * as verifications from './verifications.ts';

export async function registerConsole(instance: FastifyInstance, ctx: AppContext): Promise<void> {
  const options = {
    surface: 'console' as const,
    brand: CONSOLE_BRAND,
    assets: CONSOLE_ASSETS,
    origin: ctx.config.operatorUrl,
    signInPath: '/console/sign-in',
  };
  const app = webApp(instance);
  await registerWebSurface(app, ctx, options);
  registerAssets(app, CONSOLE_ASSETS);
  registerAuthPages(app, ctx, {
    ...options,
    prefix: '/console',
    home: '/console',
    accountShell: consolePage,
  });
  app.get('/console', async (_request, reply) => reply.redirect('/console/reviews/limit-requests', 303));
  const pages = [
    document,
    limitRequests,
    limitRequest,
    verifications,
    verification,
    holders,
    holder,
    projects,
    project,
    rates,
    transactions,
    transaction,
    audit,
    // its hook counts the open differences every console page shows
    chainBalances,
    screeningLists,
    screeningCases,
    screeningCase,
    pix,
    usd,
  ];
  for (const page of pages) page.register(app, ctx);
}
