import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { pageRequest } from '../../core/pagination.ts';
import { bearerSecurity, IdParams, Page, problems } from '../../http/schemas.ts';
import type { Environment } from '../../lib/environment.ts';
import { CreateBankAccountBody, ListBankAccountsQuery } from './schema.ts';
import { createBankAccountService } from './service.ts';

export const bankAccountRoutes: FastifyPluginAsyncTypebox<{
  ctx: AppContext;
  environment: Environment;
}> = async (app, { ctx }) => {
  const accounts = createBankAccountService(ctx);

  app.post(
    '/bank-accounts',
    {
      schema: {
        tags: ['bank-accounts'],
        summary: "Register a customer's bank account: PIX (BRL), or ACH or WIRE (USD)",
        description:
          'PIX: the PIX key is validated and stored in the canonical form of its type. ACH and WIRE: the ' +
          "routing number's check digit is verified and the account number is stored without spaces or " +
          'hyphens (at most 17 characters for ACH, 34 for WIRE). The holder is APPROVED at ' +
          'once when the customer holds the account (SELF) and is approved; otherwise it is ' +
          'UNDER_VERIFICATION until an operator screens it.',
        security: bearerSecurity,
        body: CreateBankAccountBody,
        response: { 201: Type.Ref('BankAccount'), ...problems(400, 401, 404, 409, 415, 422, 429) },
      },
    },
    async (request, reply) => reply.code(201).send(await accounts.create(request.tenant, request.body)),
  );

  app.get(
    '/bank-accounts/:id',
    {
      schema: {
        tags: ['bank-accounts'],
        summary: 'Read a bank account',
        security: bearerSecurity,
        params: IdParams,
        response: { 200: Type.Ref('BankAccount'), ...problems(400, 401, 404, 429) },
      },
    },
    async (request) => accounts.get(request.tenant, request.params.id),
  );

  app.get(
    '/bank-accounts',
    {
      schema: {
        tags: ['bank-accounts'],
        summary: 'List bank accounts, newest first',
        security: bearerSecurity,
        querystring: ListBankAccountsQuery,
        response: { 200: Page(Type.Ref('BankAccount')), ...problems(400, 401, 429) },
      },
    },
    async (request) =>
      accounts.list(request.tenant, { customerId: request.query.customerId }, pageRequest(request.query)),
  );

  app.delete(
    '/bank-accounts/:id',
    {
      schema: {
        tags: ['bank-accounts'],
        summary: 'Remove a bank account',
        description: 'Afterwards the account answers 404 and no longer appears in lists.',
        security: bearerSecurity,
        params: IdParams,
        response: { 204: Type.Null({ description: 'Removed' }), ...problems(400, 401, 404, 429) },
      },
    },
    async (request, reply) => {
      await accounts.remove(request.tenant, request.params.id);
      return reply.code(204).send(null);
    },
  );
};
