import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../../context.ts';
import { AppError } from '../../../core/errors.ts';
import { DateTime, problems, StringEnum } from '../../../http/schemas.ts';
import type { Environment } from '../../../lib/environment.ts';
import { END_TO_END_ID_PATTERN } from './end-to-end-id.ts';
import { createPixNotificationService } from './provider.ts';
import { SIGNATURE_HEADER, verifyPixNotification } from './signature.ts';

const Notification = Type.Object({
  pix: Type.Array(
    Type.Object(
      {
        endToEndId: Type.String({ pattern: END_TO_END_ID_PATTERN }),
        txid: Type.String({ pattern: '^[A-Za-z0-9]{1,35}$' }),
        // a payment of zero is no payment: refused like any malformed amount
        valor: Type.String({ pattern: '^(?!0+\\.00$)\\d{1,10}\\.\\d{2}$' }),
        horario: DateTime('When the payment was settled'),
      },
      // providers add fields of their own (chave, infoPagador, devolucoes...): kept, not refused
      { additionalProperties: true },
    ),
    { minItems: 1, maxItems: 1000 },
  ),
});

const Results = Type.Object({
  results: Type.Array(
    Type.Object({
      endToEndId: Type.String(),
      outcome: StringEnum(['APPLIED', 'HELD_FOR_REFUND', 'UNMATCHED', 'DUPLICATE'] as const),
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
    async (request) => {
      const results = await notifications.receive(request.body.pix);
      return { results: results.map((r) => ({ endToEndId: r.endToEndId, outcome: r.outcome })) };
    },
  );
};
