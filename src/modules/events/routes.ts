import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { pageRequest } from '../../core/pagination.ts';
import { bearerSecurity, IdParams, Page, problems } from '../../http/schemas.ts';
import type { Environment } from '../../lib/environment.ts';
import { ListEventsQuery } from './schema.ts';
import { createEventService } from './service.ts';

export const eventRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext; environment: Environment }> = async (
  app,
  { ctx },
) => {
  const events = createEventService(ctx);

  app.get(
    '/events',
    {
      schema: {
        tags: ['events'],
        summary: "List the environment's events, newest first; `type` keeps those of one type",
        description:
          'Every event recorded for the project in this environment, whether or not an endpoint received ' +
          'it, with the body its webhooks carry: walk it with `startingAfter` to recover missed deliveries.',
        security: bearerSecurity,
        querystring: ListEventsQuery,
        response: { 200: Page(Type.Ref('Event')), ...problems(400, 401, 429) },
      },
    },
    async (request) => events.list(request.tenant, request.query.type, pageRequest(request.query)),
  );

  app.get(
    '/events/:id',
    {
      schema: {
        tags: ['events'],
        summary: 'Read one event, with the body its webhooks carry',
        security: bearerSecurity,
        params: IdParams,
        response: { 200: Type.Ref('Event'), ...problems(400, 401, 404, 429) },
      },
    },
    async (request) => events.get(request.tenant, request.params.id),
  );
};
