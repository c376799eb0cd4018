import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../core/errors.ts';
import { bearerSecurity, problems, Uuid } from '../../http/schemas.ts';
import { presentVerification } from './presenter.ts';
import { findVerification } from './repo.ts';

export const verificationRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/customers/:id/verifications/:verificationId',
    {
      schema: {
        tags: ['verifications'],
        summary: "Read a customer's verification process",
        security: bearerSecurity,
        params: Type.Object(
          { id: Uuid('Customer identifier'), verificationId: Uuid('Verification identifier') },
          { additionalProperties: false },
        ),
        response: { 200: Type.Ref('Verification'), ...problems(400, 401, 404, 429) },
      },
    },
    async (request) => {
      const row = await findVerification(
        ctx.db,
        request.tenant,
        request.params.id,
        request.params.verificationId,
      );
      if (!row) throw notFound('Verification');
      return presentVerification(row);
    },
  );
};
