import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { bearerSecurity, IdParams, problems } from '../../http/schemas.ts';
import type { Environment } from '../../lib/environment.ts';
import { createRefundService } from './refund-service.ts';
import { CreateOffRampBody } from './schema.ts';
import { createOffRampService } from './service.ts';

export const offRampRoutes: FastifyPluginAsyncTypebox<{
  ctx: AppContext;
  environment: Environment;
}> = async (app, { ctx }) => {
  const offRamps = createOffRampService(ctx);
  const refunds = createRefundService(ctx);

  app.post(
    '/transactions/off-ramp',
    {
      schema: {
        tags: ['transactions'],
        summary: "Pay out from the customer's USDC, USDT or BRL balance to one of their PIX bank accounts",
        description:
          'The customer must be APPROVED (else 409 customer_not_approved); the bank account theirs, not deleted, ' +
          'its holder APPROVED (else 409 bank_account_not_verified); PERSONAL_ACCOUNT only to a SELF account. ' +
          'The balance must cover sourceAmount (else 422 insufficient_funds); it is reserved at once. The BRL ' +
          'value counts against the limits together with on-ramps (else 422 limit_exceeded). With ' +
          '`exchangeRateId` (a LOCKED quote) it settles at exactly the quote: 409 exchange_rate_used or ' +
          'exchange_rate_expired otherwise. Statuses: TRANSFERRING_STABLECOIN → TRADING → TRANSFERRING_FIAT → ' +
          'SUCCESS, or FAILED (the reserve back in the balance); SUCCESS → RETURNED if the PIX comes back.',
        security: bearerSecurity,
        body: CreateOffRampBody,
        response: { 201: Type.Ref('Transaction'), ...problems(400, 401, 404, 409, 415, 422, 429, 503) },
      },
    },
    async (request, reply) => reply.code(201).send(await offRamps.create(request.tenant, request.body)),
  );

  app.post(
    '/transactions/:id/refund',
    {
      schema: {
        tags: ['transactions'],
        summary:
          "Send an on-ramp's held BRL (late, duplicate or wrong-amount deposits) back to the payer over PIX",
        description:
          'Each held deposit is sent back to its payer; `refund` on the transaction follows it (PENDING, then ' +
          'SUCCESS or FAILED). 409 invalid_state_transition when nothing is held or a refund is on its way; ' +
          "422 insufficient_funds when the customer's BRL balance no longer holds it.",
        security: bearerSecurity,
        params: IdParams,
        response: { 200: Type.Ref('Transaction'), ...problems(400, 401, 404, 409, 422, 429, 503) },
      },
    },
    async (request) => refunds.refund(request.tenant, request.params.id),
  );
};
