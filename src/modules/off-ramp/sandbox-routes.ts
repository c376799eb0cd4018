import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { bearerSecurity, IdParams, problems } from '../../http/schemas.ts';
import type { Environment } from '../../lib/environment.ts';
import { createSandboxReturnService } from './sandbox.ts';
import { SandboxReturnBody } from './schema.ts';

/** Sandbox listener only: simulate the receiving bank returning a SUCCESS off-ramp's payment. */
export const sandboxReturnRoutes: FastifyPluginAsyncTypebox<{
  ctx: AppContext;
  environment: Environment;
}> = async (app, { ctx, environment }) => {
  if (environment !== 'sandbox') return;
  const returnPayout = createSandboxReturnService({
    ...ctx,
    bankIsIncrease: ctx.config.usdBank.sandbox !== undefined,
    pixIsPsp: ctx.config.pix.sandbox !== undefined,
  });
  app.post(
    '/sandbox/transactions/:id/return',
    {
      schema: {
        tags: ['sandbox'],
        summary:
          "Simulate the receiving bank returning a SUCCESS off-ramp's payment (a PIX, an ACH with its return code, a wire): it becomes RETURNED and the BRL or USD lands in the customer's balance of that currency",
        security: bearerSecurity,
        params: IdParams,
        body: SandboxReturnBody,
        response: { 200: Type.Ref('Transaction'), ...problems(400, 401, 404, 409, 415, 429) },
      },
      preValidation: async (request) => {
        if (request.body === undefined || request.body === null) request.body = {};
      },
    },
    async (request) => returnPayout(request.tenant, request.params.id, request.body),
  );
};
