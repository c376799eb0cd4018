import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../core/errors.ts';
import { problems } from '../../http/schemas.ts';
import type { Environment } from '../../lib/environment.ts';
import { lookUpInbound } from '../../rails/increase/inbound.ts';
import { lookUpPayout } from '../../rails/increase/payouts.ts';
import { InvalidIncreaseWebhook } from '../../rails/increase/webhooks.ts';
import { takeInbound } from './intake.ts';
import { intakeOf } from './module-deps.ts';
import { reportPayout } from './payouts.ts';

/** The most an Increase event's body is read (an event is a few hundred bytes). */
const BODY_LIMIT = 64 * 1024;

/**
 * Increase's webhooks (README "US dollars": `POST /webhooks/increase` on the listener of the environment
 * whose bank is Increase), with no API key: each is verified by its Standard Webhooks signature with the
 * SDK, then only read as a hint: the object it names is read back from Increase before anything moves.
 * - An event about an ACH or wire transfer Ponte sent as a payout: the transfer is read back and its state
 *   handed to the off-ramp (settled, rejected, returned with its Nacha code).
 * - A forged or altered body: 401, nothing read. An event about anything but a transfer in or a payout: 200.
 * - An event whose object Increase cannot show yet, or when Increase does not answer the read-back (no
 *   answer in time, a dropped connection, a 5xx): 503, so Increase delivers it again (and the sweep finds
 *   it in any case). Nothing moved.
 */
export const increaseWebhookRoutes: FastifyPluginAsyncTypebox<{
  ctx: AppContext;
  environment: Environment;
}> = async (app, { ctx, environment }) => {
  const intake = intakeOf(ctx, environment);
  if (!intake) return;
  await app.register(async (hooks) => {
    // the signature is over the exact bytes Increase sent: the body is kept as text
    hooks.removeAllContentTypeParsers();
    hooks.addContentTypeParser(
      'application/json',
      { parseAs: 'string', bodyLimit: BODY_LIMIT },
      (_request, body, done) => done(null, body),
    );
    hooks.post(
      '/webhooks/increase',
      {
        config: { auth: 'none' },
        schema: { hide: true, response: { 200: Type.Object({}), ...problems(401, 413, 415, 503) } },
      },
      async (request) => {
        let event: ReturnType<typeof intake.bank.unwrapWebhook>;
        try {
          event = intake.bank.unwrapWebhook(String(request.body ?? ''), request.headers);
        } catch (error) {
          if (error instanceof InvalidIncreaseWebhook) {
            throw new AppError('unauthorized', 'The webhook signature does not verify');
          }
          throw error;
        }
        const found = await lookUpInbound(intake.bank, event);
        const payout = found.kind === 'IGNORED' ? await lookUpPayout(intake.bank, event) : null;
        if (found.kind === 'NOT_YET_READABLE' || payout?.kind === 'NOT_YET_READABLE') {
          throw new AppError('service_unavailable', 'Increase cannot show the object this event names yet');
        }
        if (found.kind === 'UNANSWERED' || payout?.kind === 'UNANSWERED') {
          throw new AppError(
            'service_unavailable',
            'Increase did not answer when the object this event names was read back; deliver it again',
          );
        }
        if (found.kind === 'TRANSFER') await takeInbound(intake, environment, found.transfer);
        if (payout?.kind === 'PAYOUT') await reportPayout(intake, environment, payout.key, payout.payout);
        return {};
      },
    );
  });
};
