import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Database } from '../db/types.ts';
import { sendProblem } from './problem.ts';
import { problems } from './schemas.ts';

const READY_TIMEOUT_MS = 1_000;

/** `/healthz`: the process answers. `/readyz`: the database answers too (within a second). */
export function registerHealthRoutes(app: FastifyInstance, db: Database): void {
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
        response: { 200: Type.Object({ status: Type.Literal('ready') }), ...problems(429, 503) },
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
        return { status: 'ready' as const };
      } catch {
        return sendProblem(reply, request, 'service_unavailable', 'The database is not reachable');
      } finally {
        clearTimeout(timer);
      }
    },
  );
}
