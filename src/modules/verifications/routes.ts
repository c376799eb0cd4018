import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../core/errors.ts';
import { bearerSecurity, problems, Uuid } from '../../http/schemas.ts';
import { presentVerification } from './presenter.ts';
import { verificationReader } from './repo.ts';

export const verificationRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  const read = verificationReader(ctx.db);
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
      const { id: customerId, verificationId: id } = request.params;
      const row = await read({ tenant: request.tenant, customerId, id });
      if (!row) throw notFound('Verification');
      return presentVerification(row);
    },
  );
};
