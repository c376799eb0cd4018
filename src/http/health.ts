import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/types.ts';
import { sendProblem } from './problem.ts';

const READY_TIMEOUT_MS = 1_000;

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
      return { status: 'ready', ...detail() };
    } catch {
      return sendProblem(reply, request, 'service_unavailable', 'The database is not reachable');
    } finally {
      clearTimeout(timer);
    }
  });
}
