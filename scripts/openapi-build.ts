/** Builds the OpenAPI documents the public listeners serve, in-process on an in-memory database. */
import { buildPublicApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import type { Environment } from '../src/lib/environment.ts';
import { openContext } from '../src/runtime.ts';

export type ServerUrls = { production?: string | undefined; sandbox?: string | undefined };

export async function buildDocuments(
  environments: Environment[],
  urls: ServerUrls = {},
): Promise<Map<Environment, object>> {
  const config = loadConfig({
    ...(urls.production ? { PONTE_PRODUCTION_URL: urls.production } : {}),
    ...(urls.sandbox ? { PONTE_SANDBOX_URL: urls.sandbox } : {}),
    PONTE_DATA_DIR: 'memory://',
    PONTE_OPERATOR_TOKEN: 'document-build-only-not-a-served-operator-token',
    PONTE_LOG_LEVEL: 'silent',
  });
  const ctx = await openContext(config);
  const documents = new Map<Environment, object>();
  try {
    for (const environment of environments) {
      const app = await buildPublicApp(ctx, environment);
      await app.ready();
      documents.set(environment, app.swagger());
      await app.close();
    }
  } finally {
    await ctx.db.close();
  }
  return documents;
}
