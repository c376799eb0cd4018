import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { pageRequest } from '../../core/pagination.ts';
import { bearerSecurity, IdParams, Page, problems } from '../../http/schemas.ts';
import type { Environment } from '../../lib/environment.ts';
import { listFilter } from './list-filter.ts';
import { createTransactionService } from './read-service.ts';
import { ListTransactionsQuery } from './schema.ts';

export const transactionRoutes: FastifyPluginAsyncTypebox<{
  ctx: AppContext;
  environment: Environment;
}> = async (app, { ctx }) => {
  const transactions = createTransactionService(ctx);

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
        summary: 'List transactions of every type, newest first, narrowed by the filters given',
        description:
          'Filters combine (all must match): `customerId`, `status`, `type`, `currency`, and the creation ' +
          'instants `createdFrom` and `createdTo` (both inclusive; 400 when `createdTo` is before `createdFrom`).',
        security: bearerSecurity,
        querystring: ListTransactionsQuery,
        response: { 200: Page(Type.Ref('Transaction')), ...problems(400, 401, 429) },
      },
    },
    async (request) =>
      transactions.list(request.tenant, listFilter(request.query), pageRequest(request.query)),
  );
};
