import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { pageRequest } from '../../core/pagination.ts';
import { bearerSecurity, IdParams, Page, problems } from '../../http/schemas.ts';
import type { Environment } from '../../lib/environment.ts';
import { accountNumbersFor } from './numbers.ts';
import { CreateAccountBody, CustomerIdParams, ListAccountsQuery } from './schema.ts';
import { createAccountService } from './service.ts';

export const accountRoutes: FastifyPluginAsyncTypebox<{
  ctx: AppContext;
  environment: Environment;
}> = async (app, { ctx, environment }) => {
  const accounts = createAccountService({ ...ctx, numbers: accountNumbersFor(ctx.config, environment) });

  app.post(
    '/customers/:id/accounts',
    {
      schema: {
        tags: ['accounts'],
        operationId: 'createAccount',
        summary: 'Open a USD account for a customer',
        description:
          'A US account number (ACH and wire) whose deposits convert to `destinationCurrency` and credit the ' +
          'customer. The customer must be APPROVED (else 409 customer_not_approved) and not on compliance ' +
          'hold (else 409 compliance_hold). The answer is ACTIVE with its deposit instructions once the bank ' +
          'opened the number, PROVISIONING while it has not. Production without a US bank answers 503.',
        security: bearerSecurity,
        params: CustomerIdParams,
        body: CreateAccountBody,
        response: { 201: Type.Ref('Account'), ...problems(400, 401, 404, 409, 415, 429, 503) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await accounts.create(request.tenant, request.params.id, request.body)),
  );

  app.get(
    '/customers/:id/accounts',
    {
      schema: {
        tags: ['accounts'],
        operationId: 'listAccounts',
        summary: "List a customer's accounts, newest first",
        security: bearerSecurity,
        params: CustomerIdParams,
        querystring: ListAccountsQuery,
        response: { 200: Page(Type.Ref('Account')), ...problems(400, 401, 404, 429) },
      },
    },
    async (request) =>
      accounts.listForCustomer(request.tenant, request.params.id, pageRequest(request.query)),
  );

  app.get(
    '/accounts/:id',
    {
      schema: {
        tags: ['accounts'],
        operationId: 'retrieveAccount',
        summary: 'Read an account',
        security: bearerSecurity,
        params: IdParams,
        response: { 200: Type.Ref('Account'), ...problems(400, 401, 404, 429) },
      },
    },
    async (request) => accounts.get(request.tenant, request.params.id),
  );

  app.delete(
    '/accounts/:id',
    {
      schema: {
        tags: ['accounts'],
        operationId: 'closeAccount',
        summary: 'Close an account',
        description:
          'The account becomes CLOSED and its account number is disabled at the bank: later deposits are ' +
          'returned. Closing a CLOSED account answers it as it is.',
        security: bearerSecurity,
        params: IdParams,
        response: { 200: Type.Ref('Account'), ...problems(400, 401, 404, 429, 503) },
      },
    },
    async (request) => accounts.close(request.tenant, request.params.id),
  );
};
