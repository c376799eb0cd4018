/**
 * Loaded into a spawned server (`node --import`) by tests that need a process to die at the worst
 * moment of a request: a request carrying `x-test-crash-after-commit: 1` kills its process with
 * SIGKILL as soon as one of its database transactions has committed, before anything else (the
 * answer, the bookkeeping that follows it) runs. Nothing of this is in the server's own code.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import diagnostics from 'node:diagnostics_channel';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

const marked = new AsyncLocalStorage<boolean>();
const handlerStart = diagnostics.channel('tracing:fastify.request.handler:start');
handlerStart.bindStore(marked, (message) => {
  const { request } = message as { request: { headers: Record<string, string | undefined> } };
  return request.headers['x-test-crash-after-commit'] === '1';
});
handlerStart.subscribe(() => {});

const die = (): never => {
  process.kill(process.pid, 'SIGKILL');
  throw new Error('unreachable');
};

const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  const result = query.apply(this, args);
  if (marked.getStore() && args[0] === 'COMMIT' && result instanceof Promise) return result.then(die);
  return result;
} as typeof pg.Client.prototype.query;

const transaction = PGlite.prototype.transaction;
PGlite.prototype.transaction = async function (this: PGlite, ...args: Parameters<PGlite['transaction']>) {
  const result = await transaction.apply(this, args);
  if (marked.getStore()) die();
  return result;
} as typeof PGlite.prototype.transaction;
