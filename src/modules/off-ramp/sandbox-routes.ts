import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { bearerSecurity, IdParams, problems } from '../../http/schemas.ts';
import type { Environment } from '../../lib/environment.ts';
import { createSandboxReturnService } from './sandbox.ts';
import { SandboxReturnBody } from './schema.ts';

/** Sandbox listener only: simulate the receiving bank returning a SUCCESS off-ramp's PIX. */
export const sandboxReturnRoutes: FastifyPluginAsyncTypebox<{
  ctx: AppContext;
  environment: Environment;
}> = async (app, { ctx, environment }) => {
  if (environment !== 'sandbox') return;
  const returnPayout = createSandboxReturnService(ctx);
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
    async (request) => returnPayout(request.tenant, request.params.id, request.body.reason),
  );
};
