import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { DateTime, problems, StringEnum, Uuid } from '../../http/schemas.ts';
import { RATE_PATTERN } from './convert.ts';
import { PAIRS } from './repo.ts';
import { createRateService } from './service.ts';

const operatorSecurity = [{ operatorAuth: [] as string[] }];

const Rate = Type.Object({
  id: Uuid(),
  pair: StringEnum(PAIRS),
  rate: Type.String({
    description:
      'Units of the target currency per 1 unit of the source currency (pair SOURCE/TARGET), exact decimal',
    examples: ['0.1834'],
  }),
  setBy: Type.String(),
  setAt: DateTime(),
});

export const rateOperatorRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  const rates = createRateService(ctx);

  app.post(
    '/operator/rates',
    {
      schema: {
        tags: ['operator'],
        summary: 'Set the market rate of a pair; quotes, on-ramps and off-ramps convert at the rate in force',
        security: operatorSecurity,
        body: Type.Object(
          {
            pair: StringEnum(PAIRS),
            rate: Type.String({
              pattern: RATE_PATTERN,
              description:
                'Units of the target currency per 1 unit of the source: up to 8 digits and 10 decimals, above zero',
              examples: ['0.1834'],
            }),
          },
          { additionalProperties: false },
        ),
        response: { 201: Rate, ...problems(400, 401) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await rates.set(request.operator, request.body.pair, request.body.rate)),
  );

  app.get(
    '/operator/rates',
    {
      schema: {
        tags: ['operator'],
        summary: 'The rate in force for each pair that has one',
        security: operatorSecurity,
        response: { 200: Type.Object({ data: Type.Array(Rate) }), ...problems(401) },
      },
    },
    async () => rates.list(),
  );
};
