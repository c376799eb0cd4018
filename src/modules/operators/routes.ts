/** Every route of the operators' compliance desk: accounts, audit log, review queues and decisions. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context.ts';
import { operatorAccountRoutes } from './accounts-routes.ts';
import { operatorBankAccountRoutes } from './bank-account-routes.ts';
import { operatorReviewRoutes } from './review-routes.ts';

export const complianceOperatorRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (
  app,
  { ctx },
) => {
  await app.register(operatorAccountRoutes, { ctx });
  await app.register(operatorReviewRoutes, { ctx });
  await app.register(operatorBankAccountRoutes, { ctx });
};
