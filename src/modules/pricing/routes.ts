import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { bearerSecurity, IdParams, problems } from '../../http/schemas.ts';
import type { Environment } from '../../lib/environment.ts';
import { CreateExchangeRateBody, MarketReferenceList, Rate, ReferenceQuery, SetRateBody } from './schema.ts';
import { createExchangeRateService, createRateService, marketReferences } from './service.ts';

const operatorSecurity = [{ operatorAuth: [] as string[] }];

export const exchangeRateRoutes: FastifyPluginAsyncTypebox<{
  ctx: AppContext;
  environment: Environment;
}> = async (app, { ctx, environment }) => {
  const rates = createExchangeRateService(ctx);

  if (environment === 'sandbox') {
    app.post(
      '/sandbox/exchange-rates/:id/expire',
      {
        schema: {
          tags: ['sandbox'],
          summary: 'Expire a LOCKED quote now, as if its time lock had run out',
          description:
            'Its `expiresAt` becomes now: an on-ramp or off-ramp naming it then answers 409 ' +
            'exchange_rate_expired, as after a natural expiry. 409 invalid_state_transition for a FLOATING ' +
            'quote, 409 exchange_rate_used for one already used.',
          security: bearerSecurity,
          params: IdParams,
          response: { 200: Type.Ref('ExchangeRate'), ...problems(400, 401, 404, 409, 429) },
        },
      },
      async (request) => rates.expire(request.tenant, request.params.id),
    );
  }

  app.get(
    '/exchange-rates/reference',
    {
      schema: {
        tags: ['exchange-rates'],
        summary: 'The market reference quotes are priced from, per pair, and its age',
        description:
          'Each pair (or the one named by `pair`) with the mid quotes start from before the spread and fees: ' +
          'CHAINLINK where the environment prices from the market feeds, OPERATOR where from the rate the ' +
          "operator set (or an operator's override of the feeds, until it expires). " +
          '`usable: false` (with `reason`) means quotes of the pair answer 503 ' +
          "rates_unavailable now. `ptax` is the Banco Central's latest closing bulletin, when read.",
        security: bearerSecurity,
        querystring: ReferenceQuery,
        response: {
          200: {
            ...MarketReferenceList,
            examples: [
              {
                data: [
                  {
                    pair: 'BRL/USDC',
                    source: 'CHAINLINK',
                    usable: true,
                    rate: '0.1899810018',
                    at: '2026-11-28T21:04:11.000Z',
                    ageSeconds: 312,
                    reason: null,
                  },
                ],
                ptax: { date: '2026-11-27', buy: '5.1234', sell: '5.124' },
              },
            ],
          },
          ...problems(400, 401, 429),
        },
      },
    },
    async (request) => marketReferences(ctx, request.tenant, request.query.pair),
  );

  app.post(
    '/exchange-rates',
    {
      schema: {
        tags: ['exchange-rates'],
        summary: 'Quote a conversion: FLOATING (indicative) or LOCKED (guaranteed to one transaction)',
        description:
          'Give exactly one of sourceAmount and targetAmount. Fees (platform and partner) are charged in the ' +
          'source currency. A LOCKED quote passed as `exchangeRateId` to an on-ramp or off-ramp settles it at ' +
          'exactly these figures; it is single-use (409 exchange_rate_used) and refused after expiresAt ' +
          '(409 exchange_rate_expired). 503 when the pair has no rate in force.',
        security: bearerSecurity,
        body: CreateExchangeRateBody,
        response: { 201: Type.Ref('ExchangeRate'), ...problems(400, 401, 415, 422, 429, 503) },
      },
    },
    async (request, reply) => reply.code(201).send(await rates.create(request.tenant, request.body)),
  );
};

export const rateOperatorRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  const rates = createRateService(ctx);

  app.post(
    '/operator/rates',
    {
      schema: {
        tags: ['operator'],
        summary: 'Set the market rate of a pair; quotes, on-ramps and off-ramps convert at the rate in force',
        description:
          'Where quotes are priced from the market reference (PONTE_RATES_SOURCE=chainlink) the rate is an ' +
          'override: it replaces the reference mid of the pair until `expiresAt` (default 15 minutes), and ' +
          'quotes under it carry reference.source OPERATOR. One further than PONTE_RATES_MAX_OVERRIDE_BPS ' +
          '(default 200) from the reference, or set while the pair has no usable reference, is refused 422 ' +
          'rate_out_of_band (naming the band; nothing set) unless `force: true` with a `reason`. Every rate ' +
          'set is audited with who set it and why.',
        security: operatorSecurity,
        body: SetRateBody,
        response: { 201: Rate, ...problems(400, 401, 422) },
      },
    },
    async (request, reply) => {
      const { pair, rate, ...options } = request.body;
      return reply.code(201).send(await rates.set(request.operator, pair, rate, options));
    },
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
