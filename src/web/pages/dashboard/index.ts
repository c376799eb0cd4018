/** The partner dashboard: sign-in and every page, registered on one Fastify app (bound in main.ts). */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../context.ts';
import { registerUploads } from '../../../modules/documents/multipart.ts';
import { registerAssets } from '../../kit/layout.ts';
import { registerWebSurface, webApp } from '../../kit/surface.ts';
import { registerAuthPages } from '../auth/index.ts';
import * as apiKeys from './api-keys.ts';
import * as customer from './customer.ts';
import * as customers from './customers.ts';
import * as fees from './fees.ts';
import { ASSETS, BRAND, createRender, dashboardPage } from './frame.ts';
import * as limitRequests from './limit-requests.ts';
import * as newLimitRequest from './new-limit-request.ts';
import * as overview from './overview.ts';
import * as request from './request.ts';
import * as requests from './requests.ts';
import * as settings from './settings.ts';
import * as team from './team.ts';
import * as transaction from './transaction.ts';
import * as transactions from './transactions.ts';
import * as webhook from './webhook.ts';
import * as webhooks from './webhooks.ts';

export async function registerDashboard(instance: FastifyInstance, ctx: AppContext): Promise<void> {
  const options = {
    surface: 'dashboard' as const,
    brand: BRAND,
    assets: ASSETS,
    origin: ctx.config.dashboardUrl,
    signInPath: '/sign-in',
  };
  const app = webApp(instance);
  await registerWebSurface(app, ctx, options);
  registerAssets(app, ASSETS, { root: true });
  const render = createRender(ctx);
  registerAuthPages(app, ctx, {
    ...options,
    prefix: '',
    home: '/sandbox',
    accountShell: (request, title, body) => dashboardPage(request, title, body, ''),
  });
  for (const page of [apiKeys, webhooks, webhook, requests, request]) page.register(app, ctx, render);
  await registerUploads(app);
  for (const page of [
    overview,
    customers,
    customer,
    transactions,
    transaction,
    limitRequests,
    newLimitRequest,
  ])
    page.register(app, ctx, render);
  for (const page of [team, fees, settings]) page.register(app, ctx, render);
}
