import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { CURRENCIES } from '../../core/currencies.ts';
import { bearerSecurity, IdParams, problems, StringEnum, Uuid } from '../../http/schemas.ts';
import { createBalanceService } from './holdings.ts';

const Balances = Type.Object({
  customerId: Uuid(),
  balances: Type.Array(
    Type.Object({
      currency: StringEnum(CURRENCIES),
      amount: Type.String({
        description: 'Exact decimal: 6 decimals for stablecoins, 2 for BRL (held for refund)',
        examples: ['182.441100'],
      }),
    }),
  ),
});

export const balanceRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  const balances = createBalanceService(ctx);

  app.get(
    '/customers/:id/balances',
    {
      schema: {
        tags: ['customers'],
        summary: "A customer's balances, derived from the ledger",
        security: bearerSecurity,
        params: IdParams,
        response: { 200: Balances, ...problems(400, 401, 404, 429) },
      },
    },
    async (request) => balances.get(request.tenant, request.params.id),
  );
};
