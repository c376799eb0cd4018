/**
 * The operators' compliance desk: the review queues and decisions of verifications, limit requests and
 * bank-account holders, and the documents they rest on. It calls the domains; none of them calls it.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context.ts';
import { operatorBankAccountRoutes } from './bank-account-routes.ts';
import { operatorReviewRoutes } from './review-routes.ts';

export const complianceOperatorRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (
  app,
  { ctx },
) => {
  await app.register(operatorReviewRoutes, { ctx });
  await app.register(operatorBankAccountRoutes, { ctx });
};
