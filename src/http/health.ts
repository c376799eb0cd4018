import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Database } from '../db/types.ts';
import type { ChainNodesProbe } from './chain-readiness.ts';
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
  rates: Type.Optional(
    Type.Record(Type.String(), Type.Union([Type.Literal('available'), Type.Literal('missing')]), {
      description:
        'Operator listener only: whether each pair has a rate in force. A missing one makes its quotes and ramps answer 503, not the process unready.',
    }),
  ),
  marketReference: Type.Optional(
    Type.Record(
      Type.String(),
      Type.Record(
        Type.String(),
        Type.Object({ usable: Type.Boolean(), reason: Type.Optional(Type.String()) }),
      ),
      {
        description:
          "Operator listener only, per environment that quotes from the market reference (Chainlink feeds, PTAX): whether each pair's reference is usable now, and if not why. An unusable one makes that pair's quotes and ramps without a quote answer 503 `rates_unavailable`, not the process unready.",
      },
    ),
  ),
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
 * `/healthz`: the process answers. `/readyz`: the database answers too (within a second), and every
 * production chain reached through a node answers (`chainNodes`; the sandbox listener, whose chains are
 * simulated, is given none). A 503 names what is not ready in `notReady` (`database`, `chain:ETHEREUM`),
 * never an address or a credential. `detail`, when given, adds what is degraded without making the
 * process unready (a PIX webhook the PSP has not accepted: payments still come in through the sweep,
 * payouts wait; a pair without a rate: its quotes answer 503).
 */
export function registerHealthRoutes(
  app: FastifyInstance,
  db: Database,
  detail: () => Record<string, unknown> | null | Promise<Record<string, unknown> | null> = () => null,
  chainNodes: ChainNodesProbe = async () => [],
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
        summary: 'Readiness: the process, its database and its chain nodes answer',
        description:
          'No API key; 503 when the database does not answer within a second or a chain node does not answer within two, with `notReady` naming which (`database`, `chain:<BLOCKCHAIN>`).',
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
      } catch {
        return sendProblem(reply, request, 'service_unavailable', 'The database is not reachable', {
          extra: { notReady: ['database'] },
        });
      } finally {
        clearTimeout(timer);
      }
      const chainsDown = await chainNodes();
      if (chainsDown.length > 0) {
        return sendProblem(
          reply,
          request,
          'service_unavailable',
          `Chain nodes not answering: ${chainsDown.join(', ')}`,
          { extra: { notReady: chainsDown.map((blockchain) => `chain:${blockchain}`) } },
        );
      }
      const degraded = await Promise.resolve()
        .then(detail)
        .catch(() => null);
      return { status: 'ready' as const, ...degraded };
    },
  );
}
