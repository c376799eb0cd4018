/**
 * Closing the listeners: each stops accepting connections and finishes the requests in flight. A request
 * answered while its app closes leaves its connection open for the client's next request (keep-alive),
 * which Node's `server.close()` then waits on for as long as the client holds it (a load balancer, or
 * `fetch`'s pool, may for minutes): each such connection is closed as soon as it goes idle.
 */
import type { FastifyInstance } from 'fastify';

/** How often connections that went idle during the close are looked for. */
const IDLE_CHECK_MS = 25;

export async function closeApps(apps: readonly FastifyInstance[]): Promise<void> {
  const closeIdle = setInterval(() => {
    for (const app of apps) app.server.closeIdleConnections();
  }, IDLE_CHECK_MS);
  closeIdle.unref();
  try {
    await Promise.all(apps.map((app) => app.close()));
  } finally {
    clearInterval(closeIdle);
  }
}
