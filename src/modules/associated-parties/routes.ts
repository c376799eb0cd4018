import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { pageRequest } from '../../core/pagination.ts';
import { bearerSecurity, IdParams, Page, problems } from '../../http/schemas.ts';
import type { Environment } from '../../lib/environment.ts';
import { verificationLinkMinter } from '../customers/link.ts';
import { CreateAssociatedPartyBody, ListPartiesQuery, PartyParams } from './schema.ts';
import { createAssociatedPartyService } from './service.ts';

export const associatedPartyRoutes: FastifyPluginAsyncTypebox<{
  ctx: AppContext;
  environment: Environment;
}> = async (app, { ctx, environment }) => {
  const parties = createAssociatedPartyService({ ...ctx, link: verificationLinkMinter(ctx, environment) });

  app.post(
    '/customers/:id/associated-parties',
    {
      schema: {
        tags: ['associated parties'],
        summary: 'Add an associated party (UBO, shareholder or representative) to a business customer',
        description:
          'An INDIVIDUAL party gets its own verification and hosted link. 422 customer_not_business for an ' +
          'INDIVIDUAL customer, ownership_exceeded when the direct ownership of one owner would pass 100%, ' +
          'ownership_cycle when a company would own, through its parents, a company that owns it.',
        security: bearerSecurity,
        params: IdParams,
        body: CreateAssociatedPartyBody,
        response: { 201: Type.Ref('AssociatedParty'), ...problems(400, 401, 404, 409, 415, 422, 429) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await parties.create(request.tenant, request.params.id, request.body)),
  );

  app.get(
    '/customers/:id/associated-parties',
    {
      schema: {
        tags: ['associated parties'],
        summary: "List a customer's associated parties, newest first",
        security: bearerSecurity,
        params: IdParams,
        querystring: ListPartiesQuery,
        response: { 200: Page(Type.Ref('AssociatedParty')), ...problems(400, 401, 404, 429) },
      },
    },
    async (request) => parties.list(request.tenant, request.params.id, pageRequest(request.query)),
  );

  app.get(
    '/customers/:id/associated-parties/:partyId',
    {
      schema: {
        tags: ['associated parties'],
        summary: 'Read an associated party',
        security: bearerSecurity,
        params: PartyParams,
        response: { 200: Type.Ref('AssociatedParty'), ...problems(400, 401, 404, 429) },
      },
    },
    async (request) => parties.get(request.tenant, request.params.id, request.params.partyId),
  );

  app.delete(
    '/customers/:id/associated-parties/:partyId',
    {
      schema: {
        tags: ['associated parties'],
        summary: 'Remove an associated party while the customer is not APPROVED',
        description:
          '409 customer_approved once the customer is APPROVED; 409 conflict while the party owns other parties.',
        security: bearerSecurity,
        params: PartyParams,
        response: { 204: Type.Null(), ...problems(400, 401, 404, 409, 429) },
      },
    },
    async (request, reply) => {
      await parties.remove(request.tenant, request.params.id, request.params.partyId);
      return reply.code(204).send(null);
    },
  );
};
