/**
 * Operator API for the people of the web interfaces: invite a partner's staff to a project's dashboard,
 * or give an operator account a console sign-in. Each answers with a single-use, expiring invite link.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../core/errors.ts';
import { DateTime, IdParams, problems, StringEnum, Uuid } from '../../http/schemas.ts';
import { lockOperator } from '../operators/accounts.ts';
import { createWebUserService, DASHBOARD_ROLES } from './service.ts';

const operatorSecurity = [{ operatorAuth: [] as string[] }];

const InvitedUser = Type.Object({
  id: Uuid(),
  email: Type.String(),
  role: StringEnum(['admin', 'developer', 'viewer', 'operator'] as const),
  status: StringEnum(['invited', 'active'] as const),
  totpEnabled: Type.Boolean(),
  createdAt: DateTime(),
  inviteUrl: Type.String({ format: 'uri', description: 'Single use; expires in 7 days. Shown only here.' }),
});

const Email = Type.String({
  minLength: 3,
  maxLength: 254,
  description: 'E-mail address the user signs in with',
});

export const webUserOperatorRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  const users = createWebUserService({ ...ctx, encryptionKey: ctx.instanceKeys.encryption });

  app.post(
    '/operator/projects/:id/users',
    {
      schema: {
        tags: ['operator'],
        operationId: 'inviteDashboardUser',
        summary: "Invite a person to a project's dashboard (the invite link is shown once)",
        security: operatorSecurity,
        params: IdParams,
        body: Type.Object(
          { email: Email, role: StringEnum(DASHBOARD_ROLES) },
          { additionalProperties: false },
        ),
        response: { 201: InvitedUser, ...problems(400, 401, 404, 409) },
      },
    },
    async (request, reply) => {
      const invited = await users.invite(
        request.operator,
        { surface: 'dashboard', projectId: request.params.id, role: request.body.role },
        request.body.email,
      );
      return reply.code(201).header('cache-control', 'no-store').send(invited);
    },
  );

  app.post(
    '/operator/operators/:id/console-invite',
    {
      schema: {
        tags: ['operator'],
        operationId: 'inviteConsoleUser',
        summary: 'Give an operator account a sign-in to the operator console (the invite link is shown once)',
        security: operatorSecurity,
        params: IdParams,
        body: Type.Object({ email: Email }, { additionalProperties: false }),
        response: { 201: InvitedUser, ...problems(400, 401, 404, 409) },
      },
    },
    async (request, reply) => {
      const operator = await lockOperator(ctx.db, request.params.id);
      if (!operator || operator.revoked_at) throw notFound('Operator');
      const invited = await users.invite(
        request.operator,
        { surface: 'console', operatorId: operator.id },
        request.body.email,
      );
      return reply.code(201).header('cache-control', 'no-store').send(invited);
    },
  );
};
