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

/** The most a registration check's body is read (Efí sends a small one; it is not kept). */
const CHECK_BODY_LIMIT = 64 * 1024;

/**
 * The PSP's requests, served on the listener of the environment whose PSP registered the webhook, with
 * no API key: the PSP authenticates itself by mutual TLS at the TLS terminator in front of Ponte (README:
 * the terminator requires the PSP's client certificate on both paths).
 * - `POST` on the registered address itself: Efí's check of the address when the webhook is registered
 *   (a request without a client certificate, which the terminator refuses, then one with it, which must
 *   get a 2xx: dev.efipay.com.br/docs/api-pix/webhooks). Any body, any content type, answered 200 and
 *   kept nowhere.
 * - `POST` on the registered address + `/pix` (API Pix callback): notifications, `{pix: [...]}`, each
 *   item a hint confirmed with the PSP (rails/pix/psp/notifications.ts), so a forged one changes nothing.
 *   Answered 200 at once.
 */
export const pixWebhookRoutes: FastifyPluginAsyncTypebox<{
  ctx: { pix: PixRails };
  environment: Environment;
}> = async (app, { ctx, environment }) => {
  const psp = ctx.pix.config(environment);
  if (!psp) return;
  const registered = psp.webhookUrl.pathname.replace(/\/+$/, '');

  await app.register(async (check) => {
    // whatever the PSP sends to test the address is read as bytes and dropped
    check.removeAllContentTypeParsers();
    check.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: CHECK_BODY_LIMIT }, (_req, _body, done) =>
      done(null, undefined),
    );
    check.post(
      registered || '/',
      {
        config: { auth: 'none' },
        schema: { hide: true, response: { 200: Type.Object({}), ...problems(413) } },
      },
      async () => ({}),
    );
  });

  app.post(
    `${registered}/pix`,
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
