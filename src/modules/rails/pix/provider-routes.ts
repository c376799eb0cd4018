import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../../context.ts';
import { AppError } from '../../../core/errors.ts';
import { problems, StringEnum } from '../../../http/schemas.ts';
import type { Environment } from '../../../lib/environment.ts';
import { createPixNotificationService } from './provider.ts';
import { SIGNATURE_HEADER, verifyPixNotification } from './signature.ts';

const Notification = Type.Object(
  {
    pix: Type.Optional(
      Type.Array(
        Type.Unknown({ description: 'A payment received: {endToEndId, txid, valor, horario, ...}' }),
        {
          maxItems: 1000,
        },
      ),
    ),
    payouts: Type.Optional(
      Type.Array(
        Type.Unknown({
          description: 'A payout result: {endToEndId, status: COMPLETED|REJECTED|RETURNED, reason?}',
        }),
        { maxItems: 1000 },
      ),
    ),
  },
  { additionalProperties: true, minProperties: 1 },
);

const Results = Type.Object({
  results: Type.Array(
    Type.Object({
      endToEndId: Type.String(),
      outcome: StringEnum([
        'APPLIED',
        'HELD_FOR_REFUND',
        'UNMATCHED',
        'DUPLICATE',
        'UNKNOWN',
        'MALFORMED',
        'ERROR',
      ] as const),
      detail: Type.Optional(Type.String()),
    }),
  ),
});

/**
 * Production listener only: the PIX provider's payment notifications. No API key: the request is
 * authenticated by an HMAC-SHA256 signature of its exact bytes with PONTE_PIX_PROVIDER_SECRET, checked
 * before the body is parsed. Without a configured secret the endpoint answers 503.
 */
export const pixProviderRoutes: FastifyPluginAsyncTypebox<{
  ctx: AppContext;
  environment: Environment;
}> = async (app, { ctx, environment }) => {
  if (environment !== 'production') return;
  const secret = ctx.config.onRamp.pixProviderSecret;
  const notifications = createPixNotificationService(ctx);

  app.addHook('onRequest', async () => {
    if (!secret)
      throw new AppError('service_unavailable', 'PIX notifications are not configured on this server');
  });
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const raw = body as Buffer;
    if (
      !secret ||
      !verifyPixNotification(secret, raw, request.headers[SIGNATURE_HEADER] as string | undefined)
    ) {
      done(
        new AppError('unauthorized', `The ${SIGNATURE_HEADER} signature does not match the body`),
        undefined,
      );
      return;
    }
    try {
      done(null, JSON.parse(raw.toString('utf8')));
    } catch {
      done(
        new AppError('invalid_request', 'The request body is not valid JSON', {
          errors: [{ pointer: '/body', message: 'must be a JSON object' }],
        }),
        undefined,
      );
    }
  });

  app.post(
    '/rails/pix/notifications',
    {
      config: { auth: 'none' },
      schema: {
        hide: true,
        body: Notification,
        response: { 200: Results, ...problems(400, 401, 413, 415, 503) },
      },
    },
    async (request) => ({ results: await notifications.receive(request.body) }),
  );
};
