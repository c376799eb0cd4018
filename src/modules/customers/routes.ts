import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { pageRequest } from '../../core/pagination.ts';
import { bearerSecurity, IdParams, Page, problems } from '../../http/schemas.ts';
import type { Environment } from '../../lib/environment.ts';
import { verificationLinkMinter } from './link.ts';
import { CreateCustomerBody, GetCustomerQuery, ListCustomersQuery } from './schema.ts';
import { createCustomerService } from './service.ts';

export type PublicRouteOptions = { ctx: AppContext; environment: Environment };

export const customerRoutes: FastifyPluginAsyncTypebox<PublicRouteOptions> = async (
  app,
  { ctx, environment },
) => {
  const customers = createCustomerService({ ...ctx, link: verificationLinkMinter(ctx, environment) });

  app.post(
    '/customers',
    {
      schema: {
        tags: ['customers'],
        summary: 'Create a customer (with its verification process)',
        description:
          'The same taxId twice in an environment answers 409 customer_exists, whose problem body names the ' +
          "existing customer's id as `customerId`.",
        security: bearerSecurity,
        body: CreateCustomerBody,
        response: { 201: Type.Ref('Customer'), ...problems(400, 401, 409, 415, 422, 429) },
      },
    },
    async (request, reply) => reply.code(201).send(await customers.create(request.tenant, request.body)),
  );

  app.get(
    '/customers/:id',
    {
      schema: {
        tags: ['customers'],
        summary: 'Read a customer',
        description:
          'With includeTransactionLimits=true, also the limits in force (the defaults of the customer type, ' +
          'replaced by the latest approved grant) and how much of the daily and monthly ones is used.',
        security: bearerSecurity,
        params: IdParams,
        querystring: GetCustomerQuery,
        response: { 200: Type.Ref('Customer'), ...problems(400, 401, 404, 429) },
      },
    },
    async (request) =>
      customers.get(request.tenant, request.params.id, {
        includeTransactionLimits: request.query.includeTransactionLimits === true,
      }),
  );

  app.get(
    '/customers',
    {
      schema: {
        tags: ['customers'],
        summary: 'List customers, newest first',
        security: bearerSecurity,
        querystring: ListCustomersQuery,
        response: { 200: Page(Type.Ref('Customer')), ...problems(400, 401, 429) },
      },
    },
    async (request) => customers.list(request.tenant, pageRequest(request.query)),
  );
};
