/**
 * Loaded into a spawned server (`node --import`) by the first-run crash tests: the process is killed
 * with SIGKILL at one moment of its first start, as `PONTE_TEST_FIRST_RUN_CRASH` says:
 * - `printed`: as soon as the first-run secrets have been written to standard output;
 * - `committed`: as soon as the first database transaction that ends after they were written has
 *   committed.
 * Nothing of this is in the server's own code.
 */
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

const mode = process.env.PONTE_TEST_FIRST_RUN_CRASH;
let printed = false;

const die = (): never => {
  process.kill(process.pid, 'SIGKILL');
  throw new Error('unreachable');
};

const write = process.stdout.write.bind(process.stdout) as (...args: unknown[]) => boolean;
process.stdout.write = ((...args: unknown[]) => {
  const result = write(...args);
  if (typeof args[0] === 'string' && args[0].includes('Ponte is set up')) {
    printed = true;
    if (mode === 'printed') die();
  }
  return result;
}) as typeof process.stdout.write;

const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  const result = query.apply(this, args);
  if (mode === 'committed' && printed && args[0] === 'COMMIT' && result instanceof Promise) {
    return result.then(die);
  }
  return result;
} as typeof pg.Client.prototype.query;

const transaction = PGlite.prototype.transaction;
PGlite.prototype.transaction = async function (this: PGlite, ...args: Parameters<PGlite['transaction']>) {
  const result = await transaction.apply(this, args);
  if (mode === 'committed' && printed) die();
  return result;
} as typeof PGlite.prototype.transaction;
