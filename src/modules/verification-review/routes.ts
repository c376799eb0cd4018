/**
 * A verification on its way through review, as the API serves it: read it, and submit it with the
 * documents uploaded through the API (the operator side is review.ts). The lifecycle it moves through is
 * verifications/; this folder sits above customers, documents and associated parties, which it reads.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../core/errors.ts';
import { bearerSecurity, problems, Uuid } from '../../http/schemas.ts';
import type { Environment } from '../../lib/environment.ts';
import { verificationLinkMinter } from '../customers/link.ts';
import { presentVerification } from '../verifications/presenter.ts';
import { verificationReader } from '../verifications/service.ts';
import { createSubmissionService } from './submit.ts';

const VerificationParams = Type.Object(
  { id: Uuid('Customer identifier'), verificationId: Uuid('Verification identifier') },
  { additionalProperties: false },
);

export const verificationRoutes: FastifyPluginAsyncTypebox<{
  ctx: AppContext;
  environment: Environment;
}> = async (app, { ctx, environment }) => {
  const read = verificationReader(ctx.db);
  const submissions = createSubmissionService({ ...ctx, link: verificationLinkMinter(ctx, environment) });

  app.post(
    '/customers/:id/verifications/:verificationId/submit',
    {
      schema: {
        tags: ['verifications'],
        summary: 'Submit a verification for review, with the documents uploaded through the API',
        description:
          "The verification of the customer, or of one of its associated parties (the party's " +
          'verification.id). Moves NOT_STARTED or TEMPORARY_REJECTION to UNDER_VERIFICATION exactly as the ' +
          "hosted page's submission does, attaching the documents uploaded since the last submission. " +
          '409 requirements_not_met unless every requirement of the owner (terms, documents) is SENT; ' +
          '409 invalid_state_transition from any other status.',
        security: bearerSecurity,
        params: VerificationParams,
        response: { 200: Type.Ref('Verification'), ...problems(400, 401, 404, 409, 429) },
      },
    },
    async (request) => submissions.submit(request.tenant, request.params.id, request.params.verificationId),
  );

  app.get(
    '/customers/:id/verifications/:verificationId',
    {
      schema: {
        tags: ['verifications'],
        summary: "Read a customer's verification process",
        security: bearerSecurity,
        params: VerificationParams,
        response: { 200: Type.Ref('Verification'), ...problems(400, 401, 404, 429) },
      },
    },
    async (request) => {
      const { id: customerId, verificationId: id } = request.params;
      const row = await read({ tenant: request.tenant, customerId, id });
      if (!row) throw notFound('Verification');
      return presentVerification(row);
    },
  );
};
