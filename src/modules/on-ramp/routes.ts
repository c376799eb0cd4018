import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { bearerSecurity, problems } from '../../http/schemas.ts';
import type { Environment } from '../../lib/environment.ts';
import { CreateOnRampBody } from './schema.ts';
import { createOnRampService } from './service.ts';

export const onRampRoutes: FastifyPluginAsyncTypebox<{
  ctx: AppContext;
  environment: Environment;
}> = async (app, { ctx }) => {
  const onRamps = createOnRampService(ctx);

  app.post(
    '/transactions/on-ramp',
    {
      schema: {
        tags: ['transactions'],
        summary: 'Bring BRL in over PIX, converted to a stablecoin: answers the PIX charge to pay',
        description:
          'The customer must be APPROVED. The amount must fit the single limit and, with every transaction ' +
          'of the customer that is not FAILED or EXPIRED, the daily (UTC day) and monthly (UTC month) ' +
          'limits; otherwise 422 limit_exceeded names the `limit` and what `remaining` of it.',
        security: bearerSecurity,
        body: CreateOnRampBody,
        response: { 201: Type.Ref('Transaction'), ...problems(400, 401, 404, 409, 415, 422, 429, 503) },
      },
    },
    async (request, reply) => reply.code(201).send(await onRamps.create(request.tenant, request.body)),
  );
};
