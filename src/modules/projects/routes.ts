import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { pageRequest } from '../../core/pagination.ts';
import {
  DateTime,
  IdParams,
  Nullable,
  Page,
  PageQuery,
  problems,
  StringEnum,
  Uuid,
} from '../../http/schemas.ts';
import { ENVIRONMENTS } from '../../lib/environment.ts';
import { createProjectService } from './service.ts';

const operatorSecurity = [{ operatorAuth: [] as string[] }];

const Project = Type.Object({ id: Uuid(), name: Type.String(), createdAt: DateTime() });
const IssuedKey = Type.Object({
  id: Uuid(),
  key: Type.String({ description: 'The full key: shown only in this answer' }),
  prefix: Type.String(),
  environment: StringEnum(ENVIRONMENTS),
  name: Nullable(Type.String()),
  createdAt: DateTime(),
});

export const projectOperatorRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  const projects = createProjectService(ctx);

  app.get(
    '/operator/projects',
    {
      schema: {
        operationId: 'listProjects',
        tags: ['operator'],
        summary: 'List projects (one per partner), newest first',
        security: operatorSecurity,
        querystring: Type.Object(PageQuery, { additionalProperties: false }),
        response: { 200: Page(Project), ...problems(400, 401) },
      },
    },
    async (request) => projects.pageProjects(pageRequest(request.query)),
  );

  app.post(
    '/operator/projects',
    {
      schema: {
        tags: ['operator'],
        summary: 'Create a project (one partner)',
        security: operatorSecurity,
        body: Type.Object(
          { name: Type.String({ minLength: 1, maxLength: 200 }) },
          { additionalProperties: false },
        ),
        response: { 201: Project, ...problems(400, 401) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await projects.createProject(request.operator, request.body.name)),
  );

  app.post(
    '/operator/projects/:id/api-keys',
    {
      schema: {
        tags: ['operator'],
        summary: 'Issue an API key for a project and environment (the key is shown once)',
        security: operatorSecurity,
        params: IdParams,
        body: Type.Object(
          {
            environment: StringEnum(ENVIRONMENTS),
            name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
          },
          { additionalProperties: false },
        ),
        response: { 201: IssuedKey, ...problems(400, 401, 404) },
      },
    },
    async (request, reply) => {
      const { environment, name } = request.body;
      const issued = await projects.issueApiKey(
        request.operator,
        request.params.id,
        environment,
        name ?? null,
      );
      return reply.code(201).header('cache-control', 'no-store').send(issued);
    },
  );

  app.delete(
    '/operator/api-keys/:id',
    {
      schema: {
        tags: ['operator'],
        summary: 'Revoke an API key; it stops working on every process within a second',
        security: operatorSecurity,
        params: IdParams,
        response: { 204: Type.Null(), ...problems(400, 401, 404) },
      },
    },
    async (request, reply) => {
      await projects.revokeApiKey(request.operator, request.params.id);
      return reply.code(204).send(null);
    },
  );
};
