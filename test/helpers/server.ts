/**
 * A complete Ponte for a test file: the production, sandbox and operator apps over one real database
 * (the run's PostgreSQL database, or an in-memory PGlite), with the background workers running (unless
 * `workers: false`, or `PONTE_WORKERS=false` in `env`).
 */
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { inject as injected } from 'vitest';
import { buildOperatorApp, buildPublicApp } from '../../src/app.ts';
import { type Config, loadConfig } from '../../src/config.ts';
import type { AppContext } from '../../src/context.ts';
import type { Clock } from '../../src/core/clock.ts';
import { closeApps } from '../../src/http/close.ts';
import type { Environment } from '../../src/lib/environment.ts';
import { randomBase62 } from '../../src/lib/secrets.ts';
import { openContext } from '../../src/runtime.ts';
import { startConfiguredWorkers } from '../../src/workers/index.ts';
import { ownDatabase, pgliteCopy, sharedPglite, TEST_POOL_SIZE } from './database.ts';
import { checkAnswersAgainstDocument } from './document-check.ts';

export const usingPostgres = (): boolean => injected('testDatabaseUrl') !== null;

export type Tenant = { projectId: string; sandboxKey: string; productionKey: string };

export type TestServer = {
  ctx: AppContext;
  config: Config;
  operatorToken: string;
  sandbox: FastifyInstance;
  production: FastifyInstance;
  operator: FastifyInstance;
  app(environment: Environment): FastifyInstance;
  /** A new project with one sandbox and one production key, created through the operator API. */
  newTenant(name?: string): Promise<Tenant>;
  /** The PostgreSQL database this server works in; null on PGlite. */
  databaseUrl: string | null;
  close(): Promise<void>;
};

export function testConfig(overrides: NodeJS.ProcessEnv = {}): { config: Config; operatorToken: string } {
  const operatorToken = `bootstrap-${randomBase62(32)}`;
  const databaseUrl = injected('testDatabaseUrl');
  const config = loadConfig({
    PONTE_DATA_DIR: 'memory://',
    PONTE_OPERATOR_TOKEN: operatorToken,
    PONTE_LOG_LEVEL: 'silent',
    // simulated chains confirm at once, so that a sandbox flow completes within its request
    PONTE_SANDBOX_CHAIN_CONFIRMATION_MS: '0',
    // Tests move fake clocks without a database notification: idle workers look again within 250 ms.
    PONTE_WORKER_MAX_IDLE_MS: '250',
    // Suites try many wrong keys on purpose from one address; the throttle has tests of its own.
    PONTE_AUTH_FAILURE_BURST: '1000000',
    PONTE_DATABASE_POOL_SIZE: TEST_POOL_SIZE,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...overrides,
  });
  return { config, operatorToken };
}

export type TestServerOptions = {
  env?: NodeJS.ProcessEnv;
  clock?: Clock;
  workers?: boolean;
  /**
   * A database no other test file works in, for a file whose assertions depend on platform-wide state
   * (conversion rates, the outbox, the first run): a copy of the migrated template, dropped on close.
   * A server given its own `clock` with its workers running always has one.
   */
  ownDatabase?: boolean;
};

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  // Workers on a clock of the test's own would expire, sweep and purge other files' rows on a shared
  // PostgreSQL database as if days had passed for them too: such a server works in a database of its own.
  const isolated = options.ownDatabase || (options.clock !== undefined && options.workers !== false);
  const own = isolated ? await ownDatabase() : null;
  const { config, operatorToken } = testConfig({ ...options.env, ...(own ? { DATABASE_URL: own.url } : {}) });
  const pglite = config.databaseUrl ? undefined : await (isolated ? pgliteCopy() : sharedPglite());
  const ctx = await openContext(config, options.clock, pglite);
  const [sandbox, production, operator] = await Promise.all([
    buildPublicApp(ctx, 'sandbox'),
    buildPublicApp(ctx, 'production'),
    buildOperatorApp(ctx),
  ]);
  checkAnswersAgainstDocument(sandbox);
  checkAnswersAgainstDocument(production);
  const silent = { error() {} };
  const workers = options.workers === false ? undefined : startConfiguredWorkers(ctx, silent);

  async function operatorPost(url: string, payload: object) {
    const response = await operator.inject({
      method: 'POST',
      url,
      payload,
      headers: { authorization: `Bearer ${operatorToken}` },
    });
    if (response.statusCode !== 201) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
    return response.json();
  }

  return {
    ctx,
    config,
    operatorToken,
    sandbox,
    production,
    operator,
    databaseUrl: config.databaseUrl ?? null,
    app: (environment) => (environment === 'sandbox' ? sandbox : production),
    async newTenant(name = 'Test partner') {
      const project = await operatorPost('/operator/projects', { name });
      const sandboxKey = await operatorPost(`/operator/projects/${project.id}/api-keys`, {
        environment: 'sandbox',
      });
      const productionKey = await operatorPost(`/operator/projects/${project.id}/api-keys`, {
        environment: 'production',
      });
      return { projectId: project.id, sandboxKey: sandboxKey.key, productionKey: productionKey.key };
    },
    async close() {
      await workers?.stop();
      await closeApps([sandbox, production, operator]);
      ctx.pix.close();
      await ctx.db.close();
      await own?.drop();
    },
  };
}

export type TestApi = {
  server: TestServer;
  tenant: Tenant;
  /** The tenant's sandbox and production APIs. */
  sandbox: Client;
  production: Client;
  /** The operator API, with the bootstrap operator token. */
  operator: Client;
};

/** The usual start of a test file: a server, one tenant, and clients for its APIs. */
export async function startTestApi(
  options: Parameters<typeof startTestServer>[0] & { tenantName?: string } = {},
): Promise<TestApi> {
  const server = await startTestServer(options);
  const tenant = await server.newTenant(options.tenantName);
  return {
    server,
    tenant,
    sandbox: client(server.sandbox, tenant.sandboxKey),
    production: client(server.production, tenant.productionKey),
    operator: client(server.operator, server.operatorToken),
  };
}

/** A small client for one app and one key: `client.post('/customers', body)`. */
export function client(app: FastifyInstance, key: string) {
  const call = (
    method: InjectOptions['method'],
    url: string,
    payload?: unknown,
    headers: Record<string, string> = {},
  ) =>
    app.inject({
      method,
      url,
      ...(payload === undefined ? {} : { payload: payload as InjectOptions['payload'] }),
      headers: { authorization: `Bearer ${key}`, ...headers },
    }) as Promise<LightMyRequestResponse>;
  return {
    get: (url: string, headers?: Record<string, string>) => call('GET', url, undefined, headers),
    post: (url: string, payload: unknown, headers?: Record<string, string>) =>
      call('POST', url, payload, headers),
    delete: (url: string, headers?: Record<string, string>) => call('DELETE', url, undefined, headers),
  };
}

export type Client = ReturnType<typeof client>;

/** Polls `read` until `done` holds (no fixed sleeps); fails after `timeoutMs`. */
export async function eventually<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 5_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`condition not met within ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
