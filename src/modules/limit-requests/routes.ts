import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { pageRequest } from '../../core/pagination.ts';
import { bearerSecurity, Page, problems } from '../../http/schemas.ts';
import {
  CreateLimitRequestBody,
  CustomerParams,
  LimitRequestParams,
  ListLimitRequestsQuery,
} from './schema.ts';
import { createLimitRequestService } from './service.ts';

export const limitRequestRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  const limitRequests = createLimitRequestService(ctx);

  app.post(
    '/customers/:id/limit-requests',
    {
      schema: {
        tags: ['limit-requests'],
        summary: 'Ask for higher limits for an approved customer (reviewed by compliance)',
        description:
          'At least one of single, daily, monthly; the given amounts must satisfy single <= daily <= monthly. ' +
          'The customer must be APPROVED (else 409 customer_not_approved) and may have one request in review ' +
          'at a time (else 409 limit_request_in_review).',
        security: bearerSecurity,
        params: CustomerParams,
        body: CreateLimitRequestBody,
        response: { 201: Type.Ref('LimitRequest'), ...problems(400, 401, 404, 409, 415, 422, 429) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await limitRequests.create(request.tenant, request.params.id, request.body)),
  );

  app.get(
    '/customers/:id/limit-requests/:limitRequestId',
    {
      schema: {
        tags: ['limit-requests'],
        summary: 'Read a limit request of a customer',
        security: bearerSecurity,
        params: LimitRequestParams,
        response: { 200: Type.Ref('LimitRequest'), ...problems(400, 401, 404, 429) },
      },
    },
    async (request) => limitRequests.get(request.tenant, request.params.id, request.params.limitRequestId),
  );

  app.get(
    '/customers/:id/limit-requests',
    {
      schema: {
        tags: ['limit-requests'],
        summary: "Read a customer's limit requests, newest first",
        security: bearerSecurity,
        params: CustomerParams,
        querystring: ListLimitRequestsQuery,
        response: { 200: Page(Type.Ref('LimitRequest')), ...problems(400, 401, 404, 429) },
      },
    },
    async (request) => limitRequests.list(request.tenant, request.params.id, pageRequest(request.query)),
  );
};
