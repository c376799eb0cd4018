/**
 * The Ponte process: opens and migrates the database, serves the production and sandbox public APIs and
 * the operator API on their addresses, runs the background workers (unless `PONTE_WORKERS=false`: an
 * API-only process), and shuts down gracefully on SIGTERM/SIGINT (stop accepting, finish in-flight
 * requests, stop workers, close the database).
 */
import type { FastifyInstance } from 'fastify';
import { buildDashboardApp, buildOperatorApp, buildPublicApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { closeApps } from './http/close.ts';
import { checkListenable, ListenError, listenOptions } from './http/listen.ts';
import { processLogger } from './http/logger.ts';
import { type FirstRunBannerInput, firstRunBanner } from './modules/projects/first-run-banner.ts';
import { createProjectService } from './modules/projects/service.ts';
import { createWebUserService } from './modules/web-users/service.ts';
import { registerWebhooks } from './rails/pix/registry.ts';
import { openContext } from './runtime.ts';
import { startConfiguredWorkers } from './workers/index.ts';

let log = processLogger('info');

/** Writes the first run's secrets to standard output; resolves once they are written. */
function printFirstRun(setup: FirstRunBannerInput, sandboxUrl: URL, operatorUrl: URL): Promise<void> {
  const lines = firstRunBanner(setup, sandboxUrl, operatorUrl);
  return new Promise<void>((resolve, reject) =>
    process.stdout.write(`${lines.join('\n')}\n`, (error) => (error ? reject(error) : resolve())),
  );
}

async function main() {
  const config = loadConfig();
  log = processLogger(config.logLevel);
  const listeners = [
    { variable: 'PONTE_PRODUCTION_URL', url: config.productionUrl },
    { variable: 'PONTE_SANDBOX_URL', url: config.sandboxUrl },
    { variable: 'PONTE_OPERATOR_URL', url: config.operatorUrl },
    { variable: 'PONTE_DASHBOARD_URL', url: config.dashboardUrl },
  ];
  // Every address is checked, then bound, before the first run creates the Default project and shows
  // its secrets: a process that cannot serve must not spend secrets shown once.
  await checkListenable(listeners);
  const ctx = await openContext(config);
  const apps: [FastifyInstance, URL][] = [
    [await buildPublicApp(ctx, 'production'), config.productionUrl],
    [await buildPublicApp(ctx, 'sandbox'), config.sandboxUrl],
    [await buildOperatorApp(ctx), config.operatorUrl],
    [await buildDashboardApp(ctx), config.dashboardUrl],
  ];
  try {
    for (const [index, [app, url]] of apps.entries()) {
      try {
        await app.listen(listenOptions(url));
      } catch (error) {
        throw new ListenError(listeners[index]!.variable, url, (error as NodeJS.ErrnoException).code ?? '');
      }
    }
  } catch (error) {
    await closeApps(apps.map(([app]) => app));
    await ctx.db.close();
    throw error;
  }

  const users = createWebUserService({ ...ctx, encryptionKey: ctx.instanceKeys.encryption });
  // the secrets are printed before the set-up commits: none is ever stored without having been shown
  await createProjectService(ctx).firstRun(
    !config.operatorToken,
    (tx, projectId) =>
      users.inviteIn(
        tx,
        { id: null, name: 'first-run' },
        { surface: 'dashboard', projectId, role: 'admin' },
        config.adminEmail,
      ),
    (setup) => printFirstRun(setup, config.sandboxUrl, config.operatorUrl),
  );
  const workers = startConfiguredWorkers(ctx, log);
  const webhooks = registerWebhooks(ctx.pix, log);
  log.info(
    {
      production: config.productionUrl.origin,
      sandbox: config.sandboxUrl.origin,
      operator: config.operatorUrl.origin,
      dashboard: config.dashboardUrl.origin,
      workers: config.workers,
    },
    `Ponte listening (database: ${ctx.db.kind})`,
  );
  const nodes = ctx.chains.all('production').filter((chain) => chain.mode === 'NODE');
  if (nodes.length > 0) {
    // public addresses only: fund these with the stablecoins and the chain's token for gas
    const treasury = Object.fromEntries(nodes.map((chain) => [chain.blockchain, chain.addressAt(0)]));
    log.info({ treasury }, 'chain treasury addresses');
  }

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    log.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      log.error('grace period over; exiting');
      process.exit(1);
    }, config.shutdownGraceMs);
    force.unref();
    await closeApps(apps.map(([app]) => app));
    await workers?.stop();
    webhooks.stop();
    ctx.pix.close();
    await ctx.db.close();
    log.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((error) => {
  if (error instanceof ListenError) process.stderr.write(`${error.message}\n`);
  else if (error instanceof ConfigError) log.error(error.message);
  else log.error({ err: error }, 'failed to start');
  process.exit(1);
});
