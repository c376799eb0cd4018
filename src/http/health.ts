import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Database } from '../db/types.ts';
import { sendProblem } from './problem.ts';
import { problems } from './schemas.ts';

const READY_TIMEOUT_MS = 1_000;

const WebhookState = Type.Union([
  Type.Literal('registered'),
  Type.Literal('not_registered'),
  Type.Object({
    status: Type.Union([Type.Literal('registered'), Type.Literal('not_registered')]),
    lastError: Type.Union([Type.String(), Type.Null()]),
    lastAttemptAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    attempts: Type.Integer({ minimum: 0 }),
  }),
]);

const Ready = Type.Object({
  status: Type.Literal('ready'),
  pixWebhook: Type.Optional(
    Type.Object(
      { production: Type.Optional(WebhookState), sandbox: Type.Optional(WebhookState) },
      {
        description:
          "Where a PSP is configured: whether it accepted the PIX key's webhook (payouts wait until it does). The operator listener adds the PSP's last refusal.",
      },
    ),
  ),
});

/**
 * `/healthz`: the process answers. `/readyz`: the database answers too (within a second); `detail`, when
 * given, adds what is degraded without making the process unready (a PIX webhook the PSP has not
 * accepted: payments still come in through the sweep, payouts wait).
 */
export function registerHealthRoutes(
  app: FastifyInstance,
  db: Database,
  detail: () => Record<string, unknown> | null = () => null,
): void {
  app.get(
    '/healthz',
    {
      schema: {
        tags: ['health'],
        security: [],
        summary: 'Liveness: the process answers',
        description: 'For load balancers and orchestrators; no API key, no database call.',
        response: { 200: Type.Object({ status: Type.Literal('ok') }), ...problems(429) },
      },
      config: { auth: 'none' },
    },
    async () => ({ status: 'ok' as const }),
  );
  app.get(
    '/readyz',
    {
      schema: {
        tags: ['health'],
        security: [],
        summary: 'Readiness: the process and its database answer',
        description: 'No API key; 503 when the database does not answer within a second.',
        response: { 200: Ready, ...problems(429, 503) },
      },
      config: { auth: 'none' },
    },
    async (request, reply) => {
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          db.ping(),
          new Promise((_, reject) => {
            timer = setTimeout(() => reject(new Error('timeout')), READY_TIMEOUT_MS);
          }),
        ]);
        return { status: 'ready' as const, ...detail() };
      } catch {
        return sendProblem(reply, request, 'service_unavailable', 'The database is not reachable');
      } finally {
        clearTimeout(timer);
      }
    },
  );
}
