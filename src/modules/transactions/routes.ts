import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { pageRequest } from '../../core/pagination.ts';
import { bearerSecurity, IdParams, Page, problems } from '../../http/schemas.ts';
import type { Environment } from '../../lib/environment.ts';
import { CreateOnRampBody, ListTransactionsQuery } from './schema.ts';
import { createTransactionService } from './service.ts';

export const transactionRoutes: FastifyPluginAsyncTypebox<{
  ctx: AppContext;
  environment: Environment;
}> = async (app, { ctx }) => {
  const transactions = createTransactionService(ctx);

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
    async (request, reply) => reply.code(201).send(await transactions.create(request.tenant, request.body)),
  );

  app.get(
    '/transactions/:id',
    {
      schema: {
        tags: ['transactions'],
        summary: 'Read a transaction: its status, timeline and, once it succeeded, its receipt',
        security: bearerSecurity,
        params: IdParams,
        response: { 200: Type.Ref('Transaction'), ...problems(400, 401, 404, 429) },
      },
    },
    async (request) => transactions.get(request.tenant, request.params.id),
  );

  app.get(
    '/transactions',
    {
      schema: {
        tags: ['transactions'],
        summary: 'List transactions, newest first; `customerId` keeps those of one customer',
        security: bearerSecurity,
        querystring: ListTransactionsQuery,
        response: { 200: Page(Type.Ref('Transaction')), ...problems(400, 401, 429) },
      },
    },
    async (request) =>
      transactions.list(request.tenant, { customerId: request.query.customerId }, pageRequest(request.query)),
  );
};
