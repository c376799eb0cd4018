import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { pageRequest } from '../../core/pagination.ts';
import { IdParams, Page, problems } from '../../http/schemas.ts';
import { createOperatorAccountService } from './accounts.ts';
import { listAuditLog } from './audit-log.ts';
import {
  AuditEntrySchema,
  AuditLogQuery,
  CreateOperatorBody,
  IssuedOperatorSchema,
  ListOperatorsQuery,
  OperatorSchema,
  operatorSecurity,
} from './schema.ts';

export const operatorAccountRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  const accounts = createOperatorAccountService(ctx);

  app.post(
    '/operator/operators',
    {
      schema: {
        tags: ['operator'],
        summary: 'Create an operator account (its token is shown once)',
        security: operatorSecurity,
        body: CreateOperatorBody,
        response: { 201: IssuedOperatorSchema, ...problems(400, 401) },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .header('cache-control', 'no-store')
        .send(await accounts.create(request.operator, request.body.name)),
  );

  app.get(
    '/operator/operators',
    {
      schema: {
        tags: ['operator'],
        summary: 'List operator accounts, newest first',
        security: operatorSecurity,
        querystring: ListOperatorsQuery,
        response: { 200: Page(OperatorSchema), ...problems(400, 401) },
      },
    },
    async (request) => accounts.list(pageRequest(request.query)),
  );

  app.delete(
    '/operator/operators/:id',
    {
      schema: {
        tags: ['operator'],
        summary: 'Revoke an operator account; its token stops working at once',
        security: operatorSecurity,
        params: IdParams,
        response: { 204: Type.Null(), ...problems(400, 401, 404) },
      },
    },
    async (request, reply) => {
      await accounts.revoke(request.operator, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/operator/audit-log',
    {
      schema: {
        tags: ['operator'],
        summary: 'The audit log of operator actions, newest first',
        security: operatorSecurity,
        querystring: AuditLogQuery,
        response: { 200: Page(AuditEntrySchema), ...problems(400, 401) },
      },
    },
    async (request) => {
      const { actorId, action, resourceType, resourceId } = request.query;
      return listAuditLog(ctx.db, { actorId, action, resourceType, resourceId }, pageRequest(request.query));
    },
  );
};
