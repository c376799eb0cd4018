/** Which interfaces a listener binds: `localhost` means loopback only, for the operator API above all. */
import { isIP } from 'node:net';
import { describe, expect, it } from 'vitest';
import { buildOperatorApp } from '../../src/app.ts';
import { listenOptions } from '../../src/http/listen.ts';
import { openContext } from '../../src/runtime.ts';
import { pgliteCopy } from '../helpers/database.ts';
import { testConfig } from '../helpers/server.ts';

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1)$/;

describe('listen addresses', () => {
  it('binds an operator API configured on localhost to loopback addresses only', async () => {
    const { config } = testConfig({ PONTE_OPERATOR_URL: 'http://localhost:0' });
    const ctx = await openContext(config, undefined, config.databaseUrl ? undefined : await pgliteCopy());
    const operator = await buildOperatorApp(ctx);
    try {
      await operator.listen(listenOptions(config.operatorUrl));
      const bound = operator.addresses().map((entry) => (typeof entry === 'string' ? entry : entry.address));
      expect(bound.length).toBeGreaterThan(0);
      for (const address of bound) expect([address, LOOPBACK.test(address)]).toEqual([address, true]);
    } finally {
      await operator.close();
      await ctx.db.close();
    }
  }, 180_000);

  it('binds the address a URL names, brackets removed, on the port it names or its scheme default', () => {
    expect(listenOptions(new URL('http://localhost:8090'))).toEqual({ host: 'localhost', port: 8090 });
    expect(listenOptions(new URL('http://127.0.0.1:8090'))).toEqual({ host: '127.0.0.1', port: 8090 });
    expect(listenOptions(new URL('http://[::]:8080'))).toEqual({ host: '::', port: 8080 });
    expect(listenOptions(new URL('https://0.0.0.0'))).toEqual({ host: '0.0.0.0', port: 443 });
    expect(isIP(listenOptions(new URL('http://[::1]:1')).host)).toBe(6);
  });
});
