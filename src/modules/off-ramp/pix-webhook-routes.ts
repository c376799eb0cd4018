import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { problems } from '../../http/schemas.ts';
import type { Environment } from '../../lib/environment.ts';
import { acceptNotification } from '../../rails/pix/psp/notifications.ts';
import type { PixRails } from '../../rails/pix/registry.ts';

const Notification = Type.Object(
  {
    pix: Type.Array(Type.Unknown({ description: 'A PIX (API Pix `Pix` object), a hint to confirm' }), {
      maxItems: 1000,
    }),
  },
  { additionalProperties: true },
);

/**
 * The PSP's notifications: `POST` on the registered webhook address + `/pix` (API Pix callback), served
 * on the listener of the environment whose PSP registered it. No API key: the PSP authenticates itself
 * by mutual TLS at the TLS terminator in front of Ponte, and the body is a hint confirmed with the PSP
 * (rails/pix/psp/notifications.ts), so a forged one changes nothing. Answered 200 at once.
 */
export const pixWebhookRoutes: FastifyPluginAsyncTypebox<{
  ctx: { pix: PixRails };
  environment: Environment;
}> = async (app, { ctx, environment }) => {
  const psp = ctx.pix.config(environment);
  if (!psp) return;
  const path = `${psp.webhookUrl.pathname.replace(/\/+$/, '')}/pix`;
  app.post(
    path,
    {
      config: { auth: 'none' },
      schema: {
        hide: true,
        body: Notification,
        response: { 200: Type.Object({}), ...problems(400, 413, 415) },
      },
    },
    async (request) => {
      acceptNotification(ctx.pix, environment, request.body.pix);
      return {};
    },
  );
};
