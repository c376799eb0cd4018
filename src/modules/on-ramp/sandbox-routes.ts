import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { bearerSecurity, IdParams, problems } from '../../http/schemas.ts';
import type { Environment } from '../../lib/environment.ts';
import { depositToSandboxAccount } from './bank-sandbox.ts';
import { createSandboxDepositService } from './sandbox.ts';
import { SandboxAccountDepositAnswer, SandboxAccountDepositBody, SandboxDepositBody } from './schema.ts';

/**
 * Sandbox listener only: simulate the customer paying an on-ramp's charge. (The off-ramp's sandbox route,
 * a returned PIX, is registered between this and the expiry below, so the document keeps its order.)
 */
export const sandboxDepositRoutes: FastifyPluginAsyncTypebox<{
  ctx: AppContext;
  environment: Environment;
}> = async (app, { ctx, environment }) => {
  if (environment !== 'sandbox') return;
  const deposits = createSandboxDepositService(ctx);
  app.post(
    '/sandbox/transactions/:id/deposit',
    {
      schema: {
        tags: ['sandbox'],
        summary:
          'Simulate the PIX deposit of an on-ramp: the requested amount carries it to SUCCESS, any other amount FAILS it',
        security: bearerSecurity,
        params: IdParams,
        body: SandboxDepositBody,
        response: { 200: Type.Ref('Transaction'), ...problems(400, 401, 404, 409, 415, 429) },
      },
      // the body is optional: none at all means the requested amount
      preValidation: async (request) => {
        if (request.body === undefined || request.body === null) request.body = {};
      },
    },
    async (request) => deposits.deposit(request.tenant, request.params.id, request.body.amount),
  );
};

/** Sandbox listener only: expire an on-ramp's charge now. */
export const sandboxExpiryRoutes: FastifyPluginAsyncTypebox<{
  ctx: AppContext;
  environment: Environment;
}> = async (app, { ctx, environment }) => {
  if (environment !== 'sandbox') return;
  const deposits = createSandboxDepositService(ctx);
  app.post(
    '/sandbox/transactions/:id/expire',
    {
      schema: {
        tags: ['sandbox'],
        summary: 'Expire an AWAITING_FUNDS on-ramp now, as if its deposit window had passed',
        description:
          'The same change and events as a natural expiry: EXPIRED, with `failureReason` and a ' +
          '`transaction.updated` event, its amount no longer counting against the limits; `expiresAt` becomes ' +
          'now, and a deposit arriving afterwards is held for refund. 409 invalid_state_transition for any ' +
          'other transaction or status.',
        security: bearerSecurity,
        params: IdParams,
        response: { 200: Type.Ref('Transaction'), ...problems(400, 401, 404, 409, 429) },
      },
    },
    async (request) => deposits.expire(request.tenant, request.params.id),
  );
};

/** Sandbox listener only: simulate an ACH credit or a wire to a customer account. */
export const sandboxAccountDepositRoutes: FastifyPluginAsyncTypebox<{
  ctx: AppContext;
  environment: Environment;
}> = async (app, { ctx, environment }) => {
  if (environment !== 'sandbox') return;
  app.post(
    '/sandbox/accounts/:id/deposit',
    {
      schema: {
        tags: ['sandbox'],
        operationId: 'simulateAccountDeposit',
        summary: 'Simulate an ACH credit or a wire to a customer account',
        description:
          "Applied as a transfer the bank reports: an on-ramp in USD that converts to the account's " +
          '`destinationCurrency` and credits the customer (APPLIED), or, while the customer is on compliance ' +
          'hold, an on-ramp held uncredited (HELD). What Ponte cannot take is RETURNED with why, and nothing ' +
          'is booked: a CLOSED account, a customer not APPROVED, no rate, an amount worth less than the ' +
          'minimum, over a limit.',
        security: bearerSecurity,
        params: IdParams,
        body: SandboxAccountDepositBody,
        response: { 200: SandboxAccountDepositAnswer, ...problems(400, 401, 404, 409, 415, 429) },
      },
    },
    async (request) => depositToSandboxAccount(ctx, request.tenant, request.params.id, request.body),
  );
};
