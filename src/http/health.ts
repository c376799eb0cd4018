import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/types.ts';
import { sendProblem } from './problem.ts';

const READY_TIMEOUT_MS = 1_000;

/** `/healthz`: the process answers. `/readyz`: the database answers too (within a second). */
export function registerHealthRoutes(app: FastifyInstance, db: Database): void {
  app.get('/healthz', { schema: { hide: true }, config: { auth: 'none' } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true }, config: { auth: 'none' } }, async (request, reply) => {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        db.ping(),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error('timeout')), READY_TIMEOUT_MS);
        }),
      ]);
      return { status: 'ready' };
    } catch {
      return sendProblem(reply, request, 'service_unavailable', 'The database is not reachable');
    } finally {
      clearTimeout(timer);
    }
  });
}
