/** Sandbox only: `POST /sandbox/customers/{id}/verification` moves a verification along a legal transition. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { bearerSecurity, IdParams, problems } from '../../http/schemas.ts';
import type { Environment } from '../../lib/environment.ts';
import { createSandboxVerificationService } from './sandbox-service.ts';
import { SandboxVerificationBody } from './schema.ts';

export const sandboxVerificationRoutes: FastifyPluginAsyncTypebox<{
  ctx: AppContext;
  environment: Environment;
}> = async (app, { ctx, environment }) => {
  if (environment !== 'sandbox') return;
  const simulation = createSandboxVerificationService(ctx);

  app.post(
    '/sandbox/customers/:id/verification',
    {
      schema: {
        tags: ['sandbox'],
        summary: "Sandbox: move a customer's verification to a status",
        description:
          'Only legal transitions (NOT_STARTED → UNDER_VERIFICATION → APPROVED | TEMPORARY_REJECTION | ' +
          'FINAL_REJECTION, TEMPORARY_REJECTION → UNDER_VERIFICATION); anything else answers 409 ' +
          'invalid_state_transition. Emits customer.verification.updated like production.',
        security: bearerSecurity,
        params: IdParams,
        body: SandboxVerificationBody,
        response: { 200: Type.Ref('Verification'), ...problems(400, 401, 404, 409, 415, 429) },
      },
    },
    async (request) => simulation.force(request.tenant, request.params.id, request.body),
  );
};
