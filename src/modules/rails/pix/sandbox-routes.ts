import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../../context.ts';
import { bearerSecurity, IdParams, problems } from '../../../http/schemas.ts';
import type { Environment } from '../../../lib/environment.ts';
import { SandboxDepositBody, SandboxReturnBody } from '../../transactions/schema.ts';
import { createSandboxDepositService } from './sandbox.ts';

/** Sandbox listener only: simulate the customer paying a charge. */
export const sandboxDepositRoutes: FastifyPluginAsyncTypebox<{
  ctx: AppContext;
  environment: Environment;
}> = async (app, { ctx, environment }) => {
  if (environment !== 'sandbox') return;
  const deposits = createSandboxDepositService(ctx);

  app.post(
    '/sandbox/transactions/:id/deposit',
    {
      schema: {
        tags: ['sandbox'],
        summary:
          'Simulate the PIX deposit of an on-ramp: the requested amount carries it to SUCCESS, any other amount FAILS it',
        security: bearerSecurity,
        params: IdParams,
        body: SandboxDepositBody,
        response: { 200: Type.Ref('Transaction'), ...problems(400, 401, 404, 409, 415, 429) },
      },
      // the body is optional: none at all means the requested amount
      preValidation: async (request) => {
        if (request.body === undefined || request.body === null) request.body = {};
      },
    },
    async (request) => deposits.deposit(request.tenant, request.params.id, request.body.amount),
  );

  app.post(
    '/sandbox/transactions/:id/return',
    {
      schema: {
        tags: ['sandbox'],
        summary:
          "Simulate the receiving bank returning a SUCCESS off-ramp's PIX: it becomes RETURNED and the BRL lands in the customer's BRL balance",
        security: bearerSecurity,
        params: IdParams,
        body: SandboxReturnBody,
        response: { 200: Type.Ref('Transaction'), ...problems(400, 401, 404, 409, 415, 429) },
      },
      preValidation: async (request) => {
        if (request.body === undefined || request.body === null) request.body = {};
      },
    },
    async (request) => deposits.returnPayout(request.tenant, request.params.id, request.body.reason),
  );
};
