import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from '../../src/http/problem.ts';

describe('a database that cannot be reached is a 503, not an internal error', () => {
  it('recognises refused, dropped and timed-out connections, a server out of connections and shutdown', () => {
    const cases = [
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
      Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }),
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      Object.assign(new Error('the database system is starting up'), { code: '57P03' }),
      Object.assign(new Error('connection failure'), { code: '08006' }),
      Object.assign(new Error('sorry, too many clients already'), { code: '53300' }),
    ];
    for (const error of cases) expect(isDatabaseUnavailable(error), error.message).toBe(true);
  });

  it('leaves every other failure an internal error', () => {
    const cases = [
      new Error('boom'),
      Object.assign(new Error('duplicate key value'), { code: '23505' }),
      Object.assign(new Error('syntax error'), { code: '42601' }),
      Object.assign(new Error('deadlock detected'), { code: '40P01' }),
      Object.assign(new Error('out of memory'), { code: '53200' }),
    ];
    for (const error of cases) expect(isDatabaseUnavailable(error), error.message).toBe(false);
  });
});
