import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { AmountInput, DateTime, IdParams, Nullable, problems, StringEnum } from '../../http/schemas.ts';
import { createPartnerFeeService } from './service.ts';
import { FEE_TRANSACTION_TYPES } from './terms.ts';

const operatorSecurity = [{ operatorAuth: [] as string[] }];

const PartnerFee = Type.Object({
  transactionType: StringEnum(FEE_TRANSACTION_TYPES),
  bps: Type.Integer({ description: 'Basis points of the source amount' }),
  flat: Type.String({ description: 'Flat BRL amount (converted at the rate for a stablecoin source)' }),
  updatedAt: Nullable(DateTime()),
});

export const partnerFeeOperatorRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (
  app,
  { ctx },
) => {
  const fees = createPartnerFeeService(ctx);

  app.get(
    '/operator/projects/:id/partner-fees',
    {
      schema: {
        tags: ['operator'],
        summary: "A project's own fee per transaction type (zero until set)",
        security: operatorSecurity,
        params: IdParams,
        response: { 200: Type.Object({ data: Type.Array(PartnerFee) }), ...problems(400, 401, 404) },
      },
    },
    async (request) => fees.list(request.params.id),
  );

  app.post(
    '/operator/projects/:id/partner-fees',
    {
      schema: {
        tags: ['operator'],
        summary:
          "Set a project's own fee for a transaction type, charged on top of the platform's and booked to its revenue",
        security: operatorSecurity,
        params: IdParams,
        body: Type.Object(
          {
            transactionType: StringEnum(FEE_TRANSACTION_TYPES),
            bps: Type.Integer({ minimum: 0, maximum: 5000, description: 'Basis points, 0 to 5000 (50%)' }),
            flat: AmountInput('Flat fee in BRL, 0.00 for none'),
          },
          { additionalProperties: false },
        ),
        response: { 201: PartnerFee, ...problems(400, 401, 404) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await fees.set(request.operator, request.params.id, request.body)),
  );
};
