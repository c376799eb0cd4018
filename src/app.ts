/**
 * Builds one Fastify app per surface: the public API of one environment, or the operator API.
 * No listening here; main.ts binds each app to its address and tests drive them with `inject`.
 */
import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import type { DestinationStream } from 'pino';
import type { AppContext } from './context.ts';
import { API_VERSIONS, DEFAULT_API_VERSION } from './core/api-version.ts';
import { registerApiReference } from './http/api-reference.ts';
import { registerApiVersion } from './http/api-version.ts';
import { registerApiKeyAuth, registerOperatorAuth } from './http/auth.ts';
import { registerAuthThrottle } from './http/auth-throttle.ts';
import { registerHealthRoutes } from './http/health.ts';
import { registerIdempotency } from './http/idempotency.ts';
import { registerJsonBody } from './http/json-body.ts';
import { loggerOptions } from './http/logger.ts';
import { registerMetricsRoute, registerRequestMetrics } from './http/metrics.ts';
import { readOutboxDepth, readOutboxOldest } from './http/metrics-repo.ts';
import { finishDocument, serversFor } from './http/openapi/document.ts';
import { finishOperatorDocument } from './http/openapi/operator-document.ts';
import { readPixGauges } from './http/pix-metrics.ts';
import { pixWebhookDetail } from './http/pix-readiness.ts';
import { frameworkErrorHandler, registerProblemHandlers } from './http/problem.ts';
import { registerRateLimit } from './http/rate-limit.ts';
import { marketReferenceDetail, ratesDetail } from './http/rate-readiness.ts';
import { readReferenceGauges } from './http/rates-metrics.ts';
import { genRequestId } from './http/request-id.ts';
import { registerRequestLog } from './http/request-log.ts';
import { lazySerializers } from './http/serialization.ts';
import { readUsdGauges } from './http/usd-metrics.ts';
import { validatorCompiler } from './http/validation.ts';
import type { Environment } from './lib/environment.ts';
import { openPublicRoutes, operatorRoutes, partnerRoutes, sharedSchemas } from './modules/index.ts';
import { operatorLookup } from './modules/operators/accounts.ts';
import { ratesSetAt, referenceReadiness } from './modules/pricing/service.ts';
import { createRequestRecorder } from './modules/request-log/recorder.ts';
import { pixScrape, referenceSamples, usdScrape } from './runtime.ts';
import { FAVICON_SVG, FAVICON_TYPE } from './web/kit/favicon.ts';
import { registerConsole } from './web/pages/console/index.ts';
import { registerDashboard } from './web/pages/dashboard/index.ts';

export type BuildOptions = { logLevel?: string; logStream?: DestinationStream };

function baseApp(ctx: AppContext, options: BuildOptions, versioned = false): FastifyInstance {
  const app = Fastify({
    logger: loggerOptions(options.logLevel ?? ctx.config.logLevel, options.logStream),
    genReqId: genRequestId,
    // Log lines name the request id as problem bodies do.
    logController: new LogController({ requestIdLogLabel: 'requestId' }),
    bodyLimit: 1024 * 1024,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    routerOptions: { ignoreTrailingSlash: true },
    frameworkErrors: frameworkErrorHandler,
    schemaController: { compilersFactory: { buildSerializer: lazySerializers() } },
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  // A JSON API: plain text bodies are refused with 415 rather than parsed.
  app.removeContentTypeParser('text/plain');
  registerJsonBody(app);
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  if (versioned) registerApiVersion(app);
  registerProblemHandlers(app);
  registerAuthThrottle(app, ctx);
  for (const schema of sharedSchemas) app.addSchema(schema);
  return app;
}

async function registerOpenApi(app: FastifyInstance, ctx: AppContext, environment: Environment) {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Ponte API',
        version: '1.0.0',
        description:
          'Cross-border banking: onboard and verify customers, register PIX and US bank accounts, raise limits ' +
          'through compliance review, bring BRL in over PIX as stablecoin, and pay stablecoin or BRL out to ' +
          'PIX accounts at quoted or locked exchange rates.\n\n' +
          `**Versions.** Send \`API-Version\` (one of ${API_VERSIONS.join(', ')}) to pick the version a request is ` +
          `served under; without it a request gets ${DEFAULT_API_VERSION}, which never changes. Changes that ` +
          'could break an integration ship only under a new version; additive ones (routes, optional parameters, ' +
          'fields, event types) reach every version. Every answer names its version in `API-Version`, every ' +
          'webhook body and event in `apiVersion`. An unknown version answers 400.\n\n' +
          '**Methods.** A path called with a method it does not serve answers 405 `method_not_allowed` ' +
          '(problem+json) with `Allow` listing the methods it serves.\n\n' +
          '**Lists** take `page` (or `cursor`) and `limit`, or `startingAfter` for a keyset walk that stays ' +
          "stable while items are created: empty to begin, then each answer's `pagination.nextCursor`.",
        license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      },
      servers: serversFor(environment, {
        production: ctx.config.productionUrl,
        sandbox: ctx.config.sandboxUrl,
      }),
      components: {
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            description: `API key (this listener: ${environment})`,
          },
        },
      },
    },
    transformObject: (documents) =>
      finishDocument('openapiObject' in documents ? documents.openapiObject : {}),
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => String(json.$id ?? `def-${i}`) },
  });
  app.get('/openapi.json', { schema: { hide: true }, config: { auth: 'none' } }, async () => app.swagger());
  app.get('/favicon.ico', { schema: { hide: true }, config: { auth: 'none' } }, async (_request, reply) =>
    reply
      .header('content-type', FAVICON_TYPE)
      .header('cache-control', 'public, max-age=86400')
      .send(FAVICON_SVG),
  );
  // The reference is served whole from this listener (the bundled script, no web fonts) and calls nothing
  // but this listener: no proxy, no hosted AI agent, no SDK generator, no telemetry, so it works offline
  // and sends a partner's keys and data nowhere else. "Try it" authenticates with the bearer API key.
  await registerApiReference(app, {
    routePrefix: '/docs',
    heading: `Ponte API reference (${environment})`,
    documentUrl: '/openapi.json',
    authentication: 'Authenticate with Authorization: Bearer <API key>; the dashboard issues keys.',
    configuration: {
      url: '/openapi.json',
      title: 'Ponte API reference',
      pageTitle: `Ponte API reference (${environment})`,
      metaData: { title: `Ponte API reference (${environment})` },
      withDefaultFonts: false,
      proxyUrl: '',
      agent: { disabled: true },
      showDeveloperTools: 'never',
      hideClientButton: false,
      telemetry: false,
      favicon: '/favicon.ico',
      authentication: { preferredSecurityScheme: 'bearerAuth' },
    },
  });
}

/** The operator API's document: the operator routes registered after this in the same scope. */
async function registerOperatorOpenApi(api: FastifyInstance, ctx: AppContext) {
  await api.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Ponte operator API',
        version: '1.0.0',
        description:
          'What platform staff do: create projects (one per partner) and issue their API keys, invite ' +
          'dashboard and console users, review verifications, limit requests, holders and screening cases, ' +
          'set exchange rates and partner fees, and read the audit log. Served on the operator listener ' +
          'only. Authenticate with `Authorization: Bearer <operator token>` (the first run prints the ' +
          'bootstrap token; `POST /operator/operators` issues named ones). Lists take `page` and `limit`.',
        license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      },
      servers: [{ url: ctx.config.operatorUrl.origin, description: 'Operator listener' }],
      components: {
        securitySchemes: {
          operatorAuth: { type: 'http', scheme: 'bearer', description: 'Operator token' },
        },
      },
    },
    transformObject: (documents) =>
      finishOperatorDocument('openapiObject' in documents ? documents.openapiObject : {}),
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => String(json.$id ?? `def-${i}`) },
  });
}

export async function buildPublicApp(
  ctx: AppContext,
  environment: Environment,
  options: BuildOptions = {},
): Promise<FastifyInstance> {
  const app = baseApp(ctx, options, true);
  registerRequestMetrics(app, environment);
  await registerOpenApi(app, ctx, environment);
  registerHealthRoutes(
    app,
    ctx.db,
    () => pixWebhookDetail(ctx.pix, [environment], false),
    // the sandbox's chains are simulated: production's nodes do not make it unready
    environment === 'production' ? ctx.chainNodes : undefined,
  );
  for (const plugin of openPublicRoutes) await app.register(plugin, { ctx, environment });
  const recorder = createRequestRecorder(ctx.db, {
    intervalMs: ctx.config.requestLog.flushIntervalMs,
    onError: (error) => app.log.warn({ err: error }, 'request log batch not written'),
  });
  app.addHook('onClose', () => recorder.close());
  await app.register(async (api) => {
    registerApiKeyAuth(api, environment, ctx.keys);
    registerRequestLog(api, environment, recorder, ctx.clock);
    registerRateLimit(api, ctx);
    registerIdempotency(api, ctx);
    for (const plugin of partnerRoutes) await api.register(plugin, { ctx, environment });
  });
  return app;
}

export async function buildOperatorApp(
  ctx: AppContext,
  options: BuildOptions = {},
): Promise<FastifyInstance> {
  const app = baseApp(ctx, options);
  registerRequestMetrics(app, 'operator');
  registerHealthRoutes(
    app,
    ctx.db,
    async () => ({
      ...pixWebhookDetail(ctx.pix, ['production', 'sandbox'], true),
      ...(await ratesDetail(ctx.db, (db) => ratesSetAt(db, ctx.clock()))),
      ...marketReferenceDetail(() => referenceReadiness(ctx.references)),
    }),
    ctx.chainNodes,
  );
  const pix = pixScrape(ctx);
  const usd = usdScrape(ctx);
  registerMetricsRoute(
    app,
    ctx.db,
    ctx.clock,
    {
      outboxDepth: readOutboxDepth,
      outboxOldest: readOutboxOldest,
      ratesSetAt: (db) => ratesSetAt(db, ctx.clock()),
    },
    async () => {
      readReferenceGauges(referenceSamples(ctx));
      await readPixGauges(ctx.db, pix);
      await readUsdGauges(usd);
    },
  );
  let operatorDocument: () => unknown = () => ({});
  await app.register(async (api) => {
    // In this scope, before the routes: the document describes the operator API and nothing else.
    await registerOperatorOpenApi(api, ctx);
    operatorDocument = () => api.swagger();
    registerOperatorAuth(api, operatorLookup(ctx.db), ctx.config.operatorToken);
    for (const plugin of operatorRoutes) await api.register(plugin, { ctx });
  });
  // The document and its reference need no token (they describe routes, and show no data), as the
  // public API's do; "Try it" sends the operator token given in the reference.
  await app.register(async (docs) => {
    docs.get('/operator/openapi.json', { schema: { hide: true } }, async () => operatorDocument());
    docs.get('/operator', { schema: { hide: true } }, async (_request, reply) =>
      reply.redirect('/operator/docs', 302),
    );
    await registerApiReference(docs, {
      routePrefix: '/operator/docs',
      heading: 'Ponte operator API reference',
      documentUrl: '/operator/openapi.json',
      authentication: 'Authenticate with Authorization: Bearer <operator token>; the first run prints one.',
      configuration: {
        url: '/operator/openapi.json',
        title: 'Ponte operator API reference',
        pageTitle: 'Ponte operator API reference',
        metaData: { title: 'Ponte operator API reference' },
        withDefaultFonts: false,
        proxyUrl: '',
        agent: { disabled: true },
        showDeveloperTools: 'never',
        hideClientButton: false,
        telemetry: false,
        authentication: { preferredSecurityScheme: 'operatorAuth' },
      },
    });
  });
  await app.register(async (web) => registerConsole(web, ctx));
  return app;
}

/** The partner dashboard: server-rendered pages over the same services as the API. */
export async function buildDashboardApp(
  ctx: AppContext,
  options: BuildOptions = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    logger: loggerOptions(options.logLevel ?? ctx.config.logLevel, options.logStream),
    genReqId: genRequestId,
    logController: new LogController({ requestIdLogLabel: 'requestId' }),
    bodyLimit: 256 * 1024,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    routerOptions: { ignoreTrailingSlash: true },
    schemaController: { compilersFactory: { buildSerializer: lazySerializers() } },
  });
  await registerDashboard(app, ctx);
  return app;
}
